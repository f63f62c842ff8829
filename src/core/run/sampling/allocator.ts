/**
 * Where the next sample goes, and when a row has enough. Pure: the runner passes in each row's
 * precision, cost and time spent, and the clock readings; nothing here runs a sample.
 *
 * A run's budget is spent in passes over its case groups (plan.auto.passes): each group gets, in
 * each pass, a share of what is left in proportion to its rows (plan/budget.ts cuts it), so time a
 * quick group does not need flows on to the groups after it. The minimum samples of a row are bounded only by the
 * whole budget, so every row gets an interval when the budget allows any. After them, each next
 * sample goes to the row whose relative interval is widest for the milliseconds one of its
 * samples costs: that row gains the most precision per unit of budget. They are given out in
 * rounds over the neediest rows, so a row's samples interleave with its neighbours' instead of
 * running back to back.
 */
import type { AutoSampling } from '../../plan/plan.ts';
import type { StopReason } from '../../results/results.ts';
import { MIN_SAMPLES_ON_TIME_CAP } from '../row.ts';

/** A row as the allocator sees it. */
export interface RowGauge {
  /** Timed samples so far. */
  n: number;
  /** Larger side of the median's 95% interval over the median; null below 6 samples. */
  precision: number | null;
  /** Wall time one more sample is expected to take, in ms. */
  costMs: number;
  /** Wall time the row has used so far, in ms. */
  spentMs: number;
  /** With a baseline: whether the change from it is decided. Absent: the row samples to the precision target. */
  decided?: boolean;
  /** Whether the row has had its share of this pass (passShareUsed). */
  passShareUsed?: boolean;
}

/** How much one more sample of the row is worth: its relative interval per ms a sample costs. */
function need(row: RowGauge): number {
  return (row.precision ?? Infinity) / Math.max(row.costMs, 1e-6);
}

/**
 * The rows that take the next round of samples, one each, neediest first: the widest relative
 * interval per ms of a sample, ties to the row with fewer samples, rows without an interval yet
 * before all others; rows that had their share of the pass (passShareUsed) only when no other row
 * is left. A round holds every row at least half as needy as the neediest. Rounds
 * rather than one row at a time keep a row's samples from bunching into a few seconds, where one
 * burst of the machine's noise would land on all of them and its interval would not show it.
 */
export function pickRound<T extends RowGauge>(rows: readonly T[]): T[] {
  // Rows that had their share of the pass go only when no other row can use the time.
  const open = rows.filter((row) => row.passShareUsed !== true);
  const ranked = (open.length > 0 ? open : rows)
    .map((row) => ({ row, need: need(row) }))
    .sort((a, b) => b.need - a.need || a.row.n - b.row.n);
  const top = ranked[0]?.need ?? 0;
  return ranked.filter((r) => r.need >= top / 2).map((r) => r.row);
}

/**
 * Whether an adaptive row has enough, and why: its interval reached the target (after minN), or,
 * sampling against a baseline, its change from the baseline is decided instead; or it must stop
 * whatever its precision (capReason).
 */
export function stopReason(row: RowGauge, auto: AutoSampling): StopReason | undefined {
  if (row.n >= auto.minN && row.decided === true) return 'decided';
  if (
    row.n >= auto.minN &&
    row.decided === undefined &&
    row.precision !== null &&
    row.precision <= auto.targetRelCi
  )
    return 'ci-target';
  return capReason(row, auto);
}

/**
 * Whether a row has had its share of the pass it is in, so pickRound gives the time to the other
 * rows first. Either its passes disagree by more than its samples' noise (`passBound`, see
 * stats.passesDominate) and it has as many samples in this pass as in its largest earlier one:
 * more would weigh its median toward this pass's state rather than narrow its interval. Or it
 * has its share of `maxN` so far, maxN·pass/passes: a cheap row that cannot reach its target
 * (a fresh database per sample, below the timer's step) would otherwise take all maxN samples in
 * the first passes and none in the rest.
 */
export function passShareUsed(
  samplesPerPass: readonly number[],
  passBound: boolean,
  maxN = Infinity,
  passes = 1,
): boolean {
  const n = samplesPerPass.reduce((a, k) => a + k, 0);
  if (n >= (maxN * samplesPerPass.length) / passes) return true;
  if (!passBound || samplesPerPass.length < 2) return false;
  return (samplesPerPass.at(-1) ?? 0) >= Math.max(...samplesPerPass.slice(0, -1));
}

/**
 * Why a row must stop however wide its interval: it reached maxN, or one more sample would take
 * it past its own time cap (`maxMs`). A row below 2 samples never stops for time.
 */
export function capReason(row: RowGauge, auto: AutoSampling): StopReason | undefined {
  if (row.n >= auto.maxN) return 'iterations';
  if (row.n >= MIN_SAMPLES_ON_TIME_CAP && row.spentMs + row.costMs > auto.maxMs) return 'time-cap';
  return undefined;
}
