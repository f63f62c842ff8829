/**
 * `window.__storebenchTimedWindows`: the spans in which this page may be timing a sample, for
 * end-to-end tests and bench:overhead to set against what else ran. A span opens when the
 * runner's betweenSamples hook returns and closes at the runner's next event or next hook call,
 * which the runner makes only outside a timed section (runner.ts): so each span holds the
 * sample's setup, timed runs, verify and teardown, and every timed section lies inside one.
 *
 * Wall-clock ms (timeOrigin + now()), so that they compare with a server's own clock.
 */

export interface TimedWindow {
  /** Wall-clock ms when the span opened and closed. */
  start: number;
  end: number;
  /** What closed it: the runner event's type, and the adapter for a sample. */
  closedBy: string;
}

declare global {
  interface Window {
    __storebenchTimedWindows?: TimedWindow[];
  }
}

/** Spans kept at most, the newest last: a day-long run must not grow the page's heap without end. */
const MAX_WINDOWS = 100_000;

const wallClock = (): number => performance.timeOrigin + performance.now();

export class TimedWindows {
  readonly spans: TimedWindow[] = [];
  private openedAt: number | null = null;

  constructor() {
    window.__storebenchTimedWindows = this.spans;
  }

  /** A sample may start now. */
  open(): void {
    this.openedAt = wallClock();
  }

  /** Nothing is timed from here on until the next open(). */
  close(closedBy: string): void {
    if (this.openedAt === null) return;
    if (this.spans.length >= MAX_WINDOWS) this.spans.shift();
    this.spans.push({ start: this.openedAt, end: wallClock(), closedBy });
    this.openedAt = null;
  }
}
