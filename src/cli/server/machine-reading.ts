/**
 * The collector's side of the machine record (core/run/machine.ts): the CPU time of every
 * process the sweep started (the browsers, their drivers and their helper processes: this
 * process's descendants), read from Linux's /proc. Where there is no /proc, nothing is read and
 * the page records no machine metrics.
 */
import type { MachineReading } from '../../core/run/machine.ts';
import { descendants, readOr, threadsOf } from '../placement/process-tree.ts';

/** The process list changes only as browsers start and stop; rescanning /proc each reading would cost more than the reading. */
const RESCAN_MS = 1_000;

/** On-CPU and waiting ns of one process, summed over its threads (schedstat: run, wait, slices). */
function processTimes(pid: number): [number, number] {
  let cpu = 0;
  let wait = 0;
  for (const task of threadsOf(pid)) {
    const [run, waited] = (readOr(`/proc/${pid}/task/${task}/schedstat`) ?? '').split(' ');
    cpu += Number(run) || 0;
    wait += Number(waited) || 0;
  }
  return [cpu, wait];
}

/** `some total=` of /proc/pressure/cpu, in µs, or null without pressure stall information. */
function cpuPressureUs(): number | null {
  const some = /^some .*\btotal=(\d+)/m.exec(readOr('/proc/pressure/cpu') ?? '');
  return some ? Number(some[1]) : null;
}

/**
 * Readings of the processes under `root` (this process by default), or null where /proc has no
 * schedstat. A thread that ends between two readings takes its time with it, so a sample's
 * cpuMs can read low when a helper process exits during it; such a sample is rare and shows as
 * a negative figure, which the noise report leaves out.
 */
export function machineReader(root: number = process.pid): (() => MachineReading) | null {
  if (readOr(`/proc/${root}/schedstat`) === null) return null;
  let pids: number[] = [];
  let scannedAt = -Infinity;
  return () => {
    if (performance.now() - scannedAt > RESCAN_MS) {
      pids = descendants(root);
      scannedAt = performance.now();
    }
    let cpuNs = 0;
    let waitNs = 0;
    for (const pid of pids) {
      const [cpu, wait] = processTimes(pid);
      cpuNs += cpu;
      waitNs += wait;
    }
    return { cpuNs, waitNs, psiUs: cpuPressureUs() };
  };
}
