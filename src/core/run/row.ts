/**
 * One row of a run: a case on one store at one size, while it samples. Its state is a union, so a
 * row that failed cannot also be sampling, and only a row that stopped becomes an `ok` result.
 */
import type { StoreAdapter, StoreHandle } from '../store/adapter.ts';
import type { BaselineState } from '../verdicts/baseline.ts';
import type { CaseIdentity, DbMode } from '../base/identity.ts';
import type { CaseResult, StopReason } from '../results/results.ts';
import {
  derivedFromSamples,
  median,
  medianCiWith,
  medianPrecision,
  passesDominate,
  passNoise,
  passSpread,
} from '../stats/stats.ts';
import type { BenchCase } from '../store/suite.ts';

/** Fewest samples a row keeps even when time runs out: one is a number without a spread. */
export const MIN_SAMPLES_ON_TIME_CAP = 2;

/** Stop reasons a later pass takes back: the row samples again and is judged on all its samples. */
export const RESUMED_IN_LATER_PASSES: ReadonlySet<StopReason> = new Set([
  'ci-target',
  'decided',
  'budget',
  'share',
]);

export type RowState =
  | { kind: 'sampling' }
  | { kind: 'stopped'; why: StopReason }
  | { kind: 'failed'; status: 'error' | 'timeout'; reason: string };

/** A row's database, filled once and shared by all its samples (cases with `db: 'shared'`). */
export interface SharedDb {
  name: string;
  handle: StoreHandle | undefined;
  state: unknown;
  /** Its key in the sampler's pool when other cases of the pass read it too (BenchCase.sharesFill). */
  pooled?: string;
}

export interface Row {
  readonly adapter: StoreAdapter;
  state: RowState;
  /** Timed samples, ms per run of the case body (a sample's time over its repeats). */
  samples: number[];
  warmup: number[];
  metrics: Record<string, number[]>;
  points: [number, number][][];
  /** Runs of the case body per timed sample, set by calibration. */
  repeats: number;
  /** Timed samples taken in each pass so far: one entry per pass the run has started. */
  samplesPerPass: number[];
  readonly db: DbMode;
  /** The row's database while it is open, for `shared` rows. */
  shared?: SharedDb;
  /**
   * The larger side of the median's interval over the median, as of the last timed sample (null
   * below 6 samples): kept here so the allocator does not sort every row's samples before each
   * sample it gives out.
   */
  precision: number | null;
  /** Whether its passes disagree by more than its samples' noise, as of the last timed sample (stats.passesDominate). */
  passBound: boolean;
  /** stats.passNoise as last drawn, and the samples per pass it was drawn for (see noiseOf). */
  passNoise?: { perPass: number[]; value: number };
  /** Wall time of this row's steps so far: fills, samples, cleanup. */
  spentMs: number;
  /** Wall time of its timed samples alone (with their setup and cleanup), for the cost per sample. */
  sampleWallMs: number;
  /** Wall time of its warm-ups, for a cost before its first timed sample (sampling/share.ts). */
  warmupWallMs: number;
  /** Set when a sample costs too much of the row's share of the budget for every pass (sampling/share.ts): what one costs and the share. */
  share?: { sampleMs: number; shareMs: number };
  /** What a sample cost when the row's first pass was done: its class against its share is settled on it for the run (sampling/share.ts). */
  settledCostMs?: number;
  blocking?: Record<string, number>;
  footprint?: Record<string, number>;
  /** With --baseline: the row's counterpart in the baseline, and its median and interval to judge the change by (baseline.ts). */
  baseline?: BaselineState;
  /** With --ab: which side of its case's pair the row is, and the other side, which it samples beside (sampling/pairing.ts). */
  pair?: { side: 'A' | 'B'; other: Row };
}

export function newRow(adapter: StoreAdapter, c: BenchCase): Row {
  return {
    adapter,
    state: { kind: 'sampling' },
    samples: [],
    warmup: [],
    metrics: {},
    points: [],
    repeats: 1,
    samplesPerPass: [0],
    db: c.db ?? 'fresh',
    precision: null,
    passBound: false,
    spentMs: 0,
    sampleWallMs: 0,
    warmupWallMs: 0,
  };
}

/** What a row carries from one browser launch to the next (launch.ts): the rest is rebuilt from it. */
const CARRIED = [
  'state',
  'samples',
  'warmup',
  'metrics',
  'points',
  'repeats',
  'samplesPerPass',
  'spentMs',
  'sampleWallMs',
  'warmupWallMs',
  'share',
  'settledCostMs',
] as const;
export type CarriedState = Pick<Row, (typeof CARRIED)[number]>;

/**
 * A row between two launches (launch.ts): which row, what it sampled so far and how it stands
 * (CARRIED), and what its results row needs (carriedResult), so that a later launch that crashes
 * or is cancelled does not lose the samples of the launches before it.
 */
export interface CarriedRow extends CarriedState, CaseIdentity {
  db: DbMode;
  series?: { x: string; y: string };
}

// Keys a carry may lack (older pages, or a row with no share note) are left out, not set to undefined.
const carriedState = (from: CarriedState): CarriedState =>
  Object.fromEntries(
    CARRIED.flatMap((key) => (from[key] === undefined ? [] : [[key, from[key]]])),
  ) as unknown as CarriedState;

/** A row as an earlier launch left it (launch.ts); call refreshInterval once its baseline is set. */
export function restoreRow(adapter: StoreAdapter, c: BenchCase, carried: CarriedRow): Row {
  // A copy: the row grows its lists, and the carry stays as it came.
  return { ...newRow(adapter, c), ...carriedState(structuredClone(carried)) };
}

/** The row for the next launch: its state, and what its results row needs should no later launch finish it (carriedResult). */
export function carriedRow(id: CaseIdentity, row: Row, series: BenchCase['series']): CarriedRow {
  // A metric some sample lacks (NaN) is left out of the results row in the end (rowResult); JSON
  // has no NaN, so it is left out of the carry already, where it would arrive as null.
  const metrics = Object.fromEntries(
    Object.entries(row.metrics).filter(([, list]) => list.every(Number.isFinite)),
  );
  return { ...id, db: row.db, ...(series ? { series } : {}), ...carriedState(row), metrics };
}

/**
 * How a row ends when its passes are cut short (Cancel, or a later launch that never finished): a
 * row still sampling, or stopped for a reason a later pass would have taken back, stops as
 * `cancelled` and keeps its samples; one with fewer than 2 has no number to keep (null). Failed
 * rows and rows at their own caps stay as they are.
 */
export function cutShort(row: Pick<Row, 'state' | 'samples'>): RowState | null {
  const resumable =
    row.state.kind === 'sampling' ||
    (row.state.kind === 'stopped' && RESUMED_IN_LATER_PASSES.has(row.state.why));
  if (!resumable) return row.state;
  return row.samples.length < MIN_SAMPLES_ON_TIME_CAP
    ? null
    : { kind: 'stopped', why: 'cancelled' };
}

/**
 * A carried row as a results row, for a run whose later launch ended before it finished the row
 * (a crash, Ctrl-C): the samples of the launches before are kept, as Cancel keeps them in one
 * launch (cutShort). Null for a row with too few samples to keep.
 */
export function carriedResult(carried: CarriedRow): CaseResult | null {
  const state = cutShort(carried);
  if (!state) return null;
  const { suite, case: caseId, title, adapter, size, params, operations } = carried;
  return rowResult(
    { suite, case: caseId, title, adapter, size, params, operations },
    { ...carriedState(carried), state, db: carried.db },
    carried.series,
  );
}

export const isSampling = (row: Row): boolean => row.state.kind === 'sampling';

/** Stop the row's sampling. A pair stops together: no step may leave one side sampling alone. */
export function stopRow(row: Row, why: StopReason): void {
  row.state = { kind: 'stopped', why };
  const other = row.pair?.other;
  if (other && isSampling(other)) other.state = { kind: 'stopped', why };
}

/**
 * End the row as failed, its samples kept: `timeout` when the step made no progress within the
 * time limit, else `error`. The other side of a pair cannot be compared any more and fails too.
 */
export function failRow(row: Row, failed: { status: 'error' | 'timeout'; reason: string }): void {
  row.state = { kind: 'failed', ...failed };
  const other = row.pair?.other;
  if (other && other.state.kind !== 'failed')
    other.state = {
      kind: 'failed',
      status: 'error',
      reason: `not compared: the other side of the pair, ${row.adapter.id}, failed (${failed.reason})`,
    };
}

/** What one more sample of the row costs, in ms of wall time: its mean so far. */
export function costPerSample(row: Row): number {
  return row.samples.length > 0 ? row.sampleWallMs / row.samples.length : Infinity;
}

/** What a sample of the row costs as far as is known: its timed samples' mean, else its warm-ups', else null. */
export function knownCost(
  row: Pick<Row, 'samples' | 'sampleWallMs' | 'warmup' | 'warmupWallMs'>,
): number | null {
  if (row.samples.length > 0) return row.sampleWallMs / row.samples.length;
  return row.warmup.length > 0 ? row.warmupWallMs / row.warmup.length : null;
}

/** Add one timed sample and the metrics and points the case recorded in it. */
export function addSample(
  row: Row,
  ms: number,
  metrics: Record<string, number>,
  points: [number, number][],
): void {
  row.samples.push(ms);
  row.samplesPerPass[row.samplesPerPass.length - 1] = (row.samplesPerPass.at(-1) ?? 0) + 1;
  for (const [name, value] of Object.entries(metrics)) {
    // A metric missing from an earlier sample would no longer line up with its sample.
    const list = (row.metrics[name] ??= new Array<number>(row.samples.length - 1).fill(NaN));
    list.push(value);
  }
  for (const list of Object.values(row.metrics))
    if (list.length < row.samples.length) list.push(NaN);
  row.points.push(points);
  refreshInterval(row);
}

/** One interval per sample taken: the precision, the baseline decision and the allocator's pass share use it. */
export function refreshInterval(row: Row): void {
  if (row.samples.length === 0) return;
  const m = median(row.samples);
  const spread = passSpread(row.samples, row.samplesPerPass, noiseOf(row));
  const ci = medianCiWith(row.samples, spread);
  row.precision = medianPrecision({ median: m, medianCi: ci });
  row.passBound = passesDominate(spread);
  if (row.baseline) row.baseline.now = { median: m, ci };
}

/**
 * The row's pass noise (stats.passNoise), drawn again only once some pass has 10% more samples than
 * when it was last drawn: it changes slowly with the samples, and costs 1 to 2 ms at 1,000.
 */
function noiseOf(row: Row): number {
  const kept = row.passNoise;
  if (kept && row.samplesPerPass.every((k, i) => k <= (kept.perPass[i] ?? 0) * 1.1))
    return kept.value;
  const value = passNoise(row.samples, row.samplesPerPass);
  row.passNoise = { perPass: row.samplesPerPass.slice(), value };
  return value;
}

/** What a results row is made of: the carried state, how the row ran, and what its probes found. */
type ResultState = CarriedState & Pick<Row, 'db' | 'blocking' | 'footprint'>;

/** The row as a results row. A row still `sampling` (the run ended it) counts as stopped by its count. */
export function rowResult(
  identity: CaseIdentity,
  row: ResultState,
  series: BenchCase['series'],
): CaseResult {
  // Metrics that some sample could not record (a probe that failed once) are dropped whole:
  // a value that cannot be matched to its sample is worse than none.
  const metrics = Object.fromEntries(
    Object.entries(row.metrics).filter(([, list]) => list.every(Number.isFinite)),
  );
  const common = {
    ...identity,
    samples: row.samples,
    warmup: row.warmup,
    db: row.db,
    repeats: row.repeats,
    ...(row.samplesPerPass.length > 1 ? { samplesPerPass: row.samplesPerPass } : {}),
    ...(Object.keys(metrics).length > 0 ? { metrics } : {}),
    ...(series ? { series: { ...series, samples: row.points } } : {}),
  };
  if (row.state.kind === 'failed')
    return { ...common, status: row.state.status, reason: row.state.reason };
  const { stats, precision, noise, outliers } = derivedFromSamples(row.samples, row.samplesPerPass);
  return {
    ...common,
    status: 'ok',
    reason: null,
    stats,
    stopped: row.state.kind === 'stopped' ? row.state.why : 'iterations',
    precision,
    noise,
    outliers,
    ...(row.blocking ? { blocking: row.blocking } : {}),
    ...(row.footprint ? { footprint: row.footprint } : {}),
    ...(row.share ? { share: row.share } : {}),
  };
}
