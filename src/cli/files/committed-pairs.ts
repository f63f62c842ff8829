/**
 * The between-run scatter of identical code (core/stats/between-runs.ts), measured from the committed
 * A/A pairs: back-to-back default sweeps of one commit, which results/README.md lists. Shared by
 * `npm run between-runs`, which writes the table, and the unit test that holds the table to it.
 */
import { join } from 'node:path';
import {
  estimateBetweenRuns,
  type AaRow,
  type BetweenRuns,
} from '../../core/stats/between-runs.ts';
import { compareResults } from '../../core/verdicts/compare.ts';
import type { ResultsFile } from '../../core/results/results.ts';
import { REPO_ROOT } from '../build/build-page.ts';
import { readResultsFiles } from './read-results.ts';

/** The committed back-to-back pairs of identical code, base then new (results/README.md, "Committed runs"). */
export const AA_PAIRS: [string, string][] = [
  ['2026-11-24T19-41-01Z-bbca', '2026-11-24T19-56-27Z-a144'],
  ['2026-11-24T21-55-36Z-7b14', '2026-11-24T22-13-35Z-ca9e'],
  ['2026-11-25T00-07-20Z-5a1f', '2026-11-25T00-23-49Z-fc22'],
  ['2026-11-25T05-53-44Z-0e33', '2026-11-25T06-13-31Z-73a2'],
];

export const BROWSERS = ['chromium', 'firefox', 'webkit'];

/** The pair's two documents for one browser, or null where a side lacks it. */
export function aaPair(
  base: string,
  next: string,
  browser: string,
): [ResultsFile, ResultsFile] | null {
  try {
    const [a, b] = readResultsFiles([
      join(REPO_ROOT, 'results', `${base}-${browser}.json`),
      join(REPO_ROOT, 'results', `${next}-${browser}.json`),
    ]).map((docs) => docs[0]);
    return a && b ? [a, b] : null;
  } catch {
    return null;
  }
}

/** One pair's compared rows, each net of its browser's shift, and the shifts: what the table is made of. */
interface PairChanges {
  rows: AaRow[];
  shifts: { browser: string; shift: number }[];
}

/**
 * Each pair's changes, measured once per process: the committed files do not change while it
 * runs, and a table left one pair out (the unit test's, for each pair in turn) reads the others.
 */
const measured = new Map<string, PairChanges>();

function pairChanges(base: string, next: string): PairChanges {
  const key = `${base} ${next}`;
  const known = measured.get(key);
  if (known) return known;
  const found: PairChanges = { rows: [], shifts: [] };
  for (const browser of BROWSERS) {
    const docs = aaPair(base, next, browser);
    if (!docs) continue;
    const c = compareResults([docs[0]], [docs[1]]);
    for (const r of c.rows)
      if (r.change)
        found.rows.push({ browser, store: r.adapter, net: Math.log1p(r.change.pct / 100) });
    const shift = c.runToRun.find((x) => x.browser === browser)?.shift;
    if (shift) found.shifts.push({ browser, shift: Math.log1p(shift.pct / 100) });
  }
  measured.set(key, found);
  return found;
}

/** The table from the committed pairs: each compared row's change net of its browser's shift, and each shift. */
export function measureBetweenRuns(pairs: [string, string][] = AA_PAIRS): BetweenRuns {
  const each = pairs.map(([base, next]) => pairChanges(base, next));
  return estimateBetweenRuns(
    pairs,
    each.flatMap((p) => p.rows),
    each.flatMap((p) => p.shifts),
  );
}
