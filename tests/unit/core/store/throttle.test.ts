import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import { throttledAdapters } from '../../../../src/core/store/throttle.ts';

const plan = (cpuThrottle?: number): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['insert'],
  adapters: ['memory'],
  ...(cpuThrottle ? { cpuThrottle } : {}),
});
const opfs: StoreAdapter = { ...memoryAdapter, id: 'sqlite-opfs', backend: 'opfs' };

describe('throttledAdapters', () => {
  it('changes nothing without throttling', () => {
    expect(throttledAdapters(plan(), null, 'main', [memoryAdapter])[0]).toBe(memoryAdapter);
  });

  it('makes every store unsupported where it cannot throttle', async () => {
    const [notDriven] = throttledAdapters(plan(4), null, 'main', [memoryAdapter]);
    expect(await notDriven!.supported()).toMatch(
      /^CPU throttling \(cpu-throttle 4\) needs Chromium's DevTools protocol/,
    );
    const [otherRate] = throttledAdapters(plan(4), 2, 'main', [memoryAdapter]);
    expect(await otherRate!.supported()).toMatch(/needs Chromium's DevTools protocol/);
    const [worker] = throttledAdapters(plan(4), 4, 'worker', [memoryAdapter]);
    expect(await worker!.supported()).toMatch(/this plan runs in a Worker/);
  });

  it('runs only page-thread stores and cases when throttled', async () => {
    const [memory, sqlite] = throttledAdapters(plan(4), 4, 'main', [memoryAdapter, opfs]);
    expect(await memory!.supported()).toBe(true);
    expect(memory!.capabilities).not.toContain('worker');
    expect(memory!.lacks?.worker).toMatch(/not to the Workers these cases start/);
    expect(await sqlite!.supported()).toMatch(/runs its engine in a Worker of its own/);
  });
});
