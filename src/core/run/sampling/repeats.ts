/**
 * How many times one sample runs a case body. A body much shorter than the timer step measures
 * mostly the step: at 5 µs (Chromium, cross-origin isolated) a 50 µs get is 10 steps, so one
 * step either way moves it 10%. Repeating the body inside one sample until the sample spans about
 * 1,000 steps puts the quantisation at 0.1%. Only bodies that leave the store as they found it
 * (shared-database cases) can repeat; the sample's time is divided by the count.
 */

/**
 * A sample should span at least this many timer steps. Fixed, not tuned per run: a sample's length
 * is part of what it measures (4,000 steps read +4% in Chromium and +13.5% in WebKit at the median
 * row, docs/precision.md, "A sample's length is part of what it measures").
 */
const SAMPLE_STEPS = 1000;
/**
 * ...but need not be longer than this: with a 1 ms step (Firefox and WebKit when the page is not
 * cross-origin isolated) 1,000 steps is a second per sample; 100 steps keeps quantisation at 1%.
 */
export const MAX_SAMPLE_TARGET_MS = 100;
/** Never repeat a body more than this within one sample. */
const MAX_REPEATS = 100_000;
/** Aim this far past the target, so run-to-run spread does not leave samples just short of it. */
const HEADROOM = 1.25;

/** How long one sample should last, in ms, for a timer of this step (0: unknown, taken as 5 µs). */
export function sampleTargetMs(timerStepMs: number): number {
  const step = timerStepMs > 0 ? timerStepMs : 0.005;
  return Math.min(SAMPLE_STEPS * step, MAX_SAMPLE_TARGET_MS);
}

/**
 * The repeat count for the next sample, from the fastest run seen so far (`perRunMs`, a sample's
 * time over its repeats): the least disturbed estimate of the body's cost, since other work on the
 * machine only ever makes a run slower, and a count sized from a slow warm-up would leave the
 * later, quicker samples short of the target. Unchanged once `repeats` runs at that pace reach
 * the target; a run too short to time (0 ms) multiplies the count by 10.
 */
export function nextRepeats(repeats: number, perRunMs: number, targetMs: number): number {
  if (perRunMs * repeats >= targetMs) return repeats;
  const next = perRunMs > 0 ? Math.ceil((targetMs * HEADROOM) / perRunMs) : repeats * 10;
  return Math.min(MAX_REPEATS, Math.max(repeats + 1, next));
}

/**
 * With the `batch` cure (core/plan/cures.ts), how long the timed runs of one sample of a case that
 * writes should last at the least: a few scheduler slices (about 4 ms each under Linux's CFS) and
 * longer than a young-generation collection, so that neither decides a sample alone.
 */
export const BATCH_TARGET_MS = 25;
