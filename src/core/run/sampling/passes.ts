/**
 * Passes over the plan (plan.auto.passes) and what a row takes in each at the least: its first
 * pass takes the minimum an interval needs, or the fixed count; each later one a warm-up and
 * LATER_PASS_SAMPLES, enough to check it against the passes before.
 */
import { passesOf, type Plan } from '../../plan/plan.ts';

/** Timed samples a row takes in a later pass at the least: enough to check it against the earlier ones. */
const LATER_PASS_SAMPLES = 2;

/**
 * Whether rows take their minimum pass by pass, by what they cost (share.ts): adaptive sampling in
 * 3 passes or more, where a row reaches the samples an interval needs over its passes instead of
 * taking them all in the first (which at 1,000 documents takes a Chromium run's first pass past 4 min).
 */
export function sharedOut(plan: Plan): boolean {
  return plan.auto !== undefined && passesOf(plan.auto) >= 3;
}

/**
 * Timed samples a row takes in this pass at the least: in the first, the minimum (adaptive) or the
 * count (fixed); in a later one, 2 more, however many the row took in the passes before.
 */
export function minimumInPass(plan: Plan, pass: number): number {
  if (pass > 1 || sharedOut(plan)) return LATER_PASS_SAMPLES;
  return plan.auto ? plan.auto.minN : plan.iterations;
}

/** Warm-up samples per row in this pass: the plan's in the first; one in a later pass, for its fresh database and cold caches. */
export function warmupsIn(plan: Plan, pass: number): number {
  return pass === 1 ? plan.warmup : Math.min(1, plan.warmup);
}

/** Samples a row takes at the least in this pass, warm-up included: the run's progress total. */
export function passSamples(plan: Plan, pass: number): number {
  return warmupsIn(plan, pass) + minimumInPass(plan, pass);
}

/** A group's budget weight in each pass, per row: its first-pass minimum samples, warm-up included. */
export function rowWeight(plan: Plan): number {
  return passSamples(plan, 1);
}
