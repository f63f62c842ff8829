/**
 * What a row takes at the least in a pass, by what one of its samples costs against its share of
 * the budget (the run's budget over its rows). Pure: the runner asks at each pass, and after a
 * row's first warm-up, when its cost is first known.
 *
 * A row whose minimum in every pass (a warm-up and 2 samples) fits its share takes it in every
 * pass. A costly row takes one sample in every pass, without a warm-up after the first: every
 * comparison it is in is paired by pass, so it must sample in the passes its partners do, and
 * its comparisons usually settle at the first planned look (a serial insert is several times a
 * bulk one), which stops it (looks.ts). A row one of whose samples costs more than
 * TOO_COSTLY_SHARES of its share would need twelve shares for the three passes of a first look:
 * it takes 2 samples, in the first pass and the last, and says so: a number and its spread,
 * but no interval.
 */

/** Samples a row takes per pass at the least when its minimum fits its share. */
const PASS_MINIMUM = 2;
/** Samples a costly row takes in each pass. */
const COSTLY_PER_PASS = 1;
/** Samples a row takes when one costs more than TOO_COSTLY_SHARES of its share: a number with a spread. */
const TOO_COSTLY_SAMPLES = 2;
/** A sample dearer than this many shares makes a row too costly to sample in every pass. */
const TOO_COSTLY_SHARES = 4;

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
 * The row's least samples in this pass: a count, `skip` (not a pass it samples in: no fill, no
 * warm-up), or `done` (a too costly row that has its 2 samples: it stops for the run).
 */
export function passNeed(s: PassShare): { take: number } | 'skip' | 'done' {
  const cls = shareClass(s);
  if (cls === 'cheap') return { take: PASS_MINIMUM };
  if (cls === 'costly') return { take: COSTLY_PER_PASS };
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
 * A costly row in words: `a sample takes 24 s, more than 4 shares of the budget (3.2 s each): 2
 * samples, no interval`, or `a sample takes 1.5 s: one a pass, with no warm-up after the first (its share 3.2 s)`.
 */
export function shareNote(share: { sampleMs: number; shareMs: number }, n: number): string {
  const s = (ms: number) => `${Number((ms / 1000).toPrecision(2))} s`;
  return share.sampleMs > TOO_COSTLY_SHARES * share.shareMs
    ? `a sample takes ${s(share.sampleMs)}, more than ${TOO_COSTLY_SHARES} shares of the budget (${s(share.shareMs)} each): ${n} samples from passes far apart, no interval`
    : `a sample takes ${s(share.sampleMs)}: one a pass, with no warm-up after the first, to keep near its share of the budget (${s(share.shareMs)}); ${n} samples`;
}
