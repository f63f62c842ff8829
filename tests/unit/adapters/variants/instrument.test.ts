import { describe, expect, it } from 'vitest';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';
import {
  instrumentAdapter,
  type InstrumentedCall,
} from '../../../../src/adapters/variants/instrument.ts';
import { memoryAdapter } from '../../../../src/adapters/memory.ts';
import { adapterById } from '../../../../src/adapters/registry.ts';
import { median } from '../../../../src/core/stats/stats.ts';

/** The wrapper's clock, with every read it makes kept, and its calls as it reports them. */
function watched(percent: number, base: StoreAdapter = memoryAdapter) {
  const reads: number[] = [];
  const calls: { call: InstrumentedCall; reads: number[] }[] = [];
  const clock = () => {
    const t = performance.now();
    reads.push(t);
    return t;
  };
  const adapter = instrumentAdapter(base, percent, {
    clock,
    onCall: (call) => calls.push({ call, reads: reads.splice(0) }),
  });
  return { adapter, calls };
}

const doc = (i: number) => ({
  _id: `d${String(i).padStart(5, '0')}`,
  n: i,
  tags: ['a', 'b'],
  nested: { x: i },
});

describe('instrument - ADAPTER@+N%', () => {
  it('times each handle call and then spins for N% of that time, carrying what a wait overshoots to the next, on the real memory store', async () => {
    const { adapter, calls } = watched(10);
    const handle = await adapter.open('instrument-accounting');
    for (let i = 0; i < 200; i++) await handle.put(doc(i));
    await handle.bulkPut!(Array.from({ length: 500 }, (_, i) => doc(1000 + i)));
    expect(await handle.get('d00007')).toEqual(doc(7));
    expect(await handle.count()).toBe(700);
    await handle.destroy();
    expect(calls.map((c) => c.call.method).slice(-4)).toEqual([
      'bulkPut',
      'get',
      'count',
      'destroy',
    ]);
    expect(calls).toHaveLength(204);
    let owed = 0;
    let target = 0;
    let spun = 0;
    for (const { call, reads } of calls) {
      const [t0, t1, ...spin] = reads as [number, number, ...number[]];
      // The call's time is the two reads around it; the wait aims at a tenth of it, plus what the waits before fell short of...
      expect(call.callMs).toBe(t1 - t0);
      expect(call.targetMs).toBe(call.callMs * 0.1);
      expect(call.aimMs).toBeCloseTo(call.targetMs + owed, 12);
      // ...and reads the clock until it has passed that, and no longer.
      const last = spin.at(-1) ?? t1;
      expect(call.spunMs).toBe(last - t1);
      expect(call.spunMs).toBeGreaterThanOrEqual(call.aimMs);
      for (const t of spin.slice(0, -1)) expect(t - t1).toBeLessThan(call.aimMs);
      owed = call.aimMs - call.spunMs;
      target += call.targetMs;
      spun += call.spunMs;
    }
    // Over every call the waits add up to a tenth of the calls' time, to within the last wait's overshoot.
    expect(Math.abs(spun - target)).toBeLessThanOrEqual(Math.abs(owed) + 1e-9);
  });

  it('slows calls in flight together by N% of the time they were in flight, not of each span (insert/parallel)', async () => {
    // Each put waits 2 ms on a timer: 300 of them at once all end together, and each call's span
    // holds every wait that ran before its own. Counted in, the waits grew by a tenth each, without end.
    const slow: StoreAdapter = {
      ...memoryAdapter,
      async open(name, options) {
        const h = await memoryAdapter.open(name, options);
        return {
          ...h,
          put: async (d: Parameters<typeof h.put>[0]) => (
            await new Promise((r) => setTimeout(r, 2)),
            h.put(d)
          ),
        };
      },
    };
    let spun = 0;
    let target = 0;
    // The batch's time is read off the instrument's own clock, from its first reading (the first
    // call's start) to its last (the last wait's end): a stall of the process before the first
    // call or after the last wait is no call's time, and a timer read around the batch counted it.
    let first = Infinity;
    let last = -Infinity;
    const clock = () => {
      const t = performance.now();
      first = Math.min(first, t);
      last = t;
      return t;
    };
    const adapter = instrumentAdapter(slow, 10, {
      clock,
      onCall: (c) => ((spun += c.spunMs), (target += c.targetMs)),
    });
    const handle = await adapter.open('instrument-parallel');
    await Promise.all(Array.from({ length: 300 }, (_, i) => handle.put(doc(i))));
    await handle.destroy();
    // The waits aim at a tenth of the time the calls were in flight, not of each call's span (the
    // 300 spans overlap): a tenth of the batch's time without its waits, where a tenth of every span
    // is about 30 times that. The waits never fall short of their aims (a wait the machine
    // stretched is taken off the next ones). A stall within the batch is time in flight, so load
    // moves neither bound.
    const busy = last - first - spun;
    expect(target).toBeLessThanOrEqual(0.1 * busy + 1e-6);
    expect(target).toBeGreaterThan(0.09 * busy);
    expect(spun).toBeGreaterThanOrEqual(target - 1e-6);
  });

  it('slows a call of known length by N%: a 30 ms call is followed by a 3 ms wait', async () => {
    const sleepy: StoreAdapter = {
      ...memoryAdapter,
      async open(name) {
        const inner = await memoryAdapter.open(name);
        return {
          ...inner,
          get: async (id) => (await new Promise((ok) => setTimeout(ok, 30)), inner.get(id)),
        };
      },
    };
    const { adapter, calls } = watched(10, sleepy);
    const handle = await adapter.open('instrument-sleepy');
    const t0 = performance.now();
    await handle.get('none');
    const wall = performance.now() - t0;
    const { call } = calls[0] as { call: InstrumentedCall };
    expect(call.callMs).toBeGreaterThanOrEqual(29);
    expect(call.spunMs).toBeGreaterThanOrEqual(call.callMs * 0.1);
    expect(wall).toBeGreaterThanOrEqual(call.callMs * 1.1);
    await handle.destroy();
  });

  it('makes real memory-store work slower as a whole: +100% against the plain store, in alternating rounds', async () => {
    const plain = await memoryAdapter.open('instrument-plain');
    const slowed = await instrumentAdapter(memoryAdapter, 100).open('instrument-slowed');
    const round = async (h: typeof plain, from: number) => {
      const t0 = performance.now();
      for (let i = from; i < from + 200; i++) await h.put(doc(i));
      for (let i = from; i < from + 200; i++) await h.get(doc(i)._id);
      return performance.now() - t0;
    };
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < 10; r++) {
      a.push(await round(plain, r * 200));
      b.push(await round(slowed, r * 200));
    }
    // The rounds' medians, not their sums: a round the machine preempted (a busy 2-core machine
    // stops a process for tens of ms) outweighed the other nine, and read the plain store slower.
    expect(median(b) / median(a)).toBeGreaterThan(1.0);
    await plain.destroy();
    await slowed.destroy();
  });

  it('says what it is: its label, its describe() and its capabilities are its store’s', async () => {
    const adapter = adapterById('memory@+10%');
    expect(adapter.id).toBe('memory@+10%');
    expect(adapter.label).toBe('memory +10% (calibration instrument, not a store)');
    expect(adapter.capabilities).toEqual(memoryAdapter.capabilities);
    expect(await adapter.describe?.()).toEqual({ instrument: '+10%', of: 'memory' });
    expect(adapterById('memory@+10%')).toBe(adapter);
    expect(await adapterById('idb@+2.5%').describe?.()).toEqual({ instrument: '+2.5%', of: 'idb' });
  });

  it('the page refuses a version it was not built with, saying how to get it', () => {
    expect(() => adapterById('idb@8.0.4')).toThrow(
      'this page was built without the variant idb@8.0.4: a sweep builds it beside the installed idb (npm run sweep -- --adapters idb,idb@8.0.4)',
    );
    expect(() => adapterById('memory@1.0.0')).toThrow(/memory wraps no npm package/);
  });
});
