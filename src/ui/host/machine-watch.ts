/**
 * The page's side of the machine record (core/run/machine.ts): around each timed run, a reading
 * of the browser's processes from the sweep's collector and the engine's garbage-collection
 * count, their difference kept as the sample's metrics. Each reading is a request to the
 * collector, answered before the sample's clock starts and after it stops.
 */
import {
  MACHINE_METRICS,
  machineDelta,
  type MachineReading,
  type SampleWatch,
} from '../../core/run/machine.ts';

interface MozGc {
  minorGCCount: number;
  sliceCount: number;
}

type Perf = Performance & {
  mozMemory?: { gc?: MozGc };
  memory?: { usedJSHeapSize?: number };
};

/**
 * How the engine's collections are counted here, or null where nothing tells. Firefox counts
 * them (with dom.enable_memory_stats); Chromium only shows its heap, so a heap that shrank across
 * the sample stands for "at least one collection".
 */
function gcCounter(): { read(): number; counted(before: number, after: number): number } | null {
  const perf = performance as Perf;
  if (typeof perf.mozMemory?.gc?.minorGCCount === 'number')
    return {
      read: () => {
        const gc = (performance as Perf).mozMemory?.gc;
        return gc ? gc.minorGCCount + gc.sliceCount : NaN;
      },
      counted: (before, after) => after - before,
    };
  if (typeof perf.memory?.usedJSHeapSize === 'number')
    return {
      read: () => (performance as Perf).memory?.usedJSHeapSize ?? NaN,
      counted: (before, after) => (after < before ? 1 : 0),
    };
  return null;
}

export interface MachineWatch extends SampleWatch {
  /** What its metrics mean, for environment.metricNotes. */
  notes(): Record<string, string>;
}

export function createMachineWatch(read: () => Promise<MachineReading | null>): MachineWatch {
  const gc = gcCounter();
  let before: MachineReading | null = null;
  let gcBefore = NaN;
  return {
    async before() {
      before = await read();
      gcBefore = gc ? gc.read() : NaN;
    },
    async after() {
      // An engine that cannot count its collections records no `gcs` at all.
      const gcs: Record<string, number> = gc ? { gcs: gc.counted(gcBefore, gc.read()) } : {};
      return { ...machineDelta(before, await read()), ...gcs };
    },
    notes: () =>
      gc
        ? { ...MACHINE_METRICS }
        : { ...MACHINE_METRICS, gcs: 'not recorded: this engine does not tell' },
  };
}
