/**
 * The line under the Results heading after a run: how long it took and how precise its medians
 * are (src/core/verdicts/precision.ts), so a reader knows what the numbers below are worth before reading
 * them. Pure: text out.
 */
import { formatDuration } from '../../core/base/format.ts';
import { Budget } from '../../core/plan/budget.ts';
import {
  formatNoise,
  formatPassDifference,
  formatPrecisionSummary,
  precisionSummary,
} from '../../core/verdicts/precision.ts';
import type { ResultsFile } from '../../core/results/results.ts';

/** The target rows are counted against when the plan has none (fixed sampling): the adaptive default. */
const FIXED_TARGET = 0.02;

/** `4.2 s` under a minute, `3m52s` from there: the page's run times, to the second once they are long. */
export function formatElapsed(ms: number): string {
  return ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : formatDuration(Math.round(ms / 1000) * 1000);
}

/**
 * `Took 3m52s (sampling budget 4m). Precision: median row ±1.4% (95% interval of the median); …`,
 * then, with passes, `The passes differ by τ …`.
 * `elapsedMs` is the page's own clock around the run, environment and clean-up included.
 */
export function runSummaryText(results: ResultsFile, elapsedMs: number): string {
  const plan = results.run.plan;
  const took = `${results.run.cancelled ? 'Cancelled after' : 'Took'} ${formatElapsed(elapsedMs)}`;
  const browserMs = new Budget(plan).browserMs;
  const budget =
    plan.auto && browserMs !== undefined ? ` (sampling budget ${formatDuration(browserMs)})` : '';
  const summary = precisionSummary(results.cases, plan.auto?.targetRelCi ?? FIXED_TARGET);
  const passes = summary.passes ? ` The ${formatPassDifference(summary.passes)}.` : '';
  const noise = summary.noise ? ` Noise: ${formatNoise(summary.noise)}.` : '';
  return `${took}${budget}. Precision: ${formatPrecisionSummary(summary)}.${passes}${noise}`;
}
