// How many times one sample runs a case body (src/core/run/sampling/repeats.ts), as the runner
// calibrates it on the memory store.
import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../../src/core/store/adapter.ts';
import {
  MAX_SAMPLE_TARGET_MS,
  nextRepeats,
  sampleTargetMs,
} from '../../../../../src/core/run/sampling/repeats.ts';
import type { Plan } from '../../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../../src/core/plan/defaults.ts';
import { runPlan } from '../../../../../src/core/run/runner.ts';
import { readSuite } from '../../../../../suites/read.ts';

const plan = (over: Partial<Plan>): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['read'],
  adapters: ['memory'],
  sizes: [200],
  iterations: 6,
  warmup: 1,
  ...over,
});

describe('repeats - calibrated by the runner', () => {
  it('repeats a fast read until a sample spans its target', async () => {
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

  it('takes more repeats when runs get quicker', async () => {
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

describe('sampleTargetMs, nextRepeats', () => {
  it('aims a sample at 1,000 timer steps, capped at 100 ms for a coarse timer', () => {
    expect(sampleTargetMs(0.005)).toBeCloseTo(5, 12);
    expect(sampleTargetMs(0.02)).toBeCloseTo(20, 12);
    expect(sampleTargetMs(1)).toBe(MAX_SAMPLE_TARGET_MS);
  });

  it('sizes the count from the fastest run, with headroom', () => {
    expect(nextRepeats(1, 0.5, 5)).toBe(13); // 5 / 0.5 × 1.25 = 12.5
    expect(nextRepeats(13, 0.5, 5)).toBe(13); // 13 runs of 0.5 ms reach 5 ms
    expect(nextRepeats(4, 0, 5)).toBe(40);
  });
});
