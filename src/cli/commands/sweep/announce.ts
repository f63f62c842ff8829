/** What a sweep says before it starts: its run id, its plan in words, its browsers and launches. */
import { formatDuration } from '../../../core/base/format.ts';
import { passesOf, type Plan } from '../../../core/plan/plan.ts';
import { formatAuto } from '../../../core/plan/fields.ts';
import { formatShard } from '../../../core/plan/shard.ts';
import type { Budget } from '../../../core/plan/budget.ts';
import type { SweepRun } from '../../browser-runs/sweep-run.ts';
import { placementLine } from './place.ts';
import { AB_PASS_MS, SIZED_AFTER } from '../../../core/plan/ab-plan.ts';
import { sizingGoalPct } from '../../../core/verdicts/ab-size.ts';
import { times } from '../../../core/verdicts/change.ts';

/** `budget 4m per browser`, or under --budget auto the most it may come to. */
function budgetWords(budget: Budget, sized: boolean): string {
  if (budget.browserMs === undefined) return 'budget none';
  return `budget ${sized ? 'at most ' : ''}${formatDuration(budget.browserMs)} per browser`;
}

function describePlan(plan: Plan, budget: Budget, sized: boolean): string {
  const params = Object.entries(plan.params).map(
    ([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`,
  );
  return [
    ...(plan.shard ? [`shard ${formatShard(plan.shard)} of the case groups`] : []),
    `suites ${plan.suites.join(',')}`,
    `adapters ${plan.adapters.join(',')}`,
    `sizes ${plan.sizes.join(',')}`,
    ...(plan.cases ? [`cases ${plan.cases.join(',')}`] : []),
    plan.auto
      ? `${budgetWords(budget, sized)}, each row to ±${Number((plan.auto.targetRelCi * 100).toPrecision(6))}% of its median (${formatAuto(plan.auto)}) + ${plan.warmup} warm-up`
      : `${plan.iterations} samples + ${plan.warmup} warm-up`,
    ...(plan.worker ? ['in a Worker'] : []),
    ...(plan.cpuThrottle
      ? [
          `CPU throttled ×${plan.cpuThrottle} where the driver can (Chromium's DevTools emulation, not a device)`,
        ]
      : []),
    `seed ${plan.seed}`,
    `fixture ${plan.fixture}`,
    `step time limit ${plan.timeoutMs} ms`,
    ...(params.length > 0 ? [`params ${params.join(';')}`] : []),
  ].join(' | ');
}

export function announce(run: SweepRun): void {
  const { out, args, plan } = run;
  out(`storebench sweep ${run.runId}`);
  out(`  plan: ${describePlan(plan, run.budget, args.sizing !== null)}`);
  if (args.baseline) {
    const browsers = [...new Set(run.baselineDocs.map((d) => d.run.browser))];
    out(
      `  baseline: ${args.baseline.path} (${browsers.join(', ')}): each row it has samples until its change is decided against +${args.baseline.thresholdPct}%`,
    );
  }
  for (const t of run.targets)
    if (t.browser)
      out(`  ${t.id}: ${t.browser.label} ${t.browser.version}, driven by ${t.browser.how}`);
  const placement = placementLine(run.placement);
  if (placement !== null) out(placement);
  if (args.sizing && plan.ab) {
    const goal = sizingGoalPct(plan.ab.thresholdPct, plan.ab.detectPct);
    out(
      `  budget auto: after pass ${SIZED_AFTER}, the passes with which two thirds of the rows would catch ${times(1 + goal / 100)} (${plan.ab.detectPct === undefined ? 'twice the threshold' : '--detect'}) at the spread measured: ${args.sizing.least} to ${args.sizing.most} passes of ${AB_PASS_MS / 1000} s, a launch each (--budget-max ${formatDuration(args.sizing.maxMs)})`,
    );
  } else if (run.launchPlan.length > 1)
    out(
      `  launches: each browser's ${passesOf(plan.auto)} passes run in ${run.launchPlan.length} launches of it, so each row's interval counts how launches differ (--launches)`,
    );
}
