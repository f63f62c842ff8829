/**
 * How precise a run's numbers are, in one summary that the sweep prints and the page shows: the
 * median row's precision, the share of ok rows within the target and within ±5%, and how much of
 * the width the passes' own differences make, which a longer budget does not narrow.
 */
import type { CaseResult } from '../schema/results-schema.ts';
import {
  medianPrecision,
  median,
  passPart,
  passSpread,
  withinPassLogSd,
  type PassSpread,
} from '../stats/stats.ts';

/** The precision a result row reached: its own record, or recomputed from its stats in older files. */
export function rowPrecision(row: CaseResult): number | null {
  if (row.status !== 'ok') return null;
  if (row.precision !== undefined) return row.precision;
  return row.stats.medianCi === undefined ? null : medianPrecision(row.stats);
}

/** A second, looser bar than the target: within ±5% a 10% change still stands out. */
const LOOSE_PRECISION = 0.05;

export interface PrecisionSummary {
  /** ok rows. */
  rows: number;
  /** Precision of the median ok row (rows without an interval count as the widest); null with no ok rows. */
  medianPrecision: number | null;
  /** The target the shares are counted against (the plan's, else 2%). */
  target: number;
  withinTarget: number;
  withinLoose: number;
  /** ok rows with too few samples for an interval of the median. */
  noInterval: number;
  /** How far the rows' passes differ (passDifference); null with one pass. */
  passes: PassDifference | null;
  /** The samples' own scatter inside a pass, at the median row (runNoise); null with no ok row that has one. */
  noise: RunNoise | null;
}

/**
 * A run's noise floor: the median over its ok rows of each row's within-pass log-sd
 * (stats.withinPassLogSd). The median row, so that one wild row does not speak for the run; every
 * sample of every row counted, so that no trimming hides the tails. An interval narrows as this
 * over the square root of the samples, so it is the figure that decides what a budget buys.
 */
export interface RunNoise {
  /** The median row's within-pass standard deviation of log time. */
  logSd: number;
  /** ok rows with 2 or more samples in some pass. */
  rows: number;
}

/** A row's noise: its own record, or recomputed from its samples in older files. */
function rowNoise(row: CaseResult): number | null {
  if (row.status !== 'ok') return null;
  return row.noise ?? withinPassLogSd(row.samples, row.samplesPerPass);
}

export function runNoise(cases: readonly CaseResult[]): RunNoise | null {
  const values = cases.map(rowNoise).filter((x): x is number => x !== null);
  return values.length === 0 ? null : { logSd: median(values), rows: values.length };
}

/** "noise: within-pass log-sd 0.174 at the median row (of 25): about ±17% per sample". */
export function formatNoise(n: RunNoise): string {
  return `within-pass log-sd ${n.logSd.toFixed(3)} at the median row (of ${n.rows}): about ±${percent(Math.expm1(n.logSd))} per sample`;
}

/**
 * How far a run's passes differ beyond their samples' noise (stats.passSpread), at the median over
 * its rows: what a machine's state between passes, or a browser launch, does to a row's median.
 * Told apart from the samples' noise because more samples do not narrow it; only more passes do.
 */
export interface PassDifference {
  /** The median row's τ: a pass's own effect on its median, a standard deviation on the log scale. */
  tau: number;
  /** The median row's half-width of its interval from τ alone (stats.passPart), a fraction of its median. */
  part: number;
  /** ok rows with samples in 2 passes or more. */
  rows: number;
}

export function passDifference(cases: readonly CaseResult[]): PassDifference | null {
  const spreads = cases
    .flatMap((c) =>
      c.status === 'ok' && c.samplesPerPass ? [passSpread(c.samples, c.samplesPerPass)] : [],
    )
    .filter((s): s is PassSpread => s !== null);
  if (spreads.length === 0) return null;
  return {
    tau: median(spreads.map((s) => s.tau)),
    part: median(spreads.map(passPart)),
    rows: spreads.length,
  };
}

export function precisionSummary(cases: readonly CaseResult[], target = 0.02): PrecisionSummary {
  const values = cases.filter((c) => c.status === 'ok').map((c) => rowPrecision(c) ?? Infinity);
  const m = values.length > 0 ? median(values) : null;
  return {
    rows: values.length,
    medianPrecision: m,
    target,
    withinTarget: values.filter((p) => p <= target).length,
    withinLoose: values.filter((p) => p <= LOOSE_PRECISION).length,
    noInterval: values.filter((p) => p === Infinity).length,
    passes: passDifference(cases),
    noise: runNoise(cases),
  };
}

/** A fraction as a percentage to a tenth, without trailing zeros: 0.02 as "2%", 0.076 as "7.6%". */
const percent = (x: number) => `${Number((x * 100).toFixed(1))}%`;

/** "±1.4%", or "no interval" for null or infinite. */
export function formatPrecision(p: number | null): string {
  if (p === null || !Number.isFinite(p)) return 'no interval';
  return `±${(p * 100).toFixed(p < 0.1 ? 1 : 0)}%`;
}

/** One line: "median row ±1.4% (95% interval of the median); 180 of 200 ok rows within ±2%; 196 within ±5%". */
export function formatPrecisionSummary(s: PrecisionSummary): string {
  if (s.rows === 0) return 'no ok rows';
  const median =
    s.medianPrecision !== null && Number.isFinite(s.medianPrecision)
      ? `median row ${formatPrecision(s.medianPrecision)} (95% interval of the median)`
      : 'the median row has no interval (fewer than 6 samples)';
  const parts = [
    median,
    `${s.withinTarget} of ${s.rows} ok rows within ±${percent(s.target)}`,
    `${s.withinLoose} within ±${percent(LOOSE_PRECISION)}`,
  ];
  if (s.noInterval > 0) parts.push(`${s.noInterval} with too few samples for an interval`);
  return parts.join('; ');
}

/**
 * "passes differ by τ 7.6% (…): ±4.5% of an interval, which only more passes narrow", or, where the
 * median row's passes differ by no more than their samples' noise shows, that more samples narrow it.
 */
export function formatPassDifference(p: PassDifference): string {
  if (p.tau === 0)
    return "passes differ by no more than their samples' noise (τ 0 at the median over rows): more samples narrow an interval";
  return `passes differ by τ ${percent(p.tau)} (median over rows, a standard deviation): ±${percent(p.part)} of an interval, which only more passes narrow`;
}
