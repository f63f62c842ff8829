/**
 * How precise a run's numbers are, in one summary that the sweep prints and the page shows: the
 * median row's precision and the share of ok rows within the target and within ±5%.
 */
import type { CaseResult } from './results.ts';
import { medianPrecision, median } from './stats.ts';

/** The precision a result row reached: its own record, or recomputed from its stats in older files. */
export function rowPrecision(row: CaseResult): number | null {
  if (row.status !== 'ok') return null;
  if (row.precision !== undefined) return row.precision;
  return row.stats.medianCi === undefined ? null : medianPrecision(row.stats);
}

/** A second, looser bar than the target: within ±5% a 10% change still stands out. */
export const LOOSE_PRECISION = 0.05;

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
  };
}

/** "±1.4%", or "no interval" for null or infinite. */
export function formatPrecision(p: number | null): string {
  if (p === null || !Number.isFinite(p)) return 'no interval';
  return `±${(p * 100).toFixed(p < 0.1 ? 1 : 0)}%`;
}

/** One line: "median row ±1.4% (95% CI of the median); 180 of 200 ok rows within ±2%, 196 within ±5%". */
export function formatPrecisionSummary(s: PrecisionSummary): string {
  if (s.rows === 0) return 'no ok rows';
  const pct = (x: number) => `${Number((x * 100).toFixed(1))}%`;
  const median = s.medianPrecision !== null && Number.isFinite(s.medianPrecision) ? `median row ${formatPrecision(s.medianPrecision)} (95% interval of the median)` : 'the median row has no interval (fewer than 6 samples)';
  const parts = [
    median,
    `${s.withinTarget} of ${s.rows} ok rows within ±${pct(s.target)}`,
    `${s.withinLoose} within ±${pct(LOOSE_PRECISION)}`,
  ];
  if (s.noInterval > 0) parts.push(`${s.noInterval} with too few samples for an interval`);
  return parts.join('; ');
}
