/**
 * Which step of a run is open and by when it must end, written where a watchdog on another thread
 * can read it (a SharedArrayBuffer). A step whose own time limit cannot fire (the thread is blocked
 * in a loop that never yields, so no timer runs) is then seen from outside: the page's watchdog
 * Worker tells the sweep at once, instead of the sweep waiting out its silence limit.
 *
 * Steps open and close where the run takes them: each step of a sample (timed-sample.ts, step)
 * and its other waits on a time limit (watchedTimeout, below). Nothing here runs inside a timed
 * section beyond one Atomics.store as a step opens and closes.
 */
import { withTimeout } from './errors.ts';

/** The deadline slot's value when no step is open. */
export const NO_STEP = 0;

/** What the run tells about the steps it takes. */
export interface StepWatch {
  /** A step opened that must end by `deadline` (ms on the watch's clock); a token to close it with. */
  open(deadline: number): number;
  close(token: number): void;
  /** The watch's clock, in ms: the same on both threads. */
  now(): number;
}

/**
 * A watch over a shared Int32Array: slot 0 holds the earliest deadline of the open steps, in ms
 * from `epoch` (Date.now() when it was made; 2^31 ms is 24 days), or NO_STEP.
 */
export function sharedStepWatch(slots: Int32Array, epoch: number): StepWatch {
  const open = new Map<number, number>();
  let next = 1;
  const publish = () => {
    let earliest = Infinity;
    for (const d of open.values()) earliest = Math.min(earliest, d);
    Atomics.store(slots, 0, Number.isFinite(earliest) ? Math.max(1, Math.ceil(earliest)) : NO_STEP);
  };
  return {
    now: () => Date.now() - epoch,
    open(deadline) {
      const token = next++;
      open.set(token, deadline);
      publish();
      return token;
    },
    close(token) {
      if (open.delete(token)) publish();
    },
  };
}

/** How far past the earliest open deadline the watch reads `now`, in ms, or 0 when no step is late. */
export function overdueMs(slots: Int32Array, now: number): number {
  const deadline = Atomics.load(slots, 0);
  return deadline === NO_STEP ? 0 : Math.max(0, now - deadline);
}

let active: StepWatch | null = null;

/** The watch the run's steps report to while it is under way (runner.ts sets it for the run). */
export function setStepWatch(watch: StepWatch | null): void {
  active = watch;
}

export function stepWatch(): StepWatch | null {
  return active;
}

/**
 * withTimeout, with the wait open on the run's watch while it races: where a run waits on a time
 * limit outside its steps (a footprint, a probe, deleting a database), a thread blocked in that
 * wait is seen from outside too.
 */
export function watchedTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const watch = active;
  if (!watch || !Number.isFinite(ms)) return withTimeout(promise, ms, what);
  const token = watch.open(watch.now() + Math.max(0, ms));
  return withTimeout(promise, ms, what).finally(() => watch.close(token));
}
