/**
 * The clock for timed sections. performance.now() is monotonic; its step depends on the browser
 * and on cross-origin isolation (Firefox and WebKit step 1 ms when not isolated, see docs/browsers.md, "Browsers on this kind of machine").
 */
export const now: () => number = () => performance.now();

/**
 * The smallest non-zero difference between consecutive performance.now() readings, in ms,
 * over `rounds` spins. This is the resolution every sample is quantised to.
 */
export function measureTimerStep(rounds = 50, clock: () => number = now): number {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const start = clock();
    let next = clock();
    // Spin until the clock moves; bounded so a frozen clock cannot hang the page.
    for (let spins = 0; next === start && spins < 1e7; spins++) next = clock();
    const step = next - start;
    if (step > 0 && step < best) best = step;
  }
  return Number.isFinite(best) ? round(best, 6) : 0;
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/**
 * Below this many timer steps a median is mostly quantisation: at 20 steps one step either way
 * is ±5% of it, more than a change worth reporting.
 */
export const MIN_TIMER_STEPS = 20;

/** How many timer steps a time spans, or null when the step is unknown (0). */
function timerSteps(ms: number, stepMs: number): number | null {
  return stepMs > 0 ? ms / stepMs : null;
}

/** Whether a median is too close to the timer step to trust: bigger sizes give it more steps. */
export function underTimerResolution(medianMs: number, stepMs: number): boolean {
  const steps = timerSteps(medianMs, stepMs);
  return steps !== null && steps < MIN_TIMER_STEPS;
}

/**
 * The median length of a row's timed section: its median sample times the runs each sample
 * repeated (samples are per run, so a fast body repeated 200 times spans 200 times its median).
 */
export function timedSectionMs(row: { stats: { median: number }; repeats?: number }): number {
  return row.stats.median * (row.repeats ?? 1);
}
