import type { StoreAdapter, StoreHandle } from '../../core/store/adapter.ts';

/** What one instrumented call took, and the busy wait that followed it, in the clock's ms. */
export interface InstrumentedCall {
  method: string;
  callMs: number;
  /** percent/100 of callMs: what the wait aimed at. */
  targetMs: number;
  /** What the wait aimed at: targetMs, plus what the waits before it fell short of (less what they went past). */
  aimMs: number;
  /** What the wait took: aimMs, plus at most one read of the clock. */
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
export function instrumentAdapter(
  base: StoreAdapter,
  percent: number,
  options: InstrumentOptions = {},
): StoreAdapter {
  const clock = options.clock ?? (() => performance.now());
  const n = `+${percent}%`;
  // Shared by every handle (see slowed): what the waits so far fell short of, or (negative) went
  // past, in ms; how long they spun in all; the calls in flight; and since when the time with calls
  // in flight is not yet charged.
  const owed: Owed = { ms: 0, spun: 0, inFlight: 0, mark: 0 };
  return {
    id: `${base.id}@${n}`,
    label: `${base.id} ${n} (calibration instrument, not a store)`,
    backend: base.backend,
    capabilities: base.capabilities,
    ...(base.lacks && { lacks: base.lacks }),
    supported: () => base.supported(),
    async open(name, openOptions) {
      return slowed(await base.open(name, openOptions), percent / 100, clock, options.onCall, owed);
    },
    // The runner's cleanup, not a handle call: not slowed.
    destroy: (name) => base.destroy(name),
    async describe() {
      return { ...(await base.describe?.()), instrument: n, of: base.id };
    },
  };
}

/** The instrument's state, shared by its handles. */
interface Owed {
  ms: number;
  spun: number;
  inFlight: number;
  mark: number;
}

/**
 * The handle with each of its methods timed and followed by a wait. The waits add up to
 * `fraction` of the time calls were in flight, their own waits left out: one call at a time, a
 * tenth of each call; calls in flight together (insert/parallel) share their time, where a tenth of
 * each call's span would count it once per call (a 100-put batch read ×14 at +10%).
 *
 * A wait can only end on a reading of the clock, and a clock of 5 µs steps overshoots a wait of a
 * few µs by most of a step: a 25 µs call slowed by "10%" read +23% in Chromium. So what a wait
 * overshoots (or falls short) is carried to the next one, and over many calls the waits add up to
 * `fraction` of that time to within one step.
 */
function slowed(
  handle: StoreHandle,
  fraction: number,
  clock: () => number,
  onCall: InstrumentOptions['onCall'],
  owed: Owed,
): StoreHandle {
  const out: Record<string, unknown> = {};
  for (const [method, fn] of Object.entries(handle)) {
    if (typeof fn !== 'function') continue;
    out[method] = async (...args: unknown[]) => {
      const t0 = clock();
      if (owed.inFlight++ === 0) owed.mark = t0;
      const spunBefore = owed.spun;
      try {
        return await (fn as (...a: unknown[]) => Promise<unknown>).apply(handle, args);
      } finally {
        const t1 = clock();
        // The call's own time: calls in flight together (insert/parallel) each spanned the others'
        // waits, and counting those would grow every wait from the last until the page hangs.
        const callMs = Math.max(0, t1 - t0 - (owed.spun - spunBefore));
        // The time with calls in flight since it was last charged (the last wait's end, or this call's start).
        const targetMs = (t1 - owed.mark) * fraction;
        const aim = targetMs + owed.ms;
        let now = t1;
        while (now - t1 < aim) now = clock();
        owed.ms = aim - (now - t1);
        owed.spun += now - t1;
        owed.mark = now;
        owed.inFlight--;
        onCall?.({ method, callMs, targetMs, aimMs: aim, spunMs: now - t1 });
      }
    };
  }
  return out as unknown as StoreHandle;
}
