/**
 * What the machine did during each timed sample, recorded beside it as per-sample metrics when
 * a sweep runs with --record-machine: the CPU time the browser's processes spent on a CPU and
 * waiting for one, the machine's CPU pressure, and the garbage collections the page's engine
 * counts. The noise report (cli/scripts/noise-report.ts) sets these against the samples' scatter
 * within each pass, to say where the noise comes from. The page asks the sweep's collector for a
 * reading just before a sample's timed run and just after it, outside its clock.
 */

/** One reading of the browser's process tree, as the collector takes it (Linux: /proc). */
export interface MachineReading {
  /** Time the browser's threads spent on a CPU, summed, in ns (schedstat's first field). */
  cpuNs: number;
  /** Time its threads spent runnable but waiting for a CPU, summed, in ns (schedstat's second). */
  waitNs: number;
  /** The machine's `some` CPU pressure total (/proc/pressure/cpu), in µs; null without PSI. */
  psiUs: number | null;
}

/** Asked around each timed run, outside its clock; never throws (a failed reading is NaN). */
export interface SampleWatch {
  before(): Promise<void>;
  /** The sample's machine metrics, by MACHINE_METRICS name. */
  after(): Promise<Record<string, number>>;
}

/** The metrics a sample's machine record holds, and what each means, for environment.metricNotes. */
export const MACHINE_METRICS = {
  cpuMs:
    "CPU time of the browser's whole process tree during the sample, ms, summed over its threads (/proc/<pid>/task/*/schedstat); includes the two readings' own requests, a fraction of a ms",
  waitMs:
    "time the browser's threads were runnable but waiting for a CPU during the sample, ms, summed over its threads (schedstat): what the scheduler took from it",
  psiMs:
    'ms of the sample in which some task on the machine waited for a CPU (/proc/pressure/cpu, some): the machine’s load, whoever caused it',
  gcs: 'garbage collections the page’s engine counted during the sample: Firefox, minor collections plus major slices (performance.mozMemory.gc, pref dom.enable_memory_stats); Chromium, 1 when the JS heap shrank across the sample, else 0 (performance.memory with --enable-precise-memory-info), so a lower bound',
} as const;

export type MachineMetric = keyof typeof MACHINE_METRICS;

/** The sample's share of two readings, in ms; NaN where either reading lacks the figure. */
export function machineDelta(
  before: MachineReading | null,
  after: MachineReading | null,
): Record<Exclude<MachineMetric, 'gcs'>, number> {
  if (!before || !after) return { cpuMs: NaN, waitMs: NaN, psiMs: NaN };
  return {
    cpuMs: (after.cpuNs - before.cpuNs) / 1e6,
    waitMs: (after.waitNs - before.waitNs) / 1e6,
    psiMs: after.psiUs === null || before.psiUs === null ? NaN : (after.psiUs - before.psiUs) / 1e3,
  };
}

/** A reading from JSON the collector sent, or null when it is not one. */
export function asMachineReading(value: unknown): MachineReading | null {
  if (typeof value !== 'object' || value === null) return null;
  const { cpuNs, waitNs, psiUs } = value as Record<string, unknown>;
  if (typeof cpuNs !== 'number' || typeof waitNs !== 'number') return null;
  return { cpuNs, waitNs, psiUs: typeof psiUs === 'number' ? psiUs : null };
}
