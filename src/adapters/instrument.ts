import type { StoreAdapter, StoreHandle } from '../core/adapter.ts';

/** What one instrumented call took, and the busy wait that followed it, in the clock's ms. */
export interface InstrumentedCall {
  method: string;
  callMs: number;
  /** percent/100 of callMs: what the wait aimed at. */
  targetMs: number;
  /** What the wait took: targetMs, plus at most one read of the clock. */
  spunMs: number;
}

export interface InstrumentOptions {
  /** The clock the wrapper times calls and waits with; performance.now() unless a test watches it. */
  clock?: () => number;
  /** Told of every call, for tests of the accounting. */
  onCall?: (call: InstrumentedCall) => void;
}

/**
 * `ADAPTER@+N%`: a calibration instrument, not a store. The same store with every handle call
 * made N% slower: each call is timed and followed by a busy wait of N% of its own time, so a
 * row's true change against the store is known (+N%) and the regression gate can be tested
 * against it. The wait spins instead of sleeping, since a timer's delay is far coarser than N%
 * of a fast call.
 */
export function instrumentAdapter(base: StoreAdapter, percent: number, options: InstrumentOptions = {}): StoreAdapter {
  const clock = options.clock ?? (() => performance.now());
  const n = `+${percent}%`;
  return {
    id: `${base.id}@${n}`,
    label: `${base.id} ${n} (calibration instrument, not a store)`,
    backend: base.backend,
    capabilities: base.capabilities,
    ...(base.lacks && { lacks: base.lacks }),
    supported: () => base.supported(),
    async open(name, openOptions) {
      return slowed(await base.open(name, openOptions), percent / 100, clock, options.onCall);
    },
    // The runner's cleanup, not a handle call: not slowed.
    destroy: (name) => base.destroy(name),
    async describe() {
      return { ...(await base.describe?.()), instrument: n, of: base.id };
    },
  };
}

/** The handle with each of its methods timed and followed by a wait of `fraction` of that time. */
function slowed(handle: StoreHandle, fraction: number, clock: () => number, onCall: InstrumentOptions['onCall']): StoreHandle {
  const out: Record<string, unknown> = {};
  for (const [method, fn] of Object.entries(handle)) {
    if (typeof fn !== 'function') continue;
    out[method] = async (...args: unknown[]) => {
      const t0 = clock();
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>).apply(handle, args);
      } finally {
        const t1 = clock();
        const callMs = t1 - t0;
        const targetMs = callMs * fraction;
        let now = t1;
        while (now - t1 < targetMs) now = clock();
        onCall?.({ method, callMs, targetMs, spunMs: now - t1 });
      }
    };
  }
  return out as unknown as StoreHandle;
}
