/**
 * CPU sets as Linux writes them (`0-3,6`), the CPUs a process may run on, and the rule that
 * splits them between the page's process and everything else the sweep started
 * (docs/method.md, "The page's own core").
 */
import { readFileSync } from 'node:fs';

/** `0-2,5` → [0, 1, 2, 5]; null for text that is not a CPU list. */
export function parseCpuList(text: string): number[] | null {
  const cpus = new Set<number>();
  for (const part of text.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from || to - from > 4096) return null;
    for (let c = from; c <= to; c++) cpus.add(c);
  }
  return [...cpus].sort((a, b) => a - b);
}

/** [0, 1, 2, 5] → `0-2,5`: the form taskset and /proc take and print. */
export function formatCpuList(cpus: readonly number[]): string {
  const sorted = [...new Set(cpus)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) === (sorted[j] as number) + 1) j++;
    runs.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return runs.join(',');
}

/**
 * The CPUs a task may run on, from `Cpus_allowed_list` in /proc/<pid>/status (or
 * /proc/<pid>/task/<tid>/status for one thread); null where there is no such file.
 */
export function allowedCpus(statusPath: string): number[] | null {
  let text: string;
  try {
    text = readFileSync(statusPath, 'utf8');
  } catch {
    return null;
  }
  const line = /^Cpus_allowed_list:\s*(\S+)/m.exec(text);
  return line ? parseCpuList(line[1] as string) : null;
}

export interface CpuSplit {
  /** Where the page's process runs: the upper half of the CPUs, at least one. */
  page: number[];
  /** Where everything else the sweep started runs: the rest. */
  rest: number[];
}

/**
 * The page gets the upper half of the CPUs the sweep may use (at least one), everything else the
 * lower half: the page's process and the browser's own (where IndexedDB, the network and the
 * driver's commands run) are each busy during a sample, so neither gets the machine's leftovers;
 * and Linux takes most interrupts on CPU 0, so the page stays off it. On two CPUs: the page on
 * CPU 1, the rest on CPU 0. A string says why there is nothing to split.
 */
export function splitCpus(allowed: readonly number[]): CpuSplit | string {
  const cpus = [...new Set(allowed)].sort((a, b) => a - b);
  if (cpus.length < 2)
    return `the sweep may run on ${cpus.length === 1 ? 'one CPU only' : 'no CPU it can name'}, so the page cannot have one of its own`;
  const pageCount = Math.floor(cpus.length / 2);
  return {
    page: cpus.slice(cpus.length - pageCount),
    rest: cpus.slice(0, cpus.length - pageCount),
  };
}
