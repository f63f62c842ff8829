/**
 * The `core` cure as the OS sees it: while a sweep samples, the page's process of each engine
 * runs on CPUs of its own and every other process the sweep started on the rest, as
 * /proc/<pid>/status reports their affinity; each file records where. On one CPU the sweep says
 * in one line that the page shares it, and runs as before.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allowedCpus, formatCpuList, splitCpus } from '../../src/cli/placement/cpu-sets.ts';
import { parseResults } from '../../src/core/results/recompute.ts';
import { descendants, filesIn, REPO_ROOT, startSweep } from './sweep-process.ts';

test.describe.configure({ mode: 'serial' });

const mine = allowedCpus(`/proc/${process.pid}/status`) ?? [];
const split = splitCpus(mine);

interface Seen {
  words: string[];
  comm: string;
  cpus: string;
}

/**
 * A process's command line words (Chromium rewrites its own as one string) and its affinity;
 * null once it has exited: a zombie's command line is empty, and it runs on no CPU.
 */
function seen(pid: number): Seen | null {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (cmdline === '') return null;
    const words = cmdline.split(/[\0 ]+/);
    const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    return { words, comm, cpus: formatCpuList(allowedCpus(`/proc/${pid}/status`) ?? []) };
  } catch {
    return null;
  }
}

/** The page's processes by the engines' own names for them: Chromium's web renderers, Firefox's web content. */
const isPage = (p: { words: string[]; comm: string }) =>
  (p.words.includes('--type=renderer') && !p.words.includes('--top-chrome-webui')) ||
  (p.words.includes('-contentproc') && /Web Co/.test(p.comm));

test('sweep placement - the page runs alone on its CPUs in Chromium and Firefox, as the OS reports', async () => {
  test.skip(
    typeof split === 'string',
    typeof split === 'string' ? `this machine cannot split its CPUs: ${split}` : '',
  );
  if (typeof split === 'string') return;
  test.setTimeout(300_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-placement-'));
  const [pageCpus, restCpus] = [formatCpuList(split.page), formatCpuList(split.rest)];
  try {
    const running = startSweep(
      [
        ...['--browsers', 'chromium,firefox', '--suites', 'insert', '--cases', 'bulk'],
        ...['--adapters', 'idb,memory', '--sizes', '1000', '--iterations', '40'],
        ...['--cures', 'core', '--out', out],
      ],
      280_000,
    );
    // Every process seen while the sweep ran, as last seen: one born in the last poll may not be placed yet.
    const last = new Map<number, Seen & { ppid: number; span: number }>();
    const firstSeen = new Map<number, number>();
    let ended = false;
    void running.done.then(() => (ended = true));
    // From a second after the first browser starts: what ran before (the page's build) the sweep does not place.
    await running.waitForStdout(/starting the browser/, 120_000);
    const from = Date.now() + 1_000;
    while (!ended) {
      await new Promise((ok) => setTimeout(ok, 250));
      if (Date.now() < from) continue;
      for (const { pid, ppid } of descendants(running.child.pid as number)) {
        const p = seen(pid);
        if (p === null) continue;
        if (!firstSeen.has(pid)) firstSeen.set(pid, Date.now());
        last.set(pid, { ...p, ppid, span: Date.now() - (firstSeen.get(pid) as number) });
      }
    }
    // What the sweep started: npm and its shell start the sweep, which gives its own CPUs back as
    // it ends (placer.test.ts), so the processes checked are the sweep's descendants.
    const sweepPid = [...last].find(([, p]) => p.words.includes('bin/storebench.js'))?.[0];
    const under = (pid: number): boolean => {
      const parent = last.get(pid)?.ppid;
      return parent === sweepPid || (parent !== undefined && under(parent));
    };
    const settled = [...last].filter(([pid, p]) => under(pid) && p.span >= 2_000).map(([, p]) => p);
    for (const engine of [/chromium/, /firefox/]) {
      const pages = settled.filter((p) => isPage(p) && engine.test(p.words[0] ?? ''));
      expect(pages.length, `no page process of ${engine.source}`).toBeGreaterThan(0);
      for (const p of pages) expect(p.cpus, `page ${p.comm} ${p.words[0]}`).toBe(pageCpus);
    }
    const others = settled.filter((q) => !isPage(q));
    expect(others.length).toBeGreaterThan(0);
    for (const p of others)
      expect(p.cpus, `${p.comm} ${p.words.slice(0, 2).join(' ')}`).toBe(restCpus);
    const run = await running.done;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain(`placement: the page's process alone on CPU ${pageCpus}`);
    for (const browser of ['chromium', 'firefox']) {
      const name = filesIn(out).find((f) => f.endsWith(`-${browser}.json`)) ?? '';
      const doc = parseResults(readFileSync(join(out, name), 'utf8'), name);
      expect(doc.environment.placement, name).toMatchObject({ applied: true, pageCpus, restCpus });
      const placed = doc.environment.placement?.applied ? doc.environment.placement : null;
      expect(placed?.pageProcesses, name).toBeGreaterThan(0);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep placement - on one CPU the sweep says in one line that the page shares it, and runs', () => {
  test.setTimeout(180_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-placement-'));
  try {
    const run = spawnSync(
      'taskset',
      [
        ...['-c', String(mine[0] ?? 0), 'npm', 'run', '--silent', 'sweep', '--'],
        ...['--browsers', 'chromium', '--suites', 'insert', '--cases', 'bulk'],
        ...['--adapters', 'memory', '--iterations', '2', '--cures', 'core', '--out', out],
      ],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 170_000, env: { ...process.env, CI: '1' } },
    );
    expect(run.status, run.stdout + run.stderr).toBe(0);
    const said = run.stdout.split('\n').filter((l) => l.includes('placement:'));
    expect(said).toEqual([
      '  placement: off, the page shares the CPUs: the sweep may run on one CPU only, so the page cannot have one of its own',
    ]);
    const name = filesIn(out).find((f) => f.endsWith('-chromium.json')) ?? '';
    const doc = parseResults(readFileSync(join(out, name), 'utf8'), name);
    expect(doc.environment.placement).toEqual({
      applied: false,
      why: 'the sweep may run on one CPU only, so the page cannot have one of its own',
    });
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
