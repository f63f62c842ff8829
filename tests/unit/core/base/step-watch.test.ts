// The step watch (src/core/base/step-watch.ts): what the page's watchdog Worker reads from another thread.
import { describe, expect, it } from 'vitest';
import { withTimeout } from '../../../../src/core/base/errors.ts';
import {
  NO_STEP,
  overdueMs,
  setStepWatch,
  sharedStepWatch,
  watchedTimeout,
} from '../../../../src/core/base/step-watch.ts';

describe('StepWatch', () => {
  it('holds the earliest deadline of the open steps', () => {
    const slots = new Int32Array(new SharedArrayBuffer(4));
    const watch = sharedStepWatch(slots, Date.now());
    const outer = watch.open(10_000);
    const inner = watch.open(4_000);
    expect(Atomics.load(slots, 0)).toBe(4_000);
    expect(overdueMs(slots, 3_000)).toBe(0);
    expect(overdueMs(slots, 4_500)).toBe(500);
    watch.close(inner);
    expect(Atomics.load(slots, 0)).toBe(10_000);
    watch.close(outer);
    expect(Atomics.load(slots, 0)).toBe(NO_STEP);
    expect(overdueMs(slots, 1e9)).toBe(0);
  });

  it('sees a watchedTimeout until it settles or fires', async () => {
    const slots = new Int32Array(new SharedArrayBuffer(4));
    const watch = sharedStepWatch(slots, Date.now() - 1_000);
    setStepWatch(watch);
    try {
      let release = () => {};
      const step = watchedTimeout(new Promise<void>((ok) => (release = ok)), 60_000, 'a step');
      const deadline = Atomics.load(slots, 0);
      expect(deadline).toBeGreaterThanOrEqual(61_000);
      expect(deadline).toBeLessThan(62_000);
      release();
      await step;
      expect(Atomics.load(slots, 0)).toBe(NO_STEP);
      await expect(watchedTimeout(new Promise<void>(() => {}), 10, 'a hung step')).rejects.toThrow(
        'a hung step did not finish within 10 ms',
      );
      expect(Atomics.load(slots, 0)).toBe(NO_STEP);
    } finally {
      setStepWatch(null);
    }
  });

  it('is not armed by withTimeout alone', async () => {
    const slots = new Int32Array(new SharedArrayBuffer(4));
    setStepWatch(sharedStepWatch(slots, Date.now()));
    try {
      let release = () => {};
      const wait = withTimeout(new Promise<void>((ok) => (release = ok)), 60_000, 'a wait');
      expect(Atomics.load(slots, 0)).toBe(NO_STEP);
      release();
      await wait;
    } finally {
      setStepWatch(null);
    }
  });
});
