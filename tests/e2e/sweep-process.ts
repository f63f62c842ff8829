/**
 * The sweep as a user runs it, for the sweep*.spec.ts tests: `npm run sweep -- ...` in a child
 * process from the repository root, plus what the tests need to watch it: its output as it
 * comes, its process tree, and its files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface SweepRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningSweep {
  child: ChildProcess;
  /** Output so far. */
  readonly stdout: string;
  readonly stderr: string;
  done: Promise<SweepRun>;
  /** Resolves with the first match of `re` in stdout, or rejects when the sweep ends first. */
  waitForStdout(re: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
}

/**
 * Start a sweep. It runs in a process group of its own, so a test can send the group a signal
 * the way a terminal sends Ctrl-C, and kill what is left of it if the test fails.
 */
export function startSweep(
  args: readonly string[],
  timeoutMs: number,
  script = 'sweep',
  env: NodeJS.ProcessEnv = {},
): RunningSweep {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CI: '1', ...env },
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString();
    for (const w of [...waiters]) w();
  });
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const timer = setTimeout(() => signalGroup(child, 'SIGTERM'), timeoutMs);
  const done = new Promise<SweepRun>((ok, fail) => {
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      for (const w of [...waiters]) w();
      ok({ code, signal, stdout, stderr });
    });
  });
  let ended = false;
  void done.then(() => (ended = true));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    done,
    waitForStdout(re, ms) {
      return new Promise((ok, fail) => {
        const check = () => {
          const m = re.exec(stdout);
          if (m) return finish(() => ok(m));
          if (ended || child.exitCode !== null)
            finish(() =>
              fail(new Error(`the sweep ended before printing ${re}:\n${stdout}\n${stderr}`)),
            );
        };
        const t = setTimeout(
          () => finish(() => fail(new Error(`no ${re} within ${ms} ms:\n${stdout}\n${stderr}`))),
          ms,
        );
        const finish = (then: () => void) => {
          clearTimeout(t);
          const i = waiters.indexOf(check);
          if (i !== -1) waiters.splice(i, 1);
          then();
        };
        waiters.push(check);
        check();
      });
    },
  };
}

export async function sweep(
  args: readonly string[],
  timeoutMs: number,
  env: NodeJS.ProcessEnv = {},
): Promise<SweepRun> {
  return startSweep(args, timeoutMs, 'sweep', env).done;
}

export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    /* already gone */
  }
}

/** A process as /proc shows it. */
export interface ProcInfo {
  pid: number;
  ppid: number;
  pgid: number;
  comm: string;
}

function readProc(pid: number): ProcInfo | null {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const [state, ppid, pgid] = stat.slice(close + 2).split(' ');
    if (state === 'Z') return null; // exited, waiting to be reaped: not running
    return { pid, ppid: Number(ppid), pgid: Number(pgid), comm };
  } catch {
    return null;
  }
}

/** Every process below `root` (the sweep's npm), found through parent ids. */
export function descendants(root: number): ProcInfo[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is ProcInfo => p !== null);
  const out: ProcInfo[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const p of all) {
      if (p.ppid === parent) {
        out.push(p);
        queue.push(p.pid);
      }
    }
  }
  return out;
}

export function alive(pid: number): boolean {
  return readProc(pid) !== null;
}

/** Poll until `check` returns a value, or fail after `ms`. */
export async function waitFor<T>(
  what: string,
  ms: number,
  check: () => T | null | undefined | false,
): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

export function filesIn(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

/** A port free on loopback now, for a server a test starts (a driver, a grid). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port')),
      );
    });
  });
}
