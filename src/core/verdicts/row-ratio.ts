/**
 * The ratio of two rows' medians per operation, with its 95% interval: one rule for every
 * comparison of two rows (a finding, a store against the fastest). Two rows sampled in the same
 * passes are compared pass by pass, as --ab compares A and B: each pass's ratio cancels what
 * the pass did to both (the launch, the machine's state), and the interval is Student's t over
 * passes (paired.ts: at the end, or a repeated interval where a row stopped at a planned look). Rows that do not share enough
 * passes fall back to the ratio of the two medians with the interval from each median's own
 * (stats.ratioOfMedians, after Price and Bonett), which treats them as independent.
 */
import { comparisonRatio, passLogRatios } from '../stats/paired.ts';
import type { CaseResult } from '../schema/results-schema.ts';
import { FIRST_LOOK_MIN_PASSES } from '../stats/sequential.ts';
import { ratioOfMedians, type MedianRatio } from '../stats/stats.ts';

/** How a ratio's interval was reached: over shared passes, or from the two medians' own intervals. */
export type RatioMethod = 'paired' | 'unpaired';

export interface RowRatio extends MedianRatio {
  method: RatioMethod;
  /** Paired: the passes the interval is over. */
  passes?: number;
}

type OkRow = CaseResult & { status: 'ok' };

/** A row's median per operation, with its interval. */
export function perOperation(row: OkRow): {
  median: number;
  ci: { lo: number; hi: number } | null;
} {
  const ops = Math.max(1, row.operations);
  const ci = row.stats.medianCi;
  return { median: row.stats.median / ops, ci: ci ? { lo: ci.lo / ops, hi: ci.hi / ops } : null };
}

/** ln(num/den) per operation in each pass both rows sampled in. */
function rowPassLogs(num: OkRow, den: OkRow): number[] {
  const perOp = Math.log(Math.max(1, den.operations) / Math.max(1, num.operations));
  return passLogRatios(den, num).map((y) => y + perOp);
}

/**
 * median(num) / median(den) per operation with its 95% interval: paired over the passes both rows
 * sampled in when they share at least FIRST_LOOK_MIN_PASSES of them, at the end when both rows
 * sampled on to theirs, else at the plan's `looks` (paired.comparisonRatio); else unpaired; null
 * when neither gives an interval.
 */
export function rowRatio(num: OkRow, den: OkRow, looks: readonly number[] | null): RowRatio | null {
  const logs = rowPassLogs(num, den);
  const paired =
    logs.length >= FIRST_LOOK_MIN_PASSES ? comparisonRatio(logs, looks, num, den) : null;
  if (paired) {
    const { ratio, lo, hi, passes } = paired;
    return { ratio, lo, hi, method: 'paired', passes };
  }
  const unpaired = ratioOfMedians(perOperation(den), perOperation(num));
  return unpaired ? { ...unpaired, method: 'unpaired' } : null;
}

/** Why two ok rows have no ratio interval, in words: "too few samples (n)" or "too few passes with both rows (n)". */
export function noIntervalWhy(num: OkRow, den: OkRow): string {
  const shared = rowPassLogs(num, den).length;
  const n = Math.min(num.samples.length, den.samples.length);
  if (shared > 1 && n >= 6) return `too few passes with samples of both rows (${shared})`;
  return `too few samples (${n})`;
}
