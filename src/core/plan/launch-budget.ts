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

/** A launch may take at most this many times its even share: the rest of a pool left by browsers that ended early is saved. */
const POOL_STRETCH = 2;

/**
 * A launch's share of a browser's budget: what its own budget has left, plus an even part of
 * what the browsers that ended left unused, over its launches still to come (this one among
 * them), at most POOL_STRETCH times its even share. A browser's own overrun (its fills and
 * warm-ups, a slow engine's launches) stays its own: taken from one pool, Firefox's had left
 * Chromium's cheap rows no sample after pass 4 of 12 in a three-engine default sweep, where alone
 * it sampled them to pass 8. A browser whose rows all settled early leaves its time to the others.
 */
export function launchShare(s: {
  budgetMs: number;
  launches: number;
  /** Launches of this browser still to come, this one among them. */
  launchesLeft: number;
  /** What this browser's launches so far used. */
  usedMs: number;
  /** Browsers that ended, what they used in all, and the browsers still open (this one among them). */
  ended: number;
  endedUsedMs: number;
  open: number;
}): number {
  const leftover = Math.max(0, s.ended * s.budgetMs - s.endedUsedMs) / Math.max(1, s.open);
  const own = Math.max(0, s.budgetMs - s.usedMs) + leftover;
  return Math.min((POOL_STRETCH * s.budgetMs) / s.launches, own / Math.max(1, s.launchesLeft));
}

/** Launches by default: one per pass, as long as each gets MIN_LAUNCH_MS of the budget (one without a budget). */
export function defaultLaunches(passes: number, budgetMs: number | undefined): number {
  if (budgetMs === undefined) return 1;
  return Math.max(1, Math.min(passes, Math.floor(budgetMs / MIN_LAUNCH_MS)));
}
