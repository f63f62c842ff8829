/**
 * What an A/B plan (plan.ab) can decide, known before it runs: the passes a sweep gives it (each
 * in a browser launch of its own), the fewest passes with which a row can reach a verdict, and
 * the plans that can never reach one. How --ab spends its budget is decided here and only here,
 * so that a change of that rule changes the refusals and the advice with it.
 */
import { AB_BUDGET_MS, Budget, defaultLaunches, MIN_LAUNCH_MS } from './budget.ts';
import { PAIRED_MIN_PASSES } from '../stats/paired.ts';
import { FIRST_LOOK_MIN_PASSES } from '../stats/sequential.ts';
import { formatDuration } from '../base/format.ts';
import { passesOf, type Plan } from './plan.ts';
import { DEFAULT_AUTO, PLAN_LIMITS } from './defaults.ts';

/**
 * The fewest passes with which a row can reach a verdict: a verdict needs B/A's 95% interval, and
 * that interval is over passes (Student's t, paired.ts), which needs PAIRED_MIN_PASSES of them.
 */
export function abPassesNeeded(): number {
  return PAIRED_MIN_PASSES;
}

/**
 * The passes an A/B plan runs in a sweep: each pass in a launch of its own, so as many as the
 * budget gives launches (budget.ts, defaultLaunches), and no more than the plan asks for.
 */
export function abPasses(passesAsked: number, budgetMs: number): number {
  return Math.max(1, defaultLaunches(passesAsked, budgetMs));
}

/**
 * The least budget, in whole seconds, with which an A/B plan runs `passes` passes; null when no
 * budget within the plan's limit does. Found by asking abPasses, so it follows that rule.
 */
export function abBudgetFor(passes: number): number | null {
  let lo = Math.ceil(PLAN_LIMITS.minBudgetMs / 1000);
  let hi = Math.floor(PLAN_LIMITS.maxBudgetMs / 1000);
  if (abPasses(passes, hi * 1000) < passes) return null;
  // abPasses grows with the budget: halve the interval down to the first second that is enough.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (abPasses(passes, mid * 1000) >= passes) hi = mid;
    else lo = mid + 1;
  }
  return lo * 1000;
}

/** How a sweep spends an A/B budget, in words, for the messages that advise a budget. */
export const AB_LAUNCH_RULE = `each pass a browser launch of its own, with at least ${MIN_LAUNCH_MS / 1000} s of the budget`;

/** Why this A/B plan's passes can never give a verdict, saying what would; null when they can. */
export function abPassesProblem(plan: Plan): string | null {
  const needed = abPassesNeeded();
  const asked = passesOf(plan.auto);
  if (asked < needed)
    return `--ab: --auto=passes:${asked} runs ${asked} pass, and B/A's 95% interval is over passes, which needs ${needed}: give passes:${needed} or more (the default is ${passesOf(DEFAULT_AUTO)})`;
  const budgetMs = new Budget(plan).browserMs ?? 0;
  const got = abPasses(asked, budgetMs);
  if (got >= needed) return null;
  const enough = abBudgetFor(needed);
  return `--ab: --budget ${formatDuration(budgetMs)} runs ${got} pass (${AB_LAUNCH_RULE}), and B/A's 95% interval is over passes, which needs ${needed}${enough === null ? '' : `: give --budget ${formatDuration(enough)} or more`}`;
}

/**
 * The passes after which --budget auto sizes a run (verdicts/ab-size.ts): the first a plan can
 * look at, where each row's spread over passes has two degrees of freedom.
 */
export const SIZED_AFTER = FIRST_LOOK_MIN_PASSES;

/**
 * What each pass of a run under --budget auto is given: the share a default --ab run gives a pass
 * (AB_BUDGET_MS over the default passes), so a sized run samples each pass as a default one does
 * and differs only in how many passes it takes.
 */
export const AB_PASS_MS = AB_BUDGET_MS / passesOf(DEFAULT_AUTO);

/**
 * --budget-max when --budget auto comes without one: three default runs' worth per browser. A
 * sweep of three engines then ends within about 45 minutes however noisy the machine (36 passes
 * took Firefox 15.5 minutes here).
 */
export const AB_BUDGET_MAX_MS = 3 * AB_BUDGET_MS;

/** The passes --budget auto may take within a cap of `maxMs` per browser: as many as it pays for at AB_PASS_MS, at most PLAN_LIMITS.maxPasses. */
function abPassesWithin(maxMs: number): number {
  return Math.min(PLAN_LIMITS.maxPasses, Math.floor(maxMs / AB_PASS_MS));
}

/** The plan of `passes` passes at AB_PASS_MS each: a run under --budget auto before and after it is sized. */
export function abPlanOfPasses(plan: Plan, passes: number): Plan {
  const auto = plan.auto ?? DEFAULT_AUTO;
  return { ...plan, auto: { ...auto, passes }, budgetMs: passes * AB_PASS_MS };
}

/** The passes a run under --budget auto takes at the least and at the most, or why the cap leaves no room to size it. */
export function abSizingRange(plan: Plan, maxMs: number): { least: number; most: number } | string {
  const most = abPassesWithin(maxMs);
  if (most <= SIZED_AFTER)
    return `--budget-max ${formatDuration(maxMs)} gives ${most} pass${most === 1 ? '' : 'es'} of ${AB_PASS_MS / 1000} s, and --budget auto sizes a run after pass ${SIZED_AFTER}, so it needs room for one more: give --budget-max ${formatDuration((SIZED_AFTER + 1) * AB_PASS_MS)} or more, or a fixed --budget`;
  return { least: Math.min(most, Math.max(passesOf(plan.auto), SIZED_AFTER + 1)), most };
}

/** What a sweep knows of the plan's cases before it starts: from the registries, in a child process. */
export interface PlanCases {
  /** Case groups (suite, case, size) in this shard of the plan, and in the whole plan. */
  groups: number;
  allGroups: number;
  /** The plan's suites the sweep drives (crash, cold, tabs, quota). */
  driven: readonly string[];
}

/** Why this A/B plan's cases cannot be compared, saying what would work; null when they can. */
export function abCasesProblem(plan: Plan, cases: PlanCases): string | null {
  const { driven } = cases;
  if (driven.length > 0) {
    const one = driven.length === 1;
    return `--ab: ${driven.join(', ')} ${one ? 'is' : 'are'} driven by the sweep, ${one ? 'its' : 'their'} rows taken once per browser rather than in every pass, so B/A never gets the ${abPassesNeeded()} passes its interval needs: leave ${one ? 'it' : 'them'} out of --suites, and compare ${one ? 'it' : 'them'} with --adapters A,B in a sweep of ${one ? 'its' : 'their'} own`;
  }
  if (cases.groups === 0 && plan.shard)
    return `--ab: shard ${plan.shard.index}/${plan.shard.count} holds none of this plan's ${cases.allGroups} case group${cases.allGroups === 1 ? '' : 's'}, so it has nothing to compare: give at most ${cases.allGroups} shard${cases.allGroups === 1 ? ' (leave out --shard)' : 's'}`;
  return null;
}
