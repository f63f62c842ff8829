/**
 * What a store keeps after the insert suite's cases: the bytes it stored, from
 * navigator.storage.estimate(), and the page's JS heap, from
 * performance.measureUserAgentSpecificMemory(). Measured in the runner's measurement pass, an
 * untimed extra run of the case after its timed samples: after `run` and `verify`, before
 * `teardown` and the database's deletion (see FootprintProbe in src/core/run/runner.ts).
 * No DOM: the same module serves the page's main thread and its Worker.
 */
import type { FootprintProbe } from '../../core/run/runner.ts';
import { withTimeout } from '../../core/base/errors.ts';

const FOOTPRINT_NOTES = {
  storageBytes:
    'navigator.storage.estimate() usage after an extra, untimed run of the case minus before it opened its database, in bytes. Coarse: browsers round and pad the estimate, count journals and write-ahead logs, may update it late, and reclaim deleted databases in the background, so small or negative deltas are noise; compare orders of magnitude',
  heapBytes:
    "performance.measureUserAgentSpecificMemory().bytes after an extra, untimed run of the case, in bytes: the whole page's JS memory (Workers included) after a garbage collection, including the documents the case still holds; compare stores within one case and size",
} as const;

/** The measurement is only worth its cost after a store has been written to. */
export const footprintAppliesTo = (suite: string): boolean => suite === 'insert';

type MeasureMemory = () => Promise<{ bytes: number }>;

function memoryApi(): MeasureMemory | undefined {
  const perf = globalThis.performance as Performance & {
    measureUserAgentSpecificMemory?: MeasureMemory;
  };
  return globalThis.crossOriginIsolated === true &&
    typeof perf?.measureUserAgentSpecificMemory === 'function'
    ? () => perf.measureUserAgentSpecificMemory!()
    : undefined;
}

/** How quickly a first measurement must come back for the heap to be measured per sample. */
const EAGER_MS = 2_000;
/** Chromium forces the collection a pending measurement waits for within about 20 s. */
const PENDING_MAX_MS = 25_000;

export interface HeapSupport {
  measure: MeasureMemory | null;
  /** Why it is not measured, when it is not. */
  why: string | null;
}

/**
 * Whether the heap can be measured per sample. Chromium answers measureUserAgentSpecificMemory()
 * only at its next garbage collection, 10 to 20 s away, unless started with
 * --enable-blink-features=ForceEagerMeasureMemory (the sweep and the end-to-end tests start it
 * so); then it takes a few ms. One trial call tells which. When it is slow, this resolves only
 * once the trial has completed: the garbage collection it forces must not land in a timed sample.
 */
export async function detectHeapSupport(): Promise<HeapSupport> {
  const measure = memoryApi();
  if (!measure) {
    return {
      measure: null,
      why:
        globalThis.crossOriginIsolated !== true
          ? 'not recorded: the page is not cross-origin isolated'
          : 'not recorded: this browser has no performance.measureUserAgentSpecificMemory() (Chromium has it)',
    };
  }
  const trial = measure().then(
    () => true,
    () => false,
  );
  try {
    if (await withTimeout(trial, EAGER_MS, 'a trial heap measurement'))
      return { measure, why: null };
    return { measure: null, why: 'not recorded: measureUserAgentSpecificMemory() failed here' };
  } catch {
    await withTimeout(trial, PENDING_MAX_MS, 'the pending heap measurement').catch(() => {});
    return {
      measure: null,
      why: `not recorded: measureUserAgentSpecificMemory() answers only at the next garbage collection here (over ${EAGER_MS / 1000} s), too slow to take per sample; start Chromium with --enable-blink-features=ForceEagerMeasureMemory to record it`,
    };
  }
}

/** navigator.storage.estimate() usage, or undefined where there is none (WebKitGTK has no navigator.storage). */
async function storageUsage(): Promise<number | undefined> {
  const storage = (globalThis.navigator as Navigator | undefined)?.storage;
  if (!storage?.estimate) return undefined;
  const est = await storage.estimate();
  return typeof est.usage === 'number' ? est.usage : undefined;
}

export interface Footprint extends FootprintProbe {
  notes(): Record<string, string>;
}

export function createFootprint(heap: MeasureMemory | null, heapWhy: string | null): Footprint {
  const hasStorage =
    typeof (globalThis.navigator as Navigator | undefined)?.storage?.estimate === 'function';
  let before: number | undefined;
  return {
    appliesTo: footprintAppliesTo,
    async before() {
      before = await storageUsage();
    },
    async after() {
      const metrics: Record<string, number> = {};
      const usage = await storageUsage();
      if (usage !== undefined && before !== undefined) metrics.storageBytes = usage - before;
      if (heap) metrics.heapBytes = (await heap()).bytes;
      return metrics;
    },
    notes() {
      return {
        storageBytes: hasStorage
          ? FOOTPRINT_NOTES.storageBytes
          : 'not recorded: no navigator.storage.estimate() in this browser',
        heapBytes: heap ? FOOTPRINT_NOTES.heapBytes : (heapWhy ?? 'not recorded'),
      };
    },
  };
}
