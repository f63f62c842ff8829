import { describe, expect, it } from 'vitest';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import { runPlan } from '../../../../src/core/run/runner.ts';
import { counting } from './counting-store.ts';
import { insertSuite } from '../../../../suites/insert.ts';
import { readSuite } from '../../../../suites/read.ts';

const plan = (over: Partial<Plan>): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['read'],
  adapters: ['memory'],
  sizes: [200],
  iterations: 6,
  warmup: 1,
  ...over,
});

describe('timed-sample - shared databases', () => {
  it('fills one database per row for a read-only case', async () => {
    const { adapter, opens } = counting();
    const out = await runPlan({
      plan: plan({ suites: ['read'], cases: ['get-serial'] }),
      suites: [readSuite],
      adapters: [adapter],
      runId: 'shared',
      timerStepMs: 0.005,
    });
    const row = out.cases[0];
    expect(row).toMatchObject({ status: 'ok', db: 'shared' });
    expect(row?.samples).toHaveLength(6);
    expect(opens()).toBe(1);
    expect(out.leftover).toEqual([]);
  });

  it('fills a fresh database in each pass', async () => {
    const { adapter, opens } = counting();
    // A target any interval meets, so the row takes just each pass's minimum however the
    // machine's load spreads its real read times (±50% was missed under load): 6 in each, what
    // half the share of a row this cheap buys (a sample would need over a second to lower it).
    const auto = { targetRelCi: 1e6, minN: 6, maxN: 100, maxMs: 60_000, passes: 3 };
    const out = await runPlan({
      plan: plan({ suites: ['read'], cases: ['get-serial'], auto, budgetMs: 60_000 }),
      suites: [readSuite],
      adapters: [adapter],
      runId: 'passes',
      timerStepMs: 0.005,
    });
    expect(out.cases[0]).toMatchObject({ status: 'ok', db: 'shared', stopped: 'ci-target' });
    expect(out.cases[0]?.samples).toHaveLength(6 + 6 + 6);
    expect(opens()).toBe(3);
    expect(out.leftover).toEqual([]);
  });

  it('fills a database for the measurement pass of a row that stopped', async () => {
    const { adapter, opens } = counting();
    // max-n 6: the row stops for good in the first pass (of two: from three, rows take their minimum pass by pass), so pass 2 fills nothing for it.
    const auto = { targetRelCi: 0.001, minN: 6, maxN: 6, maxMs: 60_000, passes: 2 };
    let measured = 0;
    const probe = { start() {}, stop: () => (measured++, { longTasks: 0 }) };
    const out = await runPlan({
      plan: plan({ suites: ['read'], cases: ['get-serial'], auto, budgetMs: 60_000 }),
      suites: [readSuite],
      adapters: [adapter],
      runId: 'stopped',
      timerStepMs: 0.005,
      probe,
    });
    expect(out.cases[0]).toMatchObject({
      status: 'ok',
      db: 'shared',
      stopped: 'iterations',
      samplesPerPass: [6, 0],
      blocking: { longTasks: 0 },
    });
    expect(measured).toBe(1);
    expect(opens()).toBe(2); // the first pass's, and the last pass's for the measurement
    expect(out.leftover).toEqual([]);
  });

  it('shares one fill among cases that share it', async () => {
    const { adapter, opens } = counting();
    const auto = { targetRelCi: 1e6, minN: 6, maxN: 100, maxMs: 60_000, passes: 2 };
    const out = await runPlan({
      plan: plan({ cases: ['get-serial', 'get-batch', 'all'], sizes: [100, 200], auto }),
      suites: [readSuite],
      adapters: [adapter],
      runId: 'pool',
      timerStepMs: 0.005,
    });
    expect(out.cases.map((row) => row.status)).toEqual(Array(6).fill('ok'));
    expect(opens()).toBe(2 * 2); // two sizes, two passes: three cases each read one of them
    expect(out.leftover).toEqual([]);
  });

  it('leaves a pooled database a store failed on', async () => {
    const { adapter, opens } = counting();
    let failGets = true;
    const failing: StoreAdapter = {
      ...adapter,
      async open(name, options) {
        const handle = await adapter.open(name, options);
        return {
          ...handle,
          get: async (id) => {
            if (failGets) throw new Error('get failed');
            return handle.get(id);
          },
        };
      },
    };
    const out = await runPlan({
      plan: plan({ cases: ['get-serial', 'all'] }),
      suites: [readSuite],
      adapters: [failing],
      runId: 'pool-failed',
      timerStepMs: 0.005,
      onEvent: (e) => {
        if (e.type === 'group-start' && e.case === 'all') failGets = false;
      },
    });
    expect(out.cases.map((row) => [row.case, row.status])).toEqual([
      ['get-serial', 'error'],
      ['all', 'ok'],
    ]);
    expect(opens()).toBe(2);
    expect(out.leftover).toEqual([]);
  });

  it('gives a writing case a fresh database per sample', async () => {
    const { adapter, opens } = counting();
    const out = await runPlan({
      plan: plan({ suites: ['insert'], cases: ['bulk'] }),
      suites: [insertSuite],
      adapters: [adapter],
      runId: 'fresh',
      timerStepMs: 0.005,
    });
    expect(out.cases[0]).toMatchObject({ status: 'ok', db: 'fresh', repeats: 1 });
    expect(opens()).toBe(1 + 6);
  });
});

/** The insert suite's bulk case at 10 documents, with `cures`: the batch cure's plan. */
const batchPlan = (over: Partial<Plan>): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['insert'],
  cases: ['bulk'],
  adapters: ['memory'],
  sizes: [10],
  iterations: 4,
  warmup: 1,
  ...over,
});

async function runBatch(cures: Plan['cures']) {
  const { adapter, opens } = counting();
  const out = await runPlan({
    plan: batchPlan({ cures }),
    suites: [insertSuite],
    adapters: [adapter],
    runId: 'batch',
    timerStepMs: 0.005,
  });
  return { row: out.cases[0], opens: opens(), leftover: out.leftover };
}

// The batch cure: a case that writes takes whole runs per sample, each on a database of its own,
// the sample their mean; without it such a case never repeats. The memory store's 10-document
// bulk put takes microseconds, hundreds of times short of the batch's 25 ms, whatever the load.
describe('timed-sample - the batch cure', () => {
  it('runs a writing case several times a sample', async () => {
    const { row, opens, leftover } = await runBatch(['batch']);
    expect(row).toMatchObject({ status: 'ok', db: 'fresh' });
    expect(row?.samples).toHaveLength(4);
    expect(row?.repeats).toBeGreaterThan(1);
    // Calibration in the warm-ups sets 2 runs or more before the first timed sample (and a quicker
    // run only raises it later): each of the 4 samples opened 2 databases at the least.
    expect(opens).toBeGreaterThanOrEqual(4 * 2 + 1);
    expect(leftover).toEqual([]);
  });

  it('takes one run a sample without it', async () => {
    const { row, opens, leftover } = await runBatch([]);
    expect(row).toMatchObject({ status: 'ok', db: 'fresh', repeats: 1 });
    expect(opens).toBe(4 + 1);
    expect(leftover).toEqual([]);
  });
});
