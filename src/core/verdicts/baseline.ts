/**
 * Sampling against a baseline (`npm run sweep -- --baseline BASE.json`): each row samples until
 * its change from the baseline row is decided against the threshold, the way tachometer's
 * auto-sampling samples until each difference is clear of its horizons. Decided means the 95%
 * interval of the median ratio (stats.ratioOfMedians, the interval `compare` uses), net of the
 * shift the run's rows share against the baseline (stats.sharedShift, as `compare` takes it out),
 * lies wholly above +T (a regression) or wholly below it (not one). Pure: rows in, a decision out.
 */
import { paramsDiffer } from './pool.ts';
import type { CaseIdentity } from '../base/identity.ts';
import type { ResultsFile } from '../schema/results-schema.ts';
import {
  logRatio,
  median,
  medianCi,
  netOf,
  ratioOfMedians,
  widenRatio,
  type Interval,
  type LogRatio,
  type MedianWithCi,
} from '../stats/stats.ts';

/** What the runner needs of one baseline row: where it matches, and its median with interval. */
export interface BaselineRow {
  suite: string;
  case: string;
  adapter: string;
  size: number;
  params: Record<string, unknown>;
  median: number;
  ci: Interval;
}

/** A row's sampling against its baseline row: its counterpart, and its own median and interval as of its last timed sample. */
export interface BaselineState {
  row: BaselineRow;
  thresholdPct: number;
  now?: MedianWithCi;
}

/** Whether the row's change is decided (see decided), net of the shift the run's rows share now. */
export function isDecided(b: BaselineState, shift: LogRatio | null): boolean {
  return b.now !== undefined && decided(b.now, b.row, b.thresholdPct, shift);
}

/** The baseline a run samples against: its rows (of the browser being run) and the threshold. */
export interface Baseline {
  thresholdPct: number;
  rows: BaselineRow[];
}

/** The ok rows with an interval, of the documents run in `browser`. */
export function baselineRows(docs: readonly ResultsFile[], browser: string): BaselineRow[] {
  const out: BaselineRow[] = [];
  for (const doc of docs) {
    if (doc.run.browser !== browser) continue;
    for (const row of doc.cases) {
      if (row.status !== 'ok') continue;
      const ci = medianCi(row.samples, row.samplesPerPass);
      if (!ci) continue;
      out.push({
        suite: row.suite,
        case: row.case,
        adapter: row.adapter,
        size: row.size,
        params: row.params,
        median: median(row.samples),
        ci,
      });
    }
  }
  return out;
}

/** The baseline row of this case, if any: same suite, case, adapter and size, no shared parameter differing. */
export function matchBaseline(
  rows: readonly BaselineRow[],
  id: Pick<CaseIdentity, 'suite' | 'case' | 'adapter' | 'size' | 'params'>,
): BaselineRow | undefined {
  return rows.find(
    (r) =>
      r.suite === id.suite &&
      r.case === id.case &&
      r.adapter === id.adapter &&
      r.size === id.size &&
      paramsDiffer(r.params, id.params).length === 0,
  );
}

/**
 * Whether a row's change from the baseline row, net of `shift`, is clear of the threshold, either
 * way; false while undecided or without an interval. Takes the row's median and interval as
 * already computed. Why net: the machine moves between runs, and a row decided on the raw ratio
 * stops sampling on a shift every row shares, which the final comparison then takes out.
 */
export function decided(
  now: MedianWithCi,
  base: BaselineRow,
  thresholdPct: number,
  shift: LogRatio | null = null,
): boolean {
  const ratio = changeFrom(base, now);
  if (!ratio) return false;
  const r = widenRatio(netOf(ratio, shift), 0);
  const t = 1 + thresholdPct / 100;
  return r.lo > t || r.hi < t;
}

/** A row's change from its baseline row, as a log ratio; null without an interval on either side. */
export function changeFrom(base: BaselineRow, now: MedianWithCi): LogRatio | null {
  const r = ratioOfMedians({ median: base.median, ci: base.ci }, now);
  return r && logRatio(r);
}

/** Check a baseline received over the wire (the collector's answer); throws a message naming the field. */
export function checkBaseline(data: unknown): Baseline {
  const fail = (what: string): never => {
    throw new Error(`baseline: ${what}`);
  };
  if (data === null || typeof data !== 'object') fail('expected an object');
  const b = data as Record<string, unknown>;
  if (typeof b.thresholdPct !== 'number' || !(b.thresholdPct >= 0))
    fail('thresholdPct: expected a number >= 0');
  if (!Array.isArray(b.rows)) fail('rows: expected an array');
  (b.rows as unknown[]).forEach((r, i) => {
    const row = r as Record<string, unknown> | null;
    const ci = row?.ci as Record<string, unknown> | undefined;
    const ok =
      row !== null &&
      typeof row === 'object' &&
      typeof row.suite === 'string' &&
      typeof row.case === 'string' &&
      typeof row.adapter === 'string' &&
      typeof row.size === 'number' &&
      typeof row.params === 'object' &&
      row.params !== null &&
      typeof row.median === 'number' &&
      typeof ci?.lo === 'number' &&
      typeof ci.hi === 'number';
    if (!ok)
      fail(`rows[${i}]: expected {suite, case, adapter, size, params, median, ci: {lo, hi}}`);
  });
  return data as Baseline;
}
