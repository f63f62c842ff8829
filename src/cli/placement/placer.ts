/**
 * The page alone on a core of its own (the `core` cure, core/plan/cures.ts): on Linux, every
 * process the sweep started, and the sweep itself, runs on one CPU set, and the page's process
 * (page-process.ts), all its threads, on another (cpu-sets.ts, splitCpus). On two cores most of a
 * sample's scatter is the page's process waiting for a core its own browser's processes hold;
 * apart, it waits for nothing but its own work (docs/method.md, "The page's own core").
 *
 * A poll every POLL_MS places what started since (a new renderer after a crash or for a new tab);
 * the collector also places at once when a page asks for its launch, before it samples. Affinity
 * is set with util-linux's `taskset -a -p`, which sets every thread of a process; threads started
 * later inherit it from the thread that starts them.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Placement } from '../../core/schema/results-schema.ts';
import { allowedCpus, formatCpuList, splitCpus, type CpuSplit } from './cpu-sets.ts';
import { pageEngineOf } from './page-process.ts';
import { descendants, processFacts, threadsOf } from './process-tree.ts';

/** How often the processes are looked at again: a new process waits at most this long for its place. */
const POLL_MS = 500;

const TASKSET = ['/usr/bin/taskset', '/bin/taskset'];

/** What the sweep says, and the files record, when the page cannot have a core of its own. */
export function placementOff(why: string): Placement {
  return { applied: false, why };
}

/** Where the sweep may place processes, or why it may not; `remote`: the browsers run elsewhere or are opened by hand. */
export function placementPlan(
  remote: string | null,
): { split: CpuSplit; taskset: string } | string {
  if (remote !== null) return `the browser is not one the sweep starts here (${remote})`;
  if (process.platform !== 'linux')
    return `processes are placed on Linux only, not on ${process.platform}`;
  const allowed = allowedCpus(`/proc/${process.pid}/status`);
  if (allowed === null) return 'this system has no /proc/<pid>/status to read CPU sets from';
  const split = splitCpus(allowed);
  if (typeof split === 'string') return split;
  const taskset = TASKSET.find((p) => existsSync(p));
  if (taskset === undefined) return 'no taskset (util-linux) to set CPU affinity with';
  return { split, taskset };
}

/** What the placer did for one browser's launches: the processes it placed on each side. */
interface Tally {
  page: Set<number>;
  other: Set<number>;
}

export class CorePlacement {
  private readonly pageList: string;
  private readonly restList: string;
  private readonly ownBefore: string | null;
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | null = null;
  private tally: Tally = { page: new Set(), other: new Set() };
  /** The first failure to place a live process, said once; null while every placement held. */
  failure: string | null = null;

  constructor(
    readonly split: CpuSplit,
    private readonly taskset: string,
    private readonly onFailure: (line: string) => void,
  ) {
    this.pageList = formatCpuList(split.page);
    this.restList = formatCpuList(split.rest);
    const own = allowedCpus(`/proc/${process.pid}/status`);
    this.ownBefore = own === null ? null : formatCpuList(own);
  }

  /** In words, for the sweep's opening lines. */
  describe(): string {
    return `the page's process alone on CPU ${this.pageList}, the browser's other processes, its driver and the sweep on CPU ${this.restList} (--cures none turns it off)`;
  }

  /** Places the sweep itself, then whatever starts under it, from now until stop(). */
  start(): void {
    this.timer = setInterval(() => void this.placeNow(), POLL_MS);
    this.timer.unref();
    void this.placeNow();
  }

  /** A new browser's launches are counted on their own (record). */
  nextBrowser(): void {
    this.tally = { page: new Set(), other: new Set() };
  }

  /** The placement of the browser in flight, as its results file records it. */
  record(): Placement {
    if (this.failure !== null) return placementOff(this.failure);
    return {
      applied: true,
      pageCpus: this.pageList,
      restCpus: this.restList,
      pageProcesses: this.tally.page.size,
      otherProcesses: this.tally.other.size,
    };
  }

  /** One look at every process: each out of its place is moved. Concurrent calls share the look in flight, then take a new one. */
  async placeNow(): Promise<void> {
    while (this.inFlight) await this.inFlight;
    this.inFlight = this.placeAll().finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  /** Stops looking, and gives the sweep back the CPUs it had (it may run on in a test's process). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    while (this.inFlight) await this.inFlight;
    if (this.ownBefore !== null) await this.setAffinity(process.pid, this.ownBefore);
  }

  private async placeAll(): Promise<void> {
    await this.placeOne(process.pid, this.restList, null);
    for (const pid of descendants(process.pid)) {
      const facts = processFacts(pid);
      if (facts === null) continue;
      const page = pageEngineOf(facts) !== null;
      await this.placeOne(pid, page ? this.pageList : this.restList, page);
    }
  }

  /** Moves a process, all its threads, to `cpus` unless every thread is there already. */
  private async placeOne(pid: number, cpus: string, page: boolean | null): Promise<void> {
    const placed = threadsOf(pid).every((tid) => {
      const now = allowedCpus(`/proc/${pid}/task/${tid}/status`);
      return now === null || formatCpuList(now) === cpus;
    });
    if (!placed) await this.setAffinity(pid, cpus);
    if (page !== null) (page ? this.tally.page : this.tally.other).add(pid);
  }

  private setAffinity(pid: number, cpus: string): Promise<void> {
    return new Promise((done) => {
      execFile(this.taskset, ['-a', '-p', '-c', cpus, String(pid)], (error, _out, stderr) => {
        // A process that ended meanwhile has nothing to place.
        if (error && existsSync(`/proc/${pid}`) && this.failure === null) {
          this.failure = `could not set CPU affinity of process ${pid}: ${stderr.trim().split('\n')[0] ?? error.message}`;
          this.onFailure(this.failure);
        }
        done();
      });
    });
  }
}
