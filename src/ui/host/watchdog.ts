/**
 * The page's side of the watchdog (watchdog-worker.ts): a shared slot for the deadline of the
 * step in flight, and the Worker that reads it. Only where the page is cross-origin isolated (a
 * SharedArrayBuffer needs it) and reports to a collector; elsewhere the sweep's silence limit
 * (src/cli/server/session.ts) is what finds a blocked page.
 */
import { sharedStepWatch, type StepWatch } from '../../core/base/step-watch.ts';
import type { WatchOrder } from './watchdog-worker.ts';

/** Timers on a loaded 2-core machine fire up to a second or two late; past five, the thread is blocked. */
const WATCHDOG_GRACE_MS = 5_000;

export interface Watchdog {
  watch: StepWatch;
  stop(): void;
}

export function startWatchdog(
  order: Omit<WatchOrder, 'slots' | 'epoch' | 'graceMs'>,
): Watchdog | null {
  if (!globalThis.crossOriginIsolated || typeof SharedArrayBuffer === 'undefined') return null;
  let worker: Worker;
  try {
    worker = new Worker(new URL('./watchdog-worker.ts', import.meta.url), {
      type: 'module',
      name: 'storebench watchdog',
    });
  } catch {
    return null;
  }
  const slots = new Int32Array(new SharedArrayBuffer(4));
  const epoch = Date.now();
  const full: WatchOrder = { ...order, slots, epoch, graceMs: WATCHDOG_GRACE_MS };
  worker.postMessage(full);
  return { watch: sharedStepWatch(slots, epoch), stop: () => worker.terminate() };
}
