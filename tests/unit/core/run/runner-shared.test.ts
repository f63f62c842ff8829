import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';
import { sampleTargetMs } from '../../../../src/core/run/sampling/repeats.ts';
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

describe('runner - shared databases', () => {
  it('a read-only case fills one database per row and takes all its samples on it', async () => {
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

  it('with passes, a read-only row fills a fresh database in each pass', async () => {
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

  it('a row that stopped in an early pass still gets its measurement pass, on a shared database filled for it', async () => {
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

  it('cases that share their fill read one filled database per store, size and pass', async () => {
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

  it('a store that failed on a pooled database leaves it: the next case fills its own', async () => {
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

  it('a case that writes gets a fresh database per sample, warm-up included', async () => {
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

describe('runner - calibration', () => {
  it('repeats a fast read inside each sample until the sample spans the timer-step target', async () => {
    // Reading the first of 200 documents 20 times from a Map takes microseconds: far under 1,000
    // steps of a 5 µs timer (5 ms).
    const timerStepMs = 0.005;
    const out = await runPlan({
      plan: plan({ suites: ['read'], cases: ['get-first'] }),
      suites: [readSuite],
      adapters: [memoryAdapter],
      runId: 'calibrate',
      timerStepMs,
    });
    const row = out.cases[0];
    if (row?.status !== 'ok')
      throw new Error(`expected an ok row, got ${row?.status}: ${row?.reason}`);
    expect(row.repeats).toBeGreaterThan(1);
    // Each sample is the time of one run; the timed section was that times the repeats.
    const sectionMs = Math.min(...row.samples) * (row.repeats ?? 1);
    expect(sectionMs).toBeGreaterThanOrEqual(sampleTargetMs(timerStepMs) * 0.5);
    // "About 1,000 steps": calibration aims 25% past the target, and later runs may be a little faster.
    expect(row.stats.median * (row.repeats ?? 1)).toBeGreaterThanOrEqual(
      sampleTargetMs(timerStepMs) * 0.8,
    );
  });

  it('takes more repeats as soon as runs get quicker than calibration saw, so samples stay at the target', async () => {
    // Each get spins for a fixed time: twice as long during warm-up (a busy machine, a cold JIT)
    // as after the first timed sample. Calibration sizes the repeats at the slow pace, so the
    // quick samples span about 0.6 of the target unless the runner raises the count again.
    let spinMs = 0.04;
    const spin = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    const adapter: StoreAdapter = {
      ...memoryAdapter,
      async open(name, options) {
        const handle = await memoryAdapter.open(name, options);
        return { ...handle, get: async (id) => (spin(spinMs), handle.get(id)) };
      },
    };
    const timerStepMs = 0.005;
    const out = await runPlan({
      plan: plan({ suites: ['read'], cases: ['get-first'], iterations: 7 }),
      suites: [readSuite],
      adapters: [adapter],
      runId: 'quicker',
      timerStepMs,
      onEvent: (e) => {
        if (e.type === 'sample' && !e.warmup) spinMs = 0.02;
      },
    });
    const row = out.cases[0];
    if (row?.status !== 'ok')
      throw new Error(`expected an ok row, got ${row?.status}: ${row?.reason}`);
    // Every sample after the first two (the slow one, and the first quick one that raised the count) spans the target.
    const later = row.samples.slice(2).map((ms) => ms * (row.repeats ?? 1));
    expect(Math.min(...later)).toBeGreaterThanOrEqual(sampleTargetMs(timerStepMs));
  });
});
