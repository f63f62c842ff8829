/**
 * How far identical code moves between two runs on this kind of machine, beyond what either run's
 * own intervals see, measured from committed back-to-back pairs of identical code (A/A pairs):
 * per browser and store, the scatter of a row's change net of the browser's shift; per browser,
 * the scatter of that shift. `compare` widens each row's interval and the shift's by them, so two
 * runs of unchanged code do not read as a regression. Pure: the table is data
 * (between-runs.json, written by `npm run between-runs` from the pairs it names).
 *
 * Why a high quantile and not a standard deviation: the changes of A/A rows have heavy tails (a
 * localStorage or memory row moved by 33% where the median row moved by 3%), so the scale is the
 * 90th percentile of the rows' absolute log changes over the normal's 1.645, which the tails do
 * not drag as far as an RMS but which covers them better than a MAD.
 */
import TABLE from './between-runs.json' with { type: 'json' };
import { own } from '../base/own.ts';

export interface BetweenRuns {
  /** The A/A pairs the table comes from: run ids, base then new. */
  pairs: string[][];
  /** Per browser: the shift's scatter (log scale) and each store's row scatter, with a pooled one for other stores. */
  browsers: Record<string, { shift: number; pooled: number; stores: Record<string, number> }>;
  /** For a browser the pairs do not have: the largest of the browsers' scatters. */
  fallback: { shift: number; pooled: number };
}

/** Fewest rows a store's scatter is estimated from; with fewer, the browser's pooled one. */
const MIN_ROWS_PER_STORE = 20;
/** The normal quantile the 90th percentile of absolute changes is over. */
const Z90 = 1.6448536269514722;

/** The committed table. */
export const BETWEEN_RUNS = TABLE as BetweenRuns;
const table = BETWEEN_RUNS;

/** No scatter between runs: a comparison judged on the two files alone. */
export const NO_BETWEEN_RUNS: BetweenRuns = {
  pairs: [],
  browsers: {},
  fallback: { shift: 0, pooled: 0 },
};

/** A row's between-run scatter, log scale: its browser and store's, else its browser's, else the fallback. */
export function rowScatter(browser: string, store: string, from: BetweenRuns = table): number {
  const b = own(from.browsers, browser);
  return b ? (own(b.stores, store) ?? b.pooled) : from.fallback.pooled;
}

/** A browser's shift scatter between runs, log scale. */
export function shiftScatter(browser: string, from: BetweenRuns = table): number {
  return own(from.browsers, browser)?.shift ?? from.fallback.shift;
}

/** One compared row of an A/A pair: its browser, store and change net of the shift (log scale). */
export interface AaRow {
  browser: string;
  store: string;
  net: number;
}

/** The table from A/A pairs' compared rows and shifts (log scale). */
export function estimateBetweenRuns(
  pairs: string[][],
  rows: readonly AaRow[],
  shifts: readonly { browser: string; shift: number }[],
): BetweenRuns {
  const scale = (xs: readonly number[]) => quantile90(xs.map(Math.abs)) / Z90;
  const browsers: BetweenRuns['browsers'] = {};
  for (const browser of [...new Set(rows.map((r) => r.browser))].sort()) {
    const mine = rows.filter((r) => r.browser === browser);
    const stores: Record<string, number> = {};
    for (const store of [...new Set(mine.map((r) => r.store))].sort()) {
      const nets = mine.filter((r) => r.store === store).map((r) => r.net);
      if (nets.length >= MIN_ROWS_PER_STORE) stores[store] = round(scale(nets));
    }
    const s = shifts.filter((x) => x.browser === browser).map((x) => x.shift);
    browsers[browser] = {
      shift: round(Math.sqrt(s.reduce((a, x) => a + x * x, 0) / Math.max(1, s.length))),
      pooled: round(scale(mine.map((r) => r.net))),
      stores,
    };
  }
  const all = Object.values(browsers);
  return {
    pairs,
    browsers,
    fallback: {
      shift: Math.max(0, ...all.map((b) => b.shift)),
      pooled: Math.max(0, ...all.map((b) => b.pooled)),
    },
  };
}

function quantile90(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))] as number;
}

/** Six digits: the table stays readable and the same on every machine. */
const round = (x: number) => Number(x.toFixed(6));
