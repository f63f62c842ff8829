/**
 * How many browser launches a budget gives by default (launch.ts): the one rule the sweep's
 * --launches default and --ab's passes (ab-plan.ts) both follow. No imports, so every layer that
 * counts launches can read it.
 */

/**
 * Sampling time a launch gets at the least by default. Starting a browser costs 1 to 5 s here, on
 * top of the budget: launches of 15 s keep that under a quarter of the wall time, and give the
 * default budget its 12 launches, one per pass, so every comparison has 11 degrees of freedom.
 */
export const MIN_LAUNCH_MS = 15_000;

/** Launches by default: one per pass, as long as each gets MIN_LAUNCH_MS of the budget (one without a budget). */
export function defaultLaunches(passes: number, budgetMs: number | undefined): number {
  if (budgetMs === undefined) return 1;
  return Math.max(1, Math.min(passes, Math.floor(budgetMs / MIN_LAUNCH_MS)));
}
