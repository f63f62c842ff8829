/**
 * The processes the sweep started, read from Linux's /proc: each one's parent, name and command
 * line, and its threads. Shared by the machine record (server/machine-reading.ts) and the page's
 * placement on a core of its own (placement/placer.ts). Where there is no /proc, nothing is found.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A file's text, or null when it is gone (a thread or process that ended) or unreadable. */
export function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** The parent of each process on the machine, from /proc/<pid>/stat's fourth field. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return map;
  }
  for (const entry of entries) {
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
export function descendants(root: number): number[] {
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

/** What a process is: its name (`comm`, at most 15 characters) and its command line. */
export interface ProcessFacts {
  pid: number;
  comm: string;
  /** The command line's words. Chromium rewrites its own as one space-separated string, so this splits at spaces too. */
  words: string[];
}

/** A process's name and command line; null once it has ended. */
export function processFacts(pid: number): ProcessFacts | null {
  const comm = readOr(`/proc/${pid}/comm`);
  const cmdline = readOr(`/proc/${pid}/cmdline`);
  if (comm === null || cmdline === null) return null;
  return { pid, comm: comm.trim(), words: cmdline.split(/[\0 ]+/).filter((a) => a !== '') };
}

/** The ids of a process's threads; none once it has ended. */
export function threadsOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map(Number).filter(Number.isInteger);
  } catch {
    return [];
  }
}
