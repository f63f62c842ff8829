/**
 * What a row takes at the least in a pass, by what one of its samples costs against its share of
 * the budget (the run's budget over its rows). Pure: the runner asks at each pass, and after a
 * row's first warm-up, when its cost is first known.
 *
 * A row whose minimum in every pass (a warm-up and 2 samples) fits its share takes it in every
 * pass, as before. A costly row would spend the other rows' time that way: at 1,000 documents a
 * serial insert into SQLite-on-OPFS took 24 s a sample here, and 12 passes of its minimum were
 * more than the whole budget. So a costly row takes its samples in fewer passes, spread over the
 * run (the first, and evenly after it), 3 at a time, until it has the minimum for an interval;
 * its interval still counts how those passes differ (stats.passSpread). A row one of whose
 * samples costs more than its whole share takes 2 samples, one in each of two passes far apart,
 * and says so: a number and its spread, but no interval.
 */

/** Samples a row takes per pass at the least when its minimum fits its share. */
const PASS_MINIMUM = 2;
/** Samples a costly row takes in each of its passes: 2 passes of 3 reach the 6 an interval needs. */
const COSTLY_PER_PASS = 3;
/** Samples a row takes when one costs more than its share: a number with a spread. */
const TOO_COSTLY_SAMPLES = 2;

export interface PassShare {
  /** Passes of the run, and this one (from 1). */
  passes: number;
  pass: number;
  /** The samples an interval needs (plan.auto.minN). */
  minN: number;
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
  if (s.costMs > s.shareMs) return 'too costly';
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
 * warm-up), or `done` (a costly row that has what it came for: it stops for the run).
 */
export function passNeed(s: PassShare): { take: number } | 'skip' | 'done' {
  const cls = shareClass(s);
  if (cls === 'cheap') return { take: PASS_MINIMUM };
  const target = cls === 'too costly' ? TOO_COSTLY_SAMPLES : s.minN;
  if (s.n >= target) return 'done';
  const perPass = cls === 'too costly' ? 1 : COSTLY_PER_PASS;
  // The passes it needs from its first on: its first pass took PASS_MINIMUM (or 1 once known too costly).
  const count =
    cls === 'too costly' ? TOO_COSTLY_SAMPLES : 1 + Math.ceil((s.minN - PASS_MINIMUM) / perPass);
  return spreadPasses(count, s.passes).includes(s.pass)
    ? { take: Math.min(perPass, target - s.n) }
    : 'skip';
}

/**
 * A costly row in words: `a sample takes 24 s, more than its share of the budget (3.2 s): 2 samples,
 * no interval`, or `a sample takes 1.5 s: its 6 samples came from fewer passes (its share 3.2 s)`.
 */
export function shareNote(share: { sampleMs: number; shareMs: number }, n: number): string {
  const s = (ms: number) => `${Number((ms / 1000).toPrecision(2))} s`;
  return share.sampleMs > share.shareMs
    ? `a sample takes ${s(share.sampleMs)}, more than its share of the budget (${s(share.shareMs)}): ${n} samples from passes far apart, no interval`
    : `a sample takes ${s(share.sampleMs)}: its ${n} samples came from fewer passes, to keep to its share of the budget (${s(share.shareMs)})`;
}
