/**
 * What a row takes at the least in a pass, by what one of its samples costs against its share of
 * the budget (the run's budget over its rows, as plan/budget.ts cuts it). Pure: the runner asks at each pass, and after a
 * row's first warm-up, when its cost is first known.
 *
 * A row whose minimum in every pass (a warm-up and 2 samples) fits its share takes it in every
 * pass. A costly row takes one sample in each of some passes, without a warm-up after the first:
 * as many as COSTLY_SHARES of its share pay for, never fewer than MIN_PASSES (the fewest that
 * give a comparison paired by pass an interval). Its passes come from a ladder of nested sets
 * (every pass; every 2nd; every 4th; …, from the first), so two costly rows of one
 * comparison always share the passes of the sparser one. In a default Chromium sweep one
 * sample in every pass had the costly fifth of the rows take two thirds of the budget, and the
 * cheap rows only their minimum. A row one of whose samples costs more than TOO_COSTLY_SHARES of
 * its share takes 2 samples, in the first pass and the last, and says so: a number and its
 * spread, but no interval.
 */

/** Samples a row takes per pass at the least when its minimum fits its share. */
const PASS_MINIMUM = 2;
/** The most a cheap row's share buys it as its minimum in a pass. */
const PASS_MINIMUM_MOST = 6;
/** The part of a cheap row's share its minimums may take; the rest is the allocator's. */
const MINIMUM_PART = 0.5;
/** Samples a costly row takes in each pass it samples in. */
const COSTLY_PER_PASS = 1;
/** What a costly row's samples may cost over the run, in shares of the budget (its warm-up apart). */
const COSTLY_SHARES = 3;
/** Passes a costly row samples in at the least: three give a paired comparison an interval. */
const MIN_PASSES = 3;
/** Samples a row takes when one costs more than TOO_COSTLY_SHARES of its share: a number with a spread. */
const TOO_COSTLY_SAMPLES = 2;
/** A sample dearer than this many shares makes even MIN_PASSES samples too costly. */
const TOO_COSTLY_SHARES = 8;

export interface PassShare {
  /** Passes of the run, and this one (from 1). */
  passes: number;
  pass: number;
  /** Timed samples the row has so far. */
  n: number;
  /** Wall time one sample of the row takes, in ms; null before any was taken. */
  costMs: number | null;
  /** The row's share of the run's budget, in ms. */
  shareMs: number;
  /**
   * The run's pace: the budget left over what the passes left were planned to have, at most 1.
   * Absent means on schedule.
   */
  pace?: number;
}

export type ShareClass = 'cheap' | 'costly' | 'too costly';

/** How a row stands against its share: unknown (no cost yet) counts as cheap. */
export function shareClass(s: Pick<PassShare, 'passes' | 'costMs' | 'shareMs'>): ShareClass {
  if (s.costMs === null) return 'cheap';
  if (s.costMs > TOO_COSTLY_SHARES * s.shareMs) return 'too costly';
  // A warm-up and PASS_MINIMUM samples in every pass.
  return s.passes * (1 + PASS_MINIMUM) * s.costMs <= s.shareMs ? 'cheap' : 'costly';
}

/** The passes a row that needs `count` of them samples in: the first, then spread evenly to the last. */
export function spreadPasses(count: number, passes: number): number[] {
  if (count <= 1 || passes <= 1) return [1];
  return Array.from(
    { length: Math.min(count, passes) },
    (_, k) => 1 + Math.round((k * (passes - 1)) / (Math.min(count, passes) - 1)),
  );
}

/**
 * The passes of the sparsest rung of the ladder with at least `count` passes: every `step`-th
 * pass from the first, step a power of 2. The rungs nest, so any two rows share the passes of
 * the sparser. The last pass is in only when the step lands on it: the run's last pass is the
 * one the budget most often runs out in, and a cheap partner that got no sample there would
 * leave the costly row's sample unpaired.
 */
export function ladderPasses(count: number, passes: number): number[] {
  if (count <= 1) return [1];
  const rung = (step: number) =>
    Array.from({ length: Math.ceil(passes / step) }, (_, k) => 1 + k * step);
  let step = 1;
  while (rung(step * 2).length >= count) step *= 2;
  return rung(step);
}

/** The row's share scaled by the run's pace, never above the share itself. */
function pacedShare(s: Pick<PassShare, 'shareMs' | 'pace'>): number {
  return s.shareMs * Math.min(1, Math.max(0, s.pace ?? 1));
}

/**
 * The passes a costly row samples in: as many as COSTLY_SHARES of its share pay for, MIN_PASSES
 * at the least. Behind schedule (`pace` under 1) they thin to a sparser rung of the ladder, a
 * subset of the passes it had, so the run's cheap rows keep their minimum to the last pass: in a
 * three-engine default sweep at full count, the costly rows' set-aside passes had left the cheap
 * rows no sample after pass 4.
 */
function costlyPasses(s: Pick<PassShare, 'passes' | 'costMs' | 'shareMs' | 'pace'>): number[] {
  const affordable = Math.floor((COSTLY_SHARES * pacedShare(s)) / Math.max(1e-9, s.costMs ?? 0));
  return ladderPasses(Math.max(MIN_PASSES, affordable), s.passes);
}

/**
 * A cheap row's least samples in a pass: as many as MINIMUM_PART of its share pays for in every
 * pass beside a warm-up, PASS_MINIMUM to PASS_MINIMUM_MOST. A comparison is paired by pass, and
 * its interval is over the passes' ratios, whose scatter here was all the samples' own noise
 * (about ±18% a sample in a quiet default Chromium sweep): 2 samples a side left a pass's ratio
 * ±15%, 4 or more ±10%. Behind schedule (`pace` under 1) the share shrinks with it, so the
 * minimums of the early passes do not leave the last ones empty: a comparison is decided at the
 * last planned look its passes reach, and one that misses the run's last pass falls back a look.
 */
function cheapMinimum(s: Pick<PassShare, 'passes' | 'costMs' | 'shareMs' | 'pace'>): number {
  if (s.costMs === null || s.costMs <= 0) return PASS_MINIMUM;
  const affordable = Math.floor((MINIMUM_PART * pacedShare(s)) / (s.passes * s.costMs)) - 1;
  return Math.min(PASS_MINIMUM_MOST, Math.max(PASS_MINIMUM, affordable));
}

/**
 * The row's least samples in this pass: a count, `skip` (not a pass it samples in: no fill, no
 * warm-up), or `done` (a too costly row that has its 2 samples: it stops for the run).
 */
export function passNeed(s: PassShare): { take: number } | 'skip' | 'done' {
  const cls = shareClass(s);
  if (cls === 'cheap') return { take: cheapMinimum(s) };
  if (cls === 'costly')
    return costlyPasses(s).includes(s.pass) ? { take: COSTLY_PER_PASS } : 'skip';
  if (s.n >= TOO_COSTLY_SAMPLES) return 'done';
  return spreadPasses(TOO_COSTLY_SAMPLES, s.passes).includes(s.pass) ? { take: 1 } : 'skip';
}

/** Whether a row that stopped for its share will sample in no later pass: too costly, with its samples. */
export function shareDone(
  share: { sampleMs: number; shareMs: number } | undefined,
  n: number,
): boolean {
  return (
    share !== undefined &&
    share.sampleMs > TOO_COSTLY_SHARES * share.shareMs &&
    n >= TOO_COSTLY_SAMPLES
  );
}

/**
 * A costly row in words: `a sample takes 24 s, more than 8 shares of the budget (2.4 s each): 2
 * samples from passes far apart, no interval`, or `a sample takes 1.5 s: one in each of 4 passes,
 * with no warm-up after the first, to keep near its share of the budget (2.4 s); 4 samples`.
 */
export function shareNote(
  share: { sampleMs: number; shareMs: number },
  n: number,
  samplesPerPass?: readonly number[],
): string {
  const s = (ms: number) => `${Number((ms / 1000).toPrecision(2))} s`;
  // The passes it sampled in, not its samples: a pass may take two (12 passes, 13 samples).
  const passes = samplesPerPass ? samplesPerPass.filter((k) => k > 0).length : n;
  const spread = passes === n ? `one in each of ${n} passes` : `${n} samples in ${passes} passes`;
  return share.sampleMs > TOO_COSTLY_SHARES * share.shareMs
    ? `a sample takes ${s(share.sampleMs)}, more than ${TOO_COSTLY_SHARES} shares of the budget (${s(share.shareMs)} each): ${n} samples from passes far apart, no interval`
    : `a sample takes ${s(share.sampleMs)}: ${spread}, with no warm-up after the first, to keep near its share of the budget (${s(share.shareMs)})`;
}
