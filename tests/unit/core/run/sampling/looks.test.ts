// Planned looks in the runner (src/core/run/sampling/looks.ts), on the real memory store under several
// ids, with case bodies that report their own times: rows whose comparisons are decided at a look
// stop as `settled`, and a run with nothing left to sample ends at the pass after that look.
import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../../src/core/store/adapter.ts';
import type { Plan } from '../../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../../src/core/plan/defaults.ts';
import type { CaseResult } from '../../../../../src/core/results/results.ts';
import { runPlan } from '../../../../../src/core/run/runner.ts';
import { defineCase, type BenchCase, type Suite } from '../../../../../src/core/store/suite.ts';

const memoryAs = (id: string): StoreAdapter => ({ ...memoryAdapter, id, label: id });

/** A case reporting `ms(store)` a sample, ±jitter (1%) at random. */
function timed(id: string, ms: (store: string) => number, jitter = 0.01): BenchCase {
  return defineCase({
    id,
    title: id,
    needs: [],
    operations: () => 1,
    run: async (ctx) => ms(ctx.adapter.id) * (ctx.rng.next() < 0.5 ? 1 - jitter : 1 + jitter),
  });
}

const suite = (id: string, cases: BenchCase[]): Suite => ({
  id,
  title: id,
  description: 'test suite',
  cases: () => cases,
});

const auto = { targetRelCi: 0.0001, minN: 6, maxN: 1000, maxMs: 60_000, passes: 12, looks: 4 };

async function run(plan: Partial<Plan>, suites: Suite[], stores: string[]) {
  const out = await runPlan({
    plan: { ...DEFAULT_PLAN, sizes: [10], warmup: 1, auto, budgetMs: 60_000, ...plan } as Plan,
    suites,
    adapters: stores.map(memoryAs),
    runId: 'looks',
    cleanupTimeoutMs: 500,
  });
  return (suiteId: string, kase: string, store: string) =>
    out.cases.find(
      (c) => c.suite === suiteId && c.case === kase && c.adapter === store,
    ) as CaseResult & { status: 'ok' };
}

describe('looks - an A/B run', () => {
  it('settles a pair that reads the same at the first look', async () => {
    // A and B alike (within ±1%): B/A is decided `same` at the look after 3 passes.
    const row = await run(
      { suites: ['t'], adapters: ['a', 'b'], ab: { thresholdPct: 5 } },
      [suite('t', [timed('c', () => 10)])],
      ['a', 'b'],
    );
    for (const store of ['a', 'b']) {
      expect(row('t', 'c', store)).toMatchObject({ status: 'ok', stopped: 'settled' });
      // Three passes sampled, then one that only finishes the rows: 4 of the plan's 12.
      expect(
        row('t', 'c', store)
          .samplesPerPass?.slice(0, 3)
          .every((k) => k > 0),
      ).toBe(true);
      expect(row('t', 'c', store).samplesPerPass).toHaveLength(4);
      expect(row('t', 'c', store).samplesPerPass?.[3]).toBe(0);
    }
  });

  it('keeps a pair 10% apart sampling to the end: a pair that may fail the run settles at no look', async () => {
    const row = await run(
      { suites: ['t'], adapters: ['a', 'b'], ab: { thresholdPct: 5 } },
      [suite('t', [timed('c', (s) => (s === 'b' ? 11 : 10))])],
      ['a', 'b'],
    );
    // ±1% samples leave no doubt about +10% at the first look, but only same and faster stop:
    // slower is judged once, at the end, over every pass, so the looks spend none of its error.
    expect(row('t', 'c', 'b').stopped).not.toBe('settled');
    expect(row('t', 'c', 'b').samplesPerPass).toHaveLength(12);
    expect(row('t', 'c', 'b').samplesPerPass?.every((k) => k > 0)).toBe(true);
  });
});

describe('looks - the default findings', () => {
  it('settles both rows of a finding decided at ±10%', async () => {
    // insert serial 10× insert bulk on one store, ±0.1%: bulk-over-serial holds at the first
    // look, known to a few percent. The `other` suite's row is in no finding: it samples every pass.
    const row = await run(
      { suites: ['insert', 'other'], adapters: ['memory'] },
      [
        suite('insert', [timed('serial', () => 100, 0.001), timed('bulk', () => 10, 0.001)]),
        suite('other', [timed('x', () => 5)]),
      ],
      ['memory'],
    );
    for (const kase of ['serial', 'bulk'])
      expect(row('insert', kase, 'memory')).toMatchObject({ status: 'ok', stopped: 'settled' });
    expect(row('insert', 'serial', 'memory').samplesPerPass?.filter((k) => k > 0)).toHaveLength(3);
    const other = row('other', 'x', 'memory');
    expect(other.stopped).not.toBe('settled');
    expect(other.samplesPerPass).toHaveLength(12);
    expect(other.samplesPerPass?.every((k) => k > 0)).toBe(true);
  });

  it('samples a decided finding while wider than ±10%', async () => {
    // ±1% a sample: at the first look (3 passes) the repeated interval of bulk-over-serial is
    // wider than ±10%, so its rows sample past it, and settle at a later look.
    const row = await run(
      { suites: ['insert'], adapters: ['memory'] },
      [suite('insert', [timed('serial', () => 100), timed('bulk', () => 10)])],
      ['memory'],
    );
    const serial = row('insert', 'serial', 'memory');
    expect(serial.stopped).toBe('settled');
    expect(serial.samplesPerPass?.filter((k) => k > 0).length).toBeGreaterThan(3);
  });
});
