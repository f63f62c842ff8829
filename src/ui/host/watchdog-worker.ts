/**
 * The watchdog Worker: it watches the page's run from another thread (core/base/step-watch.ts). When a
 * step is past its deadline by more than the grace, the page's thread is blocked (its own time
 * limit would have fired otherwise), and this Worker tells the sweep's collector: once, and
 * nothing at all while steps end in time, so no request of the harness is in flight beside a sample.
 */
import { overdueMs } from '../../core/base/step-watch.ts';
import type { CollectorMessage } from '../../core/run/collector.ts';

export interface WatchOrder {
  slots: Int32Array;
  epoch: number;
  /** How late a step may be before the thread counts as blocked: timers run late on a loaded machine. */
  graceMs: number;
  /** The collector's URL with the run token, and what the message says of the page. */
  endpoint: string;
  hung: Omit<Extract<CollectorMessage, { type: 'hung' }>, 'overdueMs'>;
}

/** How often the watchdog looks: a blocked thread is reported within the grace and this. */
const LOOK_EVERY_MS = 500;

const scope = self as unknown as {
  addEventListener(type: 'message', listener: (e: MessageEvent<WatchOrder>) => void): void;
};

scope.addEventListener('message', (e) => {
  const order = e.data;
  const timer = setInterval(() => {
    const late = overdueMs(order.slots, Date.now() - order.epoch);
    if (late <= order.graceMs) return;
    clearInterval(timer);
    const message: CollectorMessage = { ...order.hung, overdueMs: late };
    void fetch(order.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
    }).catch(() => {});
  }, LOOK_EVERY_MS);
});
