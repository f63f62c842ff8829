/**
 * The `core` cure in a sweep (placement/placer.ts): decided before anything starts and said with
 * the plan, started as the browsers start, asked at each page's launch, recorded in each
 * browser's file, and undone at the end. Where it cannot apply, the sweep says why in one line
 * and runs as it would without it.
 */
import { curesOf } from '../../../core/plan/plan.ts';
import type { Placement } from '../../../core/schema/results-schema.ts';
import { CorePlacement, placementOff, placementPlan } from '../../placement/placer.ts';
import { printable } from '../../terminal/escape.ts';
import type { SweepRun } from '../../browser-runs/sweep-run.ts';

/** The placer for this sweep, why there is none (said once), or null when the plan's cures leave it off. */
export function planPlacement(run: SweepRun): CorePlacement | string | null {
  if (!curesOf(run.plan).includes('core')) return null;
  const where = run.args.manual
    ? '--manual: a browser someone opens'
    : run.args.remote !== null
      ? '--remote: a browser elsewhere'
      : null;
  const plan = placementPlan(where);
  if (typeof plan === 'string') return plan;
  return new CorePlacement(plan.split, plan.taskset, (line) =>
    run.view.note(`placement: ${printable(line)}; the page shares the CPUs from here`),
  );
}

/** The placer at work in this sweep, if any. */
export function placerOf(run: Pick<SweepRun, 'placement'>): CorePlacement | null {
  return run.placement instanceof CorePlacement ? run.placement : null;
}

/** The opening line that says where the page runs. */
export function placementLine(placement: CorePlacement | string | null): string | null {
  if (placement === null) return null;
  if (typeof placement === 'string')
    return `  placement: off, the page shares the CPUs: ${placement}`;
  return `  placement: ${placement.describe()}`;
}

/** What a browser's file records of it; absent when the cure was off. */
export function placementRecord(placement: CorePlacement | string | null): Placement | undefined {
  if (placement === null) return undefined;
  return typeof placement === 'string' ? placementOff(placement) : placement.record();
}
