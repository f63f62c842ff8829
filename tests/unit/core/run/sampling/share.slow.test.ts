// The runner keeping to a row's share of the budget (src/core/run/sampling/share.ts) on the real
// memory store, with case setups that take real time. Slow: each run spends a real budget of 3 to
// 5 s, which test:fast leaves to npm test; share.test.ts checks the rule itself.
import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../../src/core/store/adapter.ts';
import type { Plan } from '../../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../../src/core/plan/defaults.ts';
import type { CaseResult } from '../../../../../src/core/results/results.ts';
import { runPlan } from '../../../../../src/core/run/runner.ts';
import { defineCase, type Suite } from '../../../../../src/core/store/suite.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const suiteOf = (...cases: ReturnType<typeof defineCase>[]): Suite => ({
  id: 't',
  title: 'test',
  description: 'test suite',
  cases: () => cases,
});
const memoryAs = (id: string): StoreAdapter => ({ ...memoryAdapter, id, label: id });

/** A run of one case on the memory store under several ids, each sample's setup taking `setupMs(id)` of wall time. */
async function runShares(ids: string[], setupMs: (id: string) => number, budgetMs: number) {
  const c = defineCase<void>({
    id: 'c',
    title: 'c',
    needs: [],
    operations: () => 1,
    setup: (ctx) => sleep(setupMs(ctx.adapter.id)),
    run: async (ctx) => 10 + ctx.rng.next(),
  });
  const auto = { targetRelCi: 0.0001, minN: 6, maxN: 1000, maxMs: 60_000, passes: 6 };
  const plan: Plan = {
    ...DEFAULT_PLAN,
    suites: ['t'],
    adapters: ids,
    sizes: [10],
    warmup: 1,
    auto,
    budgetMs,
  };
  const out = await runPlan({
    plan,
    suites: [suiteOf(c)],
    adapters: ids.map(memoryAs),
    runId: 'share',
    cleanupTimeoutMs: 500,
  });
  return (id: string) => out.cases.find((r) => r.adapter === id) as CaseResult & { status: 'ok' };
}

describe('share - in the runner', () => {
  it('lets no costly row starve the cheap ones', async () => {
    // A sample's setup takes 1 or 40 ms of wall time by store; a budget of 5 s over 9 rows is a
    // share of 556 ms, which the costly store's 6 passes of a warm-up and 2 samples (720 ms) pass.
    const cheap = Array.from({ length: 8 }, (_, i) => `cheap${i}`);
    const row = await runShares([...cheap, 'costly'], (id) => (id === 'costly' ? 40 : 1), 5_000);
    for (const id of cheap)
      expect(
        row(id).samplesPerPass?.every((k) => k >= 2),
        `${id}: ${JSON.stringify(row(id).samplesPerPass)}`,
      ).toBe(true);
    expect(row('costly')).toMatchObject({
      status: 'ok',
      stopped: 'share',
      samplesPerPass: [1, 1, 1, 1, 1, 1],
    });
    // Its one warm-up, in the first pass, told what a sample costs.
    expect(row('costly').warmup).toHaveLength(1);
    expect(row('costly').share?.sampleMs).toBeLessThanOrEqual(
      4 * (row('costly').share?.shareMs ?? 0),
    );
  });

  it('gives a row of several shares a sample in 3 passes', async () => {
    // 20 rows in 2 s: a share of 100 ms; the dear store's samples take 450 ms, which 3 shares do
    // not pay for even once. Its passes are set aside for it: it takes them however the cheap
    // rows used the budget.
    const cheap = Array.from({ length: 19 }, (_, i) => `cheap${i}`);
    const row = await runShares([...cheap, 'dear'], (id) => (id === 'dear' ? 450 : 1), 2_000);
    expect(row('dear')).toMatchObject({
      status: 'ok',
      stopped: 'share',
      samplesPerPass: [1, 0, 1, 0, 1, 0],
    });
    expect(row('dear').share?.shareMs).toBe(100);
  });

  it('gives a row of more than 8 shares 2 samples, first and last', async () => {
    const cheap = Array.from({ length: 19 }, (_, i) => `cheap${i}`);
    const row = await runShares([...cheap, 'dear'], (id) => (id === 'dear' ? 900 : 1), 2_000);
    expect(row('dear')).toMatchObject({
      status: 'ok',
      stopped: 'share',
      samplesPerPass: [1, 0, 0, 0, 0, 1],
    });
    expect(row('dear').share?.sampleMs).toBeGreaterThan(8 * (row('dear').share?.shareMs ?? 0));
  });
});

describe('share - a costly row late in the plan', () => {
  it('takes its passes though earlier groups used up the time', async () => {
    // Case a fills a shared database for each store in every pass (150 ms, not part of a sample's
    // cost), so by the third pass the 3-s budget is gone; case b comes after it, and its costly
    // store (40 ms a sample against a share of 167 ms) samples once in each pass of its rung all
    // the same: every pass on schedule, every 2nd once the run is behind (pace), never fewer than 3.
    const cheap = Array.from({ length: 8 }, (_, i) => `cheap${i}`);
    const ids = [...cheap, 'costly'];
    const a = defineCase<void>({
      id: 'a',
      title: 'a',
      needs: [],
      db: 'shared',
      operations: () => 1,
      setup: () => sleep(150),
      run: async (ctx) => 10 + ctx.rng.next(),
    });
    const b = defineCase<void>({
      id: 'b',
      title: 'b',
      needs: [],
      operations: () => 1,
      setup: (ctx) => sleep(ctx.adapter.id === 'costly' ? 40 : 1),
      run: async (ctx) => 10 + ctx.rng.next(),
    });
    const auto = { targetRelCi: 0.0001, minN: 6, maxN: 1000, maxMs: 60_000, passes: 6 };
    const plan: Plan = {
      ...DEFAULT_PLAN,
      suites: ['t'],
      adapters: ids,
      sizes: [10],
      warmup: 1,
      auto,
      budgetMs: 3_000,
    };
    const out = await runPlan({
      plan,
      suites: [suiteOf(a, b)],
      adapters: ids.map(memoryAs),
      runId: 'late',
      cleanupTimeoutMs: 500,
    });
    const costly = out.cases.find((r) => r.case === 'b' && r.adapter === 'costly') as CaseResult & {
      status: 'ok';
    };
    const per = costly.samplesPerPass ?? [];
    expect(per).toHaveLength(6);
    expect(per.every((k) => k <= 1)).toBe(true);
    // Passes 1, 3 and 5 are on every rung of 6 passes but the sparsest, which has fewer than 3.
    expect([per[0], per[2], per[4]]).toEqual([1, 1, 1]);
    // Enough passes for a comparison paired by pass (3); its own median may go without an
    // interval below 6 samples, and the row says why (share note).
    expect(costly.samples.length).toBeGreaterThanOrEqual(3);
    expect(costly.share?.sampleMs).toBeGreaterThan(0);
    // The cheap rows of case a did run out of time: the budget was spent before the costly row's second pass.
    expect(
      out.cases
        .filter((r) => r.case === 'a')
        .some((r) => r.status === 'ok' && r.stopped === 'budget'),
    ).toBe(true);
  });
});

describe('share - a class settled after the first pass', () => {
  it('keeps a costly row costly when it gets cheaper', async () => {
    // The costly store's samples take 45 ms in the first pass, then 1 ms: its average falls below
    // the line (6 passes × 3 × 23 ms against a share of 500 ms), yet it samples once a pass, as a costly row.
    const cheap = Array.from({ length: 9 }, (_, i) => `cheap${i}`);
    const ids = [...cheap, 'costly'];
    let pass = 1;
    const c = defineCase<void>({
      id: 'c',
      title: 'c',
      needs: [],
      operations: () => 1,
      setup: (ctx) => sleep(ctx.adapter.id === 'costly' && pass <= 1 ? 45 : 1),
      run: async (ctx) => 10 + ctx.rng.next(),
    });
    const auto = { targetRelCi: 0.0001, minN: 6, maxN: 1000, maxMs: 60_000, passes: 6 };
    const plan: Plan = {
      ...DEFAULT_PLAN,
      suites: ['t'],
      adapters: ids,
      sizes: [10],
      warmup: 1,
      auto,
      budgetMs: 5_000,
    };
    const out = await runPlan({
      plan,
      suites: [suiteOf(c)],
      adapters: ids.map(memoryAs),
      runId: 'settled',
      cleanupTimeoutMs: 500,
      onEvent: (e) => {
        if (e.type === 'pass-end') pass++;
      },
    });
    const costly = out.cases.find((r) => r.adapter === 'costly') as CaseResult & { status: 'ok' };
    expect(costly.samplesPerPass).toEqual([1, 1, 1, 1, 1, 1]);
    expect(costly.share?.sampleMs).toBeGreaterThan(40);
  });
});
