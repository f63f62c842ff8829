/**
 * Cures for the noise of a sample (the within-pass log-sd, verdicts/precision.ts): each a switch
 * of the plan (`--cures`, the page's `cures=`), recorded with the results so an A/B of the harness
 * itself can turn one off and measure what it did (docs/figures.md, "The noise floor"). Kept on by
 * default only where that measurement showed the noise fell and the findings' ratios held.
 *
 * - `gc`: a full garbage collection before each sample, outside its timed section, so a sample
 *   does not pay for the garbage of the ones before it. The driver exposes it where the engine
 *   can: Chromium's `gc()` (V8's --expose-gc), Firefox's `TestUtils.gc()` (the pref
 *   dom.testing.testutils.enabled, which Playwright's Firefox profile sets). WebKitGTK offers a
 *   page none; the environment says which ran (`forcedGc`).
 * - `engine`: each engine's benchmarking settings, from its own perf harnesses (the driver sets
 *   them, citing where each comes from: src/cli/drivers/engine-settings.ts).
 * - `batch`: a case that writes (a fresh database per run) takes as many whole runs per sample as
 *   make its timed sections last BATCH_TARGET_MS, each on its own database, untimed between them,
 *   the sample their mean; a 5 ms sample is shorter than a garbage collection or a scheduler
 *   slice, and one of either then decides it. Shared-database cases already repeat their body
 *   (run/sampling/repeats.ts).
 * - `core`: the page's process alone on CPUs of its own, every other process the sweep started on
 *   the rest (Linux; the sweep applies it: src/cli/placement/). On two cores most of a sample's
 *   scatter is the page waiting for a core its own browser holds. A page opened by hand has none.
 */
import { quoted } from '../base/shown.ts';

export const CURES = ['gc', 'engine', 'batch', 'core'] as const;
export type Cure = (typeof CURES)[number];

/**
 * On when a plan names none: none. A cure goes here once `npm run noise-ab` on a quiet machine
 * shows it lowers the noise and leaves the findings' ratios within their intervals. `gc` and
 * `engine` left the noise where it was; `core` lowered it in Chromium and Firefox but moved a
 * third of the findings, since a round trip to the browser's process then waits for no core
 * (docs/figures.md, "The noise floor" and "The page's own core").
 */
export const DEFAULT_CURES: readonly Cure[] = [];

const isCure = (s: string): s is Cure => (CURES as readonly string[]).includes(s);

/** `gc,engine`, `none` (every cure off) or `default`; a problem in words, or the list. */
export function parseCures(text: string): Cure[] | string {
  const t = text.trim();
  if (t === 'none') return [];
  if (t === 'default' || t === '') return [...DEFAULT_CURES];
  const names = t.split(',').map((s) => s.trim());
  const bad = names.find((n) => !isCure(n));
  if (bad !== undefined)
    return `${quoted(bad)} is not a cure; allowed: ${CURES.join(', ')}, none or default`;
  return CURES.filter((c) => names.includes(c));
}

/** The text parseCures reads back: `none` for an empty list. */
export function formatCures(cures: readonly Cure[]): string {
  return cures.length === 0 ? 'none' : cures.join(',');
}
