/**
 * The runner on scripted cases, whose samples are given per store, so statistics see exact
 * values: the plan, the run with its events, and a row of it. For the tests of the sampling
 * policy and of the runner. Not a test file itself.
 */
import { memoryAdapter } from '../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import { runPlan, type RunEvent, type RunInput } from '../../../../src/core/run/runner.ts';
import { defineCase, type BenchCase, type Suite } from '../../../../src/core/store/suite.ts';

export const plan = (over: Partial<Plan> = {}): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['t'],
  adapters: ['memory'],
  sizes: [10],
  iterations: 4,
  warmup: 0,
  ...over,
});
export const suiteOf = (...cases: BenchCase[]): Suite => ({
  id: 't',
  title: 'test',
  description: 'test suite',
  cases: () => cases,
});
export const memoryAs = (id: string): StoreAdapter => ({ ...memoryAdapter, id, label: id });
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A case whose samples are given per adapter, in order (then the last one repeats): `run` returns
 * the number, which the runner takes as the sample. Statistics then see exact values.
 */
export function scripted(
  id: string,
  values: Record<string, readonly number[]>,
  extra: Partial<BenchCase> = {},
): BenchCase {
  const taken = new Map<string, number>();
  return defineCase<void>({
    id,
    title: id,
    needs: [],
    operations: () => 1,
    async run(ctx) {
      const list = values[ctx.adapter.id] ?? [1];
      const i = taken.get(ctx.adapter.id) ?? 0;
      taken.set(ctx.adapter.id, i + 1);
      return list[Math.min(i, list.length - 1)];
    },
    ...(extra as object),
  });
}

export async function run(
  suites: Suite[],
  adapters: StoreAdapter[],
  p: Plan,
  over: Partial<RunInput> = {},
) {
  const events: RunEvent[] = [];
  const out = await runPlan({
    plan: p,
    suites,
    adapters,
    runId: 'auto',
    onEvent: (e) => events.push(e),
    cleanupTimeoutMs: 500,
    ...over,
  });
  return { ...out, events };
}

export const row = (cases: CaseResult[], adapter: string, caseId?: string) => {
  const r = cases.find((c) => c.adapter === adapter && (caseId === undefined || c.case === caseId));
  if (!r) throw new Error(`no row for ${adapter}`);
  return r;
};

/** Samples that alternate around 100 by ±`spread`: mean 100, and a CI that shrinks with n. */
export const around = (spread: number, n = 400) =>
  Array.from({ length: n }, (_, i) => 100 + (i % 2 === 0 ? spread : -spread));
