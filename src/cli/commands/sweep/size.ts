/**
 * --budget auto: once every browser has taken the first passes (ab-plan.SIZED_AFTER), the run's
 * passes sized to its question from the rows the launches carried (core/verdicts/ab-size.ts),
 * and the run re-planned to them: the plan the later launches' pages read, the budget their
 * shares come from, and the launches left. Every browser's rows count together, as the gate
 * judges them together.
 */
import { abPlanOfPasses, SIZED_AFTER } from '../../../core/plan/ab-plan.ts';
import { Budget } from '../../../core/plan/budget.ts';
import { launchPasses, type Carry } from '../../../core/run/launch.ts';
import {
  earlySpreads,
  pairSpreads,
  sizePasses,
  sizingGoalPct,
  sizingText,
} from '../../../core/verdicts/ab-size.ts';
import type { SweepRun } from '../../browser-runs/sweep-run.ts';

/** Whether the run is sized once its browsers have been through `passesDone` passes. */
export function sizesAfter(run: SweepRun, passesDone: number): boolean {
  return run.args.sizing !== null && run.sized === undefined && passesDone === SIZED_AFTER;
}

/** Size the run from the open browsers' carries, re-plan it, and say so; the caller re-makes the pages' URLs. */
export function sizeRun(run: SweepRun, carries: readonly Carry[]): void {
  const { sizing } = run.args;
  const { ab, adapters } = run.plan;
  const [a, b] = adapters;
  if (!sizing || !ab || a === undefined || b === undefined || carries.length === 0) return;
  const s = sizePasses(earlySpreads(carries.flatMap((c) => pairSpreads(c.rows, a, b))), {
    thresholdPct: ab.thresholdPct,
    goalPct: sizingGoalPct(ab.thresholdPct, ab.detectPct),
    after: SIZED_AFTER,
    least: sizing.least,
    most: sizing.most,
  });
  run.plan = abPlanOfPasses(run.plan, s.passes);
  run.budget = new Budget(run.plan, s.passes);
  run.launchPlan = launchPasses(s.passes, s.passes);
  run.sized = { ...s, maxMs: sizing.maxMs, budgetMs: run.plan.budgetMs ?? 0 };
  run.view.note(`--budget auto: ${sizingText(run.sized)}`);
}
