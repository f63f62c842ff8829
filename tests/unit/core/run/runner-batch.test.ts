// The batch cure: a case that writes takes whole runs per sample, each on a database of its own,
// the sample their mean; without it such a case never repeats. The memory store's 10-document
// bulk put takes microseconds, hundreds of times short of the batch's 25 ms, whatever the load.
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import { runPlan } from '../../../../src/core/run/runner.ts';
import { counting } from './counting-store.ts';
import { insertSuite } from '../../../../suites/insert.ts';

const plan = (over: Partial<Plan>): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['insert'],
  cases: ['bulk'],
  adapters: ['memory'],
  sizes: [10],
  iterations: 4,
  warmup: 1,
  ...over,
});

async function run(cures: Plan['cures']) {
  const { adapter, opens } = counting();
  const out = await runPlan({
    plan: plan({ cures }),
    suites: [insertSuite],
    adapters: [adapter],
    runId: 'batch',
    timerStepMs: 0.005,
  });
  return { row: out.cases[0], opens: opens(), leftover: out.leftover };
}

describe('runner - the batch cure', () => {
  it('runs a fresh-database case several times a sample, each run on its own database', async () => {
    const { row, opens, leftover } = await run(['batch']);
    expect(row).toMatchObject({ status: 'ok', db: 'fresh' });
    expect(row?.samples).toHaveLength(4);
    expect(row?.repeats).toBeGreaterThan(1);
    // Calibration in the warm-ups sets 2 runs or more before the first timed sample (and a quicker
    // run only raises it later): each of the 4 samples opened 2 databases at the least.
    expect(opens).toBeGreaterThanOrEqual(4 * 2 + 1);
    expect(leftover).toEqual([]);
  });

  it('without it, takes one run, on one database, a sample', async () => {
    const { row, opens, leftover } = await run([]);
    expect(row).toMatchObject({ status: 'ok', db: 'fresh', repeats: 1 });
    expect(opens).toBe(4 + 1);
    expect(leftover).toEqual([]);
  });
});
