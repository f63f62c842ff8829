/**
 * B against A in one run (the sweep's --ab): the two stores sample as adjacent pairs in every
 * pass, each pass in a browser launch of its own, and the statistic is the ratio B/A taken pass
 * by pass. Pure: samples in, ratios, intervals and verdicts out.
 *
 * Why passes and not samples: a launch has effects that last as long as it does (where the JIT
 * and the heap settled, the machine's state over those seconds), and A and B share them. Within
 * a pass their ratio cancels them; across passes each pass's ratio is one replicate, and the
 * interval is over those replicates. Samples of one pass share that pass's state, so counting
 * them as independent would claim a precision the next run does not reproduce.
 */
import { repeatedInterval, type RepeatedInterval } from './sequential.ts';
import { median } from './stats.ts';

/** One side of a pair: its samples in the order taken, and how many each pass took (absent: one pass took them all). */
export interface PairSide {
  samples: readonly number[];
  samplesPerPass?: readonly number[];
}

/**
 * ln(median B / median A) in each pass where both sides have samples, in pass order. A pass's
 * median, not its mean: a sample the machine stalled in moves a mean of a few samples far.
 * Passes where a side has no sample, or a median of 0, give none.
 */
export function passLogRatios(a: PairSide, b: PairSide): number[] {
  const out: number[] = [];
  let atA = 0;
  let atB = 0;
  const perA = a.samplesPerPass ?? [a.samples.length];
  const perB = b.samplesPerPass ?? [b.samples.length];
  const passes = Math.min(perA.length, perB.length);
  for (let p = 0; p < passes; p++) {
    const ka = perA[p] ?? 0;
    const kb = perB[p] ?? 0;
    const ma = median(a.samples.slice(atA, atA + ka));
    const mb = median(b.samples.slice(atB, atB + kb));
    atA += ka;
    atB += kb;
    if (ka > 0 && kb > 0 && ma > 0 && mb > 0) out.push(Math.log(mb / ma));
  }
  return out;
}

/** B/A with its 95% interval over passes: a repeated interval at the plan's last look reached. */
export interface PairedRatio {
  /** exp of the mean of the passes' log ratios: a geometric mean of per-pass ratios. */
  ratio: number;
  lo: number;
  hi: number;
  /** Passes the interval is over (its degrees of freedom are one less): those up to the look. */
  passes: number;
  /** The log ratios' mean and standard deviation over those passes. */
  logMean: number;
  logSd: number;
  /** Which of the plan's looks it was taken at (from 0), and how many looks the plan has. */
  look: number;
  looks: number;
}

/** Fewest passes for an interval: with two, Student's t has one degree of freedom and the interval is ±12.7 standard errors. */
export const PAIRED_MIN_PASSES = 2;

/**
 * The pass counts a comparison looks at: the plan's planned looks (sequential.plannedLooks), or,
 * for a plan of one look, the passes it has (a fixed-sample interval).
 */
function looksFor(planned: readonly number[] | null, passes: number): readonly number[] {
  return planned && planned.length > 1 ? planned : [Math.max(PAIRED_MIN_PASSES, passes)];
}

function ratioOf(logs: readonly number[], r: RepeatedInterval, looks: number): PairedRatio {
  const n = r.passes;
  let ss = 0;
  for (let i = 0; i < n; i++) ss += ((logs[i] as number) - r.mean) ** 2;
  return {
    ratio: Math.exp(r.mean),
    lo: Math.exp(r.lo),
    hi: Math.exp(r.hi),
    passes: n,
    logMean: r.mean,
    logSd: Math.sqrt(ss / (n - 1)),
    look: r.look,
    looks,
  };
}

/**
 * B/A at a planned look: the mean of the passes' log ratios with its repeated 95% interval at the
 * last planned look the passes reach, over the passes up to that look (sequential.repeatedInterval).
 * For a decision taken while sampling goes on (a row that stops at a look), and for the rows that
 * stopped there: the looks are planned, so each look's interval is widened by the group-sequential
 * boundary, and a decision at any of them keeps its 95%. On the log scale because a slowdown is a
 * factor and per-pass ratios are skewed. `reached`: the run's passes, for rows that sampled on to
 * them. Null before the first look.
 */
export function pairedRatioAtLook(
  logs: readonly number[],
  planned: readonly number[] | null,
  reached?: number,
): PairedRatio | null {
  const looks = looksFor(planned, logs.length);
  if (logs.length < PAIRED_MIN_PASSES) return null;
  const r = repeatedInterval(logs, looks, 0.05, reached);
  return r ? ratioOf(logs, r, looks.length) : null;
}

/**
 * B/A at the end of sampling: the mean of every pass's log ratio with its one-look 95% Student-t
 * interval. For rows that sampled on to the end: nothing was decided from their data before, so
 * the looks spent none of their error, and the interval is the narrower one-look interval (at 12
 * passes about 20% narrower than the last look's repeated one). Null below PAIRED_MIN_PASSES.
 */
export function pairedRatioAtEnd(logs: readonly number[]): PairedRatio | null {
  if (logs.length < PAIRED_MIN_PASSES) return null;
  const r = repeatedInterval(logs, [logs.length], 0.05);
  return r ? ratioOf(logs, r, 1) : null;
}

/**
 * A comparison's B/A as its rows left it: at the end when both rows sampled on to their end,
 * else at the look the run reached or where a row stopped for being decided (`settled`), or,
 * for rows still sampling (no `stopped` yet), at the run's look now (docs/method.md, "Planned
 * looks").
 */
export function comparisonRatio(
  logs: readonly number[],
  planned: readonly number[] | null,
  a: ReachedSide,
  b: ReachedSide,
): PairedRatio | null {
  const ended = (s: ReachedSide) => s.stopped !== undefined && s.stopped !== 'settled';
  return ended(a) && ended(b)
    ? pairedRatioAtEnd(logs)
    : pairedRatioAtLook(logs, planned, passesReached(a, b));
}

/** The pair's B/A at the end of sampling, from its two rows' samples. */
export function pairOf(a: PairSide, b: PairSide): PairedRatio | null {
  return pairedRatioAtEnd(passLogRatios(a, b));
}

/**
 * How precisely B/A is known: the larger side of its interval over the ratio, as a fraction
 * (0.03 = the interval reaches 3% from the ratio). Null without an interval.
 */
export function pairPrecision(r: PairedRatio | null): number | null {
  return r === null ? null : Math.max(r.hi / r.ratio - 1, 1 - r.lo / r.ratio);
}

/**
 * The passes the run went through, for two rows that both sampled on to its end (neither
 * `settled` at a look): their comparison is taken at the run's look over every pass they have
 * (sequential.repeatedInterval). Undefined when either stopped at a look: its verdict stays at
 * the look it stopped at.
 */
export function passesReached(a: ReachedSide, b: ReachedSide): number | undefined {
  if (a.stopped === 'settled' || b.stopped === 'settled') return undefined;
  if (!a.samplesPerPass || !b.samplesPerPass) return undefined;
  return Math.min(a.samplesPerPass.length, b.samplesPerPass.length);
}

/** A row as passesReached reads it: its samples per pass, and why it stopped if it did. */
export interface ReachedSide {
  samplesPerPass?: readonly number[];
  stopped?: string;
}

/**
 * Holm's step-down procedure: which of the hypotheses with these p-values are rejected, with the
 * chance of any false rejection at most `alpha` over all of them. Chosen over Benjamini–Hochberg
 * because the gate fails a build on one slower row: the chance of any false alarm (family-wise) is
 * what a build sees, and Holm bounds it whatever the rows' dependence.
 */
export function holmRejects(pValues: readonly number[], alpha = 0.05): boolean[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const rejected = new Array<boolean>(m).fill(false);
  for (const [k, { p, i }] of order.entries()) {
    if (p > alpha / (m - k)) break;
    rejected[i] = true;
  }
  return rejected;
}
