/**
 * The collector's side of the machine record (core/run/machine.ts): the CPU time of every
 * process the sweep started (the browsers, their drivers and their helper processes: this
 * process's descendants), read from Linux's /proc. Where there is no /proc, nothing is read and
 * the page records no machine metrics.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { MachineReading } from '../../core/run/machine.ts';

/** The process list changes only as browsers start and stop; rescanning /proc each reading would cost more than the reading. */
const RESCAN_MS = 1_000;

/** A file's text, or null when it is gone (a thread or process that ended) or unreadable. */
function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The parent of each process on the machine, from /proc/<pid>/stat's fourth field. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readOr(`/proc/${entry}/stat`);
    // The command name (second field) is in parentheses and may hold spaces: read after its end.
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields?.[1]);
    if (Number.isInteger(ppid)) map.set(Number(entry), ppid);
  }
  return map;
}

/** The descendants of `root`, not `root` itself. */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** On-CPU and waiting ns of one process, summed over its threads (schedstat: run, wait, slices). */
function processTimes(pid: number): [number, number] {
  let cpu = 0;
  let wait = 0;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [0, 0];
  }
  for (const task of tasks) {
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
