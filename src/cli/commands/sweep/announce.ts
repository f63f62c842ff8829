/** What a sweep says before it starts: its run id, its plan in words, its browsers and launches. */
import { formatDuration } from '../../../core/base/format.ts';
import { passesOf, type Plan } from '../../../core/plan/plan.ts';
import { formatAuto } from '../../../core/plan/fields.ts';
import { formatShard } from '../../../core/plan/shard.ts';
import type { Budget } from '../../../core/plan/budget.ts';
import type { SweepRun } from '../../browser-runs/sweep-run.ts';
import { placementLine } from './place.ts';

function describePlan(plan: Plan, budget: Budget): string {
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
      ? `budget ${budget.browserMs === undefined ? 'none' : formatDuration(budget.browserMs)} per browser, each row to ±${Number((plan.auto.targetRelCi * 100).toPrecision(6))}% of its median (${formatAuto(plan.auto)}) + ${plan.warmup} warm-up`
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
  out(`  plan: ${describePlan(plan, run.budget)}`);
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
  if (run.launchPlan.length > 1)
    out(
      `  launches: each browser's ${passesOf(plan.auto)} passes run in ${run.launchPlan.length} launches of it, so each row's interval counts how launches differ (--launches)`,
    );
}
