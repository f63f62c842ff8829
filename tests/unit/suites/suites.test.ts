import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../src/adapters/memory.ts';
import { DEFAULT_PLAN } from '../../../src/core/plan/defaults.ts';
import { runPlan } from '../../../src/core/run/runner.ts';
import type { ParamValue } from '../../../src/core/base/identity.ts';
import { resolveSuiteParams, type ParamSpec } from '../../../src/core/store/suite.ts';
import { SUITES } from '../../../suites/index.ts';

const SMALL_PARAMS = {
  chunkSizes: [1, 7],
  batch: 10,
  batches: 3,
  ks: [1, 3],
  pageSize: 7,
  queries: 3,
};

describe('suites - every suite on the memory store', () => {
  for (const suite of SUITES) {
    it(`${suite.id}: every case is ok, or unsupported with a reason`, async () => {
      // Only the parameters this suite takes: a plan naming one its suites do not take is refused.
      const params = Object.fromEntries(
        Object.entries(SMALL_PARAMS).filter(([name]) => name in (suite.params ?? {})),
      );
      const plan = {
        ...DEFAULT_PLAN,
        suites: [suite.id],
        adapters: ['memory'],
        sizes: [40],
        iterations: 2,
        warmup: 1,
        params,
      };
      const out = await runPlan({
        plan,
        suites: [suite],
        adapters: [memoryAdapter],
        runId: 'suites',
      });
      expect(out.cases.length).toBe(suite.cases(resolveSuiteParams(suite, params)).length);
      for (const row of out.cases) {
        const label = `${row.suite}/${row.case}: ${row.reason ?? ''}`;
        expect(['ok', 'unsupported'], label).toContain(row.status);
        if (row.status === 'ok') {
          expect(row.samples, label).toHaveLength(2);
          expect(row.operations, label).toBeGreaterThan(0);
        } else
          expect(row.reason, label).toMatch(
            /needs \w+|^memory (keeps (nothing|its data)|is private to each tab)/,
          );
      }
      expect(out.leftover).toEqual([]);
    });
  }

  it('growth records one point per batch against the store size', async () => {
    const growth = SUITES.find((s) => s.id === 'growth')!;
    const plan = {
      ...DEFAULT_PLAN,
      suites: ['growth'],
      adapters: ['memory'],
      sizes: [20],
      iterations: 2,
      warmup: 0,
      params: { batch: 5, batches: 4 },
    };
    const out = await runPlan({
      plan,
      suites: [growth],
      adapters: [memoryAdapter],
      runId: 'growth',
    });
    const row = out.cases[0];
    expect(row?.status).toBe('ok');
    expect(row?.series?.samples).toHaveLength(2);
    expect(row?.series?.samples[0]?.map(([x]) => x)).toEqual([20, 25, 30, 35]);
    // The sample is the sum of its batch times (generation between batches is not timed).
    const sum = row!.series!.samples[0]!.reduce((s, [, y]) => s + y, 0);
    expect(row!.samples[0]).toBeCloseTo(sum, 9);
  });

  it('concurrency records per-operation latency percentiles per sample', async () => {
    const suite = SUITES.find((s) => s.id === 'concurrency')!;
    const plan = {
      ...DEFAULT_PLAN,
      suites: ['concurrency'],
      adapters: ['memory'],
      sizes: [30],
      iterations: 3,
      warmup: 0,
      params: { ks: [3] },
    };
    const out = await runPlan({ plan, suites: [suite], adapters: [memoryAdapter], runId: 'conc' });
    const row = out.cases.find((c) => c.case === 'page-writers-3');
    expect(row?.status).toBe('ok');
    expect(row?.metrics?.latencyMedianMs).toHaveLength(3);
    for (let i = 0; i < 3; i++)
      expect(row!.metrics!.latencyP95Ms![i]).toBeGreaterThanOrEqual(
        row!.metrics!.latencyMedianMs![i]!,
      );
    expect(out.cases.find((c) => c.case === 'worker-writers-3')).toMatchObject({
      status: 'unsupported',
      reason: expect.stringMatching(/needs worker/),
    });
  });
});

describe('suites - a row records every parameter its case depends on', () => {
  /** Another allowed value of a parameter. */
  const other = (spec: ParamSpec): ParamValue => {
    if (spec.kind === 'string')
      return (
        (spec.choices ?? []).find((c) => c !== spec.default) ?? `${String(spec.default)}-other`
      );
    if (spec.kind === 'int') return (spec.default as number) + 3;
    return (spec.default as number[]).map((n) => n + 3);
  };
  for (const suite of SUITES) {
    for (const [name, spec] of Object.entries(suite.params ?? {})) {
      if (spec.sampling) continue;
      it(`${suite.id}: a case whose recorded params are unchanged by ${name} runs the same`, () => {
        const before = suite.cases(resolveSuiteParams(suite, {}));
        const after = suite.cases(resolveSuiteParams(suite, { [name]: other(spec) }));
        let changed = 0;
        for (const a of after) {
          const b = before.find((c) => c.id === a.id);
          if (!b) continue;
          if (JSON.stringify(a.params ?? {}) !== JSON.stringify(b.params ?? {})) {
            changed++;
            continue;
          }
          // Same recorded params, so the same measurement: what it says it does and how much.
          expect(a.title, `${suite.id}/${a.id}`).toBe(b.title);
          expect(a.operations(100), `${suite.id}/${a.id}`).toBe(b.operations(100));
        }
        // The parameter is used somewhere: some case records it, or the case list changes with it.
        const ids = (cs: readonly { id: string }[]) => cs.map((c) => c.id).join();
        expect(
          changed > 0 || ids(before) !== ids(after),
          `${suite.id}: nothing records ${name}`,
        ).toBe(true);
      });
    }
  }
});
