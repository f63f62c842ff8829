/**
 * A sweep that goes wrong: a browser dies mid-run, or the user presses Ctrl-C. The other
 * browsers' results and the finished rows stay on disk, the exit code says it failed, and no
 * driver process outlives the sweep. The test finds the browser through the sweep's own
 * process tree and kills only that.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARTIAL_SCHEMA, type PartialFile } from '../../src/cli/output.ts';
import { parseResults } from '../../src/core/results.ts';
import { alive, descendants, filesIn, signalGroup, startSweep, waitFor } from './sweep-process.ts';

test.describe.configure({ mode: 'serial' });

/**
 * Long enough in any engine that the browser is still busy after its first row, short enough
 * for a whole run in the next: memory rows at 50 finish at once, the 5,000-document ones take a while.
 */
const PLAN = ['--suites', 'insert', '--adapters', 'memory', '--sizes', '50,5000', '--iterations', '15', '--warmup', '0', '--params', 'chunkSizes=10'];

test('sweep crash - chromium killed mid-run is reported, its rows are kept, and firefox still runs', async () => {
  test.setTimeout(400_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-crash-'));
  const browserFolders = () => readdirSync(tmpdir()).filter((n) => n.startsWith('org.chromium.Chromium.') || n.startsWith('storebench-browser-'));
  const before = new Set(browserFolders());
  const sweep = startSweep(['--browsers', 'chromium,firefox', ...PLAN, '--out', out], 380_000);
  try {
    // Once chromium has finished a row, kill its browser process: the one whose parent is not itself chromium.
    const partial = await waitFor('a partial file from chromium', 240_000, () => filesIn(out).find((f) => f.endsWith('-chromium.partial.json')));
    const browserPid = await waitFor('the chromium process under the sweep', 10_000, () => {
      const tree = descendants(sweep.child.pid as number);
      return tree.find((p) => p.comm === 'chromium' && tree.find((q) => q.pid === p.ppid)?.comm !== 'chromium')?.pid;
    });
    process.kill(browserPid, 'SIGKILL');

    const run = await sweep.done;
    const log = `${run.stdout}\n${run.stderr}`;
    expect(run.code, log).toBe(1);
    expect(run.stdout).toMatch(/chromium\s+FAILED after \S+ \(crashed, [1-9]\d* rows? kept\): Chromium closed or crashed before the run finished/);
    expect(run.stdout).toMatch(/firefox\s+done in /);
    expect(run.stdout).toContain('FAILED: chromium did not complete.');

    const runId = partial.slice(0, -'-chromium.partial.json'.length);
    const files = filesIn(out);
    expect(files).toEqual([`${runId}-chromium.partial.json`, `${runId}-firefox.json`, `${runId}.csv`].sort());
    const kept = JSON.parse(readFileSync(join(out, partial), 'utf8')) as PartialFile;
    expect(kept.schema).toBe(PARTIAL_SCHEMA);
    expect(kept.cases.length).toBeGreaterThan(0);
    expect(kept.cases.every((c) => c.status === 'ok')).toBe(true);
    const firefox = parseResults(readFileSync(join(out, `${runId}-firefox.json`), 'utf8'), 'firefox');
    expect(firefox.environment.browser.engine).toBe('Gecko');
    expect(firefox.cases.filter((c) => c.status !== 'ok')).toEqual([]);
    // The table keeps chromium's finished rows next to firefox's.
    expect(run.stdout).toMatch(/suite\s+case\s+adapter\s+size\s+chromium\s+firefox/);
    // The killed browser could not remove its temporary folders; the sweep removed them for it.
    expect(browserFolders().filter((n) => !before.has(n))).toEqual([]);
  } finally {
    signalGroup(sweep.child, 'SIGKILL');
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep crash - Ctrl-C stops the sweep, keeps the rows, and leaves no WebKitWebDriver, Xvfb or MiniBrowser behind', async () => {
  test.setTimeout(300_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-ctrl-c-'));
  const sweep = startSweep(['--browsers', 'webkit', ...PLAN, '--out', out], 280_000);
  try {
    await waitFor('a partial file from webkit', 240_000, () => filesIn(out).find((f) => f.endsWith('-webkit.partial.json')));
    // The driver runs in a process group of its own (xvfb-run, Xvfb, WebKitWebDriver, MiniBrowser and its helpers).
    const tree = descendants(sweep.child.pid as number);
    const leader = tree.find((p) => p.comm === 'xvfb-run' || p.comm === 'WebKitWebDriver');
    expect(leader, tree.map((p) => p.comm).join(', ')).toBeDefined();
    const group = tree.filter((p) => p.pgid === leader?.pgid);
    expect(group.map((p) => p.comm)).toEqual(expect.arrayContaining(['WebKitWebDriver', 'MiniBrowser']));

    // What a terminal does on Ctrl-C: SIGINT to the sweep's whole foreground process group.
    signalGroup(sweep.child, 'SIGINT');
    const run = await sweep.done;
    expect(run.code, `${run.stdout}\n${run.stderr}`).not.toBe(0);
    expect(run.stdout).toMatch(/webkit\s+FAILED after \S+ \(cancelled, [1-9]\d* rows? kept\)/);
    expect(run.stdout).toMatch(/FAILED: cancelled; webkit did not complete\./);
    expect(filesIn(out).filter((f) => f.endsWith('-webkit.partial.json'))).toHaveLength(1);

    // Nothing of the driver's group is left (pgrep exits 1 when no process matches).
    const pgrep = spawnSync('pgrep', ['-g', String(leader?.pgid)], { encoding: 'utf8' });
    expect(pgrep.stdout.trim(), 'processes left in the driver group').toBe('');
    expect(pgrep.status).toBe(1);
    for (const p of group) expect(alive(p.pid), `${p.comm} (${p.pid})`).toBe(false);
  } finally {
    signalGroup(sweep.child, 'SIGKILL');
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep crash - Ctrl-C in a later launch keeps the samples the launches before it carried', async () => {
  test.setTimeout(240_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-ctrl-c-launch-'));
  const plan = ['--suites', 'read', '--cases', 'get-batch', '--adapters', 'memory,idb', '--sizes', '100', '--budget', '45s', '--launches', '3'];
  const sweep = startSweep(['--browsers', 'chromium', ...plan, '--out', out], 220_000);
  const carried = () => {
    const name = filesIn(out).find((f) => f.endsWith('-chromium.partial.json'));
    const kept = name ? (JSON.parse(readFileSync(join(out, name), 'utf8')) as PartialFile) : null;
    return kept && kept.cases.length === 2 ? kept : undefined;
  };
  try {
    // After the first launch the partial file holds the rows it carries; Ctrl-C in the second.
    const afterFirst = await waitFor('the rows the first launch carried', 150_000, carried);
    signalGroup(sweep.child, 'SIGINT');
    const run = await sweep.done;
    expect(run.code, `${run.stdout}\n${run.stderr}`).not.toBe(0);
    expect(run.stdout).toMatch(/chromium\s+FAILED after \S+ \(cancelled, 2 rows kept\)/);
    const kept = carried()!;
    for (const row of kept.cases) {
      if (row.status !== 'ok') throw new Error(`${row.adapter}: ${row.status}`);
      // At least the first launch's minimum, stopped by the cancel, with statistics over them.
      expect(row.samples.length).toBeGreaterThanOrEqual(6);
      expect(row.stopped).toBe('cancelled');
      expect(row.stats.n).toBe(row.samples.length);
      expect(row.samples.slice(0, afterFirst.cases.find((c) => c.adapter === row.adapter)!.samples.length)).toEqual(afterFirst.cases.find((c) => c.adapter === row.adapter)!.samples);
    }
  } finally {
    signalGroup(sweep.child, 'SIGKILL');
    rmSync(out, { recursive: true, force: true });
  }
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`sweep crash - ${signal} to the npm process alone (kill -${signal.slice(3)} <npm pid>) stops the sweep, keeps its rows and leaves no process behind`, async () => {
    test.setTimeout(240_000);
    const out = mkdtempSync(join(tmpdir(), 'storebench-npm-signal-'));
    // npm signals only its own child; the script must be that child (exec), not a shell around it.
    const sweep = startSweep(['--browsers', 'chromium', ...PLAN, '--out', out], 220_000);
    try {
      await waitFor('a partial file from chromium', 180_000, () => filesIn(out).find((f) => f.endsWith('-chromium.partial.json')));
      const tree = descendants(sweep.child.pid as number);
      expect(tree.map((p) => p.comm)).toEqual(expect.arrayContaining(['node', 'chromium']));
      process.kill(sweep.child.pid as number, signal);
      const run = await sweep.done;
      expect(run.code === 0, `${run.stdout}\n${run.stderr}`).toBe(false);
      // Every process the sweep started is gone, browser included.
      await waitFor('the sweep and its browser to exit', 30_000, () => tree.every((p) => !alive(p.pid)));
      const partial = filesIn(out).filter((f) => f.endsWith('-chromium.partial.json'));
      expect(partial).toHaveLength(1);
      const kept = JSON.parse(readFileSync(join(out, partial[0]!), 'utf8')) as PartialFile;
      expect(kept.cases.length).toBeGreaterThan(0);
    } finally {
      signalGroup(sweep.child, 'SIGKILL');
      rmSync(out, { recursive: true, force: true });
    }
  });
}
