/**
 * How long the page's main thread was blocked while a case ran: long tasks (PerformanceObserver
 * 'longtask', Chromium only) and the largest gap between animation frames. A store that freezes
 * the page for 300 ms shows a 300 ms frame gap, however fast its average operation.
 *
 * The runner calls start() just before the case's run in its measurement pass and stop() just
 * after (see PassProbe in src/core/run/runner.ts), never around a timed sample. Meanwhile the probe
 * asks for every animation frame, so the page renders about 60 times a second: about 3 to 6% of
 * a core in headless Chromium here, which would slow a 10,000-document put by 1 to 3% in every
 * sample it ran in. The long-task observer's records arrive after each task and are collected in
 * stop().
 */
import type { PassProbe } from '../../core/run/runner.ts';
import { yieldToEventLoop } from './yield.ts';

/** The metrics this probe records, and what each means, for environment.metricNotes. */
const BLOCKING_METRICS = {
  maxFrameGapMs:
    'largest gap between animation frames while the case ran once more, untimed, after its samples, in ms (requestAnimationFrame): about 16.7 at 60 Hz when the page never froze; the time the page could not paint or answer input',
  longTasks:
    "main-thread tasks of 50 ms or more that overlapped that run (PerformanceObserver 'longtask')",
  longTaskMs: 'total ms of those long tasks that fell inside that run',
} as const;

export interface BlockingProbe extends PassProbe {
  /** Notes for the metrics it records, and why it cannot record the others here. */
  notes(): Record<string, string>;
}

export function createBlockingProbe(where: 'main' | 'worker' = 'main'): BlockingProbe {
  const longTaskSupported =
    typeof PerformanceObserver !== 'undefined' &&
    (PerformanceObserver.supportedEntryTypes ?? []).includes('longtask');
  const rafSupported = typeof requestAnimationFrame === 'function';
  let observer: PerformanceObserver | undefined;
  let entries: PerformanceEntry[] = [];
  let frame = 0;
  let startedAt = 0;
  let lastFrame = 0;
  let maxGap = 0;
  let framesSeen = true;

  const onFrame = () => {
    const t = performance.now();
    if (t - lastFrame > maxGap) maxGap = t - lastFrame;
    lastFrame = t;
    frame = requestAnimationFrame(onFrame);
  };

  return {
    async start() {
      // The run then starts in a task of its own, so a long task never mixes the case's setup
      // (e.g. building 10,000 documents) with the operation.
      await yieldToEventLoop();
      entries = [];
      maxGap = 0;
      // A hidden page gets no animation frames at all; its gaps would measure the tab, not the store.
      framesSeen = rafSupported && document.visibilityState === 'visible';
      if (longTaskSupported) {
        observer ??= new PerformanceObserver((list) => entries.push(...list.getEntries()));
        observer.observe({ type: 'longtask', buffered: false });
      }
      startedAt = lastFrame = performance.now();
      if (framesSeen) frame = requestAnimationFrame(onFrame);
    },
    async stop() {
      const end = performance.now();
      if (framesSeen) cancelAnimationFrame(frame);
      const metrics: Record<string, number> = {};
      if (framesSeen && document.visibilityState === 'visible')
        metrics.maxFrameGapMs = round(Math.max(maxGap, end - lastFrame));
      if (observer) {
        // stop() runs in a microtask of the run's last task; that task's long-task entry
        // exists only once the task has ended, so let it end before taking the records.
        await yieldToEventLoop();
        entries.push(...observer.takeRecords());
        observer.disconnect();
        const { count, ms } = longTasksWithin(entries, startedAt, end);
        metrics.longTasks = count;
        metrics.longTaskMs = round(ms);
      }
      return metrics;
    },
    notes: () => blockingNotes(where, rafSupported, longTaskSupported),
  };
}

/** The long tasks that overlapped [from, to], and how many ms of them fell inside it. */
function longTasksWithin(
  entries: readonly PerformanceEntry[],
  from: number,
  to: number,
): { count: number; ms: number } {
  let count = 0;
  let ms = 0;
  for (const e of entries) {
    const start = Math.max(e.startTime, from);
    const end = Math.min(e.startTime + e.duration, to);
    if (end <= start) continue;
    count++;
    ms += end - start;
  }
  return { count, ms };
}

/** What each metric means here, or why this browser cannot record it. */
function blockingNotes(
  where: 'main' | 'worker',
  rafSupported: boolean,
  longTaskSupported: boolean,
): Record<string, string> {
  const notes: Record<string, string> = {};
  const side =
    where === 'worker' ? " Measured on the page's main thread while the plan ran in a Worker." : '';
  notes.maxFrameGapMs = rafSupported
    ? `${BLOCKING_METRICS.maxFrameGapMs}.${side} Left out while the page is hidden (no frames).`
    : 'not recorded: no requestAnimationFrame here';
  if (longTaskSupported) {
    notes.longTasks = `${BLOCKING_METRICS.longTasks}.${side}`;
    notes.longTaskMs = `${BLOCKING_METRICS.longTaskMs}.${side}`;
  } else
    notes.longTasks =
      "not recorded: this browser has no 'longtask' performance entries (Chromium has them)";
  return notes;
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
