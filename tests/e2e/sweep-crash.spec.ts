/**
 * A sweep that goes wrong: a browser dies mid-run, or the user presses Ctrl-C. The other
 * browsers' results and the finished rows stay on disk (on Ctrl-C the page hands back the rows
 * it has, as its Cancel does), the exit code says it failed, and no driver process outlives the
 * sweep. The test finds the browser through the sweep's own
 * process tree and kills only that.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PartialFile } from '../../src/cli/files/output.ts';
import { PARTIAL_SCHEMA } from '../../src/core/schema/vocabulary.ts';
import { parseResults } from '../../src/core/results/recompute.ts';
import { alive, descendants, filesIn, signalGroup, startSweep, waitFor } from './sweep-process.ts';

test.describe.configure({ mode: 'serial' });

/**
 * Long enough in any engine that the browser is still busy after its first row, short enough
 * for a whole run in the next: memory rows at 50 finish at once, the 5,000-document ones take a while.
 */
const PLAN = [
  '--suites',
  'insert',
  '--adapters',
  'memory',
  '--sizes',
  '50,5000',
  '--iterations',
  '15',
  '--warmup',
  '0',
  '--params',
  'chunkSizes=10',
];

test('sweep crash - chromium killed mid-run is reported, its rows are kept, and firefox still runs', async () => {
  test.setTimeout(400_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-crash-'));
  // A temporary folder of its own: another sweep beside the tests puts its browsers' folders in the system one.
  const tmp = mkdtempSync(join(tmpdir(), 'sbc-'));
  const browserFolders = () =>
    readdirSync(tmp).filter(
      (n) => n.startsWith('org.chromium.Chromium.') || n.startsWith('storebench-browser-'),
    );
  const before = new Set(browserFolders());
  const sweep = startSweep(
    ['--browsers', 'chromium,firefox', ...PLAN, '--out', out],
    380_000,
    'sweep',
    { TMPDIR: tmp },
  );
  try {
    // Once chromium has finished a row, kill its browser process: the one whose parent is not itself chromium.
    const partial = await waitFor('a partial file from chromium', 240_000, () =>
      filesIn(out).find((f) => f.endsWith('-chromium.partial.json')),
    );
    const browserPid = await waitFor('the chromium process under the sweep', 10_000, () => {
      const tree = descendants(sweep.child.pid as number);
      return tree.find(
        (p) => p.comm === 'chromium' && tree.find((q) => q.pid === p.ppid)?.comm !== 'chromium',
      )?.pid;
    });
    process.kill(browserPid, 'SIGKILL');

    const run = await sweep.done;
    const log = `${run.stdout}\n${run.stderr}`;
    expect(run.code, log).toBe(1);
    expect(run.stdout).toMatch(
      /chromium\s+FAILED after \S+ \(crashed, [1-9]\d* rows? kept\): Chromium closed or crashed before the run finished/,
    );
    expect(run.stdout).toMatch(/firefox\s+done in /);
    expect(run.stdout).toContain('FAILED: chromium did not complete.');

    const runId = partial.slice(0, -'-chromium.partial.json'.length);
    const files = filesIn(out);
    expect(files).toEqual(
      [`${runId}-chromium.partial.json`, `${runId}-firefox.json`, `${runId}.csv`].sort(),
    );
    const kept = JSON.parse(readFileSync(join(out, partial), 'utf8')) as PartialFile;
    expect(kept.schema).toBe(PARTIAL_SCHEMA);
    expect(kept.cases.length).toBeGreaterThan(0);
    expect(kept.cases.every((c) => c.status === 'ok')).toBe(true);
    const firefox = parseResults(
      readFileSync(join(out, `${runId}-firefox.json`), 'utf8'),
      'firefox',
    );
    expect(firefox.environment.browser.engine).toBe('Gecko');
    expect(firefox.cases.filter((c) => c.status !== 'ok')).toEqual([]);
    // The table keeps chromium's finished rows next to firefox's.
    expect(run.stdout).toMatch(/suite\s+case\s+adapter\s+size\s+chromium\s+firefox/);
    // The killed browser could not remove its temporary folders; the sweep removed them for it.
    expect(browserFolders().filter((n) => !before.has(n))).toEqual([]);
  } finally {
    signalGroup(sweep.child, 'SIGKILL');
    rmSync(out, { recursive: true, force: true });
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('sweep crash - Ctrl-C stops the sweep, keeps the rows, and leaves no WebKitWebDriver, Xvfb or MiniBrowser behind', async () => {
  test.setTimeout(300_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-ctrl-c-'));
  const sweep = startSweep(['--browsers', 'webkit', ...PLAN, '--out', out], 280_000);
  try {
    await waitFor('a partial file from webkit', 240_000, () =>
      filesIn(out).find((f) => f.endsWith('-webkit.partial.json')),
    );
    // The driver runs in a process group of its own (xvfb-run, Xvfb, WebKitWebDriver, MiniBrowser and its helpers).
    const tree = descendants(sweep.child.pid as number);
    const leader = tree.find((p) => p.comm === 'xvfb-run' || p.comm === 'WebKitWebDriver');
    expect(leader, tree.map((p) => p.comm).join(', ')).toBeDefined();
    const group = tree.filter((p) => p.pgid === leader?.pgid);
    expect(group.map((p) => p.comm)).toEqual(
      expect.arrayContaining(['WebKitWebDriver', 'MiniBrowser']),
    );

    // What a terminal does on Ctrl-C: SIGINT to the sweep's whole foreground process group.
    const before = (
      JSON.parse(
        readFileSync(
          join(
            out,
            filesIn(out).find((f) => f.endsWith('-webkit.partial.json'))!,
          ),
          'utf8',
        ),
      ) as PartialFile
    ).cases;
    signalGroup(sweep.child, 'SIGINT');
    const run = await sweep.done;
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stderr).toContain('the page is asked to hand back the rows it has');
    // The page stopped as its Cancel stops it and sent its rows: a results document, cancelled.
    expect(run.stdout).toMatch(
      /webkit\s+cancelled in \S+: [1-9]\d* rows \([1-9]\d* ok, 0 unsupported, 0 error, 0 timeout\)/,
    );
    expect(run.stdout).toMatch(/FAILED: cancelled; webkit did not complete\./);
    const name = filesIn(out).find((f) => f.endsWith('-webkit.json'))!;
    const results = parseResults(readFileSync(join(out, name), 'utf8'), name);
    expect(results.run.cancelled).toBe(true);
    expect(results.cases.length).toBeGreaterThanOrEqual(before.length);
    expect(results.cases.every((c) => c.status === 'ok')).toBe(true);
    expect(filesIn(out).filter((f) => f.endsWith('.partial.json'))).toEqual([]);

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

test('sweep crash - Ctrl-C in a later launch keeps the samples of the launches before it and of the one in flight', async () => {
  test.setTimeout(240_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-ctrl-c-launch-'));
  const plan = [
    '--suites',
    'read',
    '--cases',
    'get-batch',
    '--adapters',
    'memory,idb',
    '--sizes',
    '100',
    '--budget',
    '90s',
    '--launches',
    '3',
    '--auto=max-n:10000',
  ];
  const sweep = startSweep(['--browsers', 'chromium', ...plan, '--out', out], 220_000);
  const carried = () => {
    const name = filesIn(out).find((f) => f.endsWith('-chromium.partial.json'));
    const kept = name ? (JSON.parse(readFileSync(join(out, name), 'utf8')) as PartialFile) : null;
    return kept && kept.cases.length === 2 ? kept : undefined;
  };
  try {
    // After the first launch the partial file holds the rows it carries. Ctrl-C in the second (passes
    // 5 to 8) once it is in pass 6 or 7: pass 5's samples are taken, and pass 8 keeps the page running.
    const afterFirst = await waitFor('the rows the first launch carried', 150_000, carried);
    await sweep.waitForStdout(/\| pass [67]\/12 \| launch 2\/3 \|/, 60_000);
    signalGroup(sweep.child, 'SIGINT');
    const run = await sweep.done;
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stdout).toMatch(
      /chromium\s+cancelled in \S+: 2 rows \(2 ok, 0 unsupported, 0 error, 0 timeout\)/,
    );
    const name = filesIn(out).find((f) => f.endsWith('-chromium.json'))!;
    const results = parseResults(readFileSync(join(out, name), 'utf8'), name);
    expect(results.run.cancelled).toBe(true);
    const first = (adapter: string) => afterFirst.cases.find((c) => c.adapter === adapter)!.samples;
    for (const row of results.cases) {
      if (row.status !== 'ok') throw new Error(`${row.adapter}: ${row.status}`);
      // The first launch's samples, then the second's, stopped by the cancel, with statistics over them all.
      expect(row.samples.slice(0, first(row.adapter).length)).toEqual(first(row.adapter));
      expect(row.stopped).toBe('cancelled');
      expect(row.stats.n).toBe(row.samples.length);
    }
    const total = (rows: readonly { samples: readonly number[] }[]) =>
      rows.reduce((n, r) => n + r.samples.length, 0);
    expect(total(results.cases)).toBeGreaterThan(total(afterFirst.cases));
    expect(filesIn(out).filter((f) => f.endsWith('.partial.json'))).toEqual([]);
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
      await waitFor('a partial file from chromium', 180_000, () =>
        filesIn(out).find((f) => f.endsWith('-chromium.partial.json')),
      );
      const tree = descendants(sweep.child.pid as number);
      expect(tree.map((p) => p.comm)).toEqual(expect.arrayContaining(['node', 'chromium']));
      process.kill(sweep.child.pid as number, signal);
      const run = await sweep.done;
      expect(run.code === 0, `${run.stdout}\n${run.stderr}`).toBe(false);
      // Every process the sweep started is gone, browser included.
      await waitFor('the sweep and its browser to exit', 30_000, () =>
        tree.every((p) => !alive(p.pid)),
      );
      // The page was asked to stop and sent its rows: a cancelled results document, no partial file.
      expect(filesIn(out).filter((f) => f.endsWith('.partial.json'))).toEqual([]);
      const name = filesIn(out).find((f) => f.endsWith('-chromium.json'))!;
      const results = parseResults(readFileSync(join(out, name), 'utf8'), name);
      expect(results.run.cancelled).toBe(true);
      expect(results.cases.length).toBeGreaterThan(0);
    } finally {
      signalGroup(sweep.child, 'SIGKILL');
      rmSync(out, { recursive: true, force: true });
    }
  });
}
