/**
 * Sweeps on a real Selenium Grid (docs/past-one-machine.md, "On a grid"): a hub and two nodes of
 * the selenium-server jar on loopback, each node offering Chromium through Debian's
 * chromium-driver, started once for every test here and stopped by the process groups it started.
 * The page is built once too and served to every sweep with --page; the sweeps are otherwise the
 * commands the docs give. What a grid changes is checked on it: shards at once on its nodes and
 * merged, a browser it does not offer, a session it refuses, a full grid, a node that dies.
 */
import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPage } from '../../src/cli/build/build-page.ts';
import { findChromium } from '../../src/cli/drivers/discovery.ts';
import type { PartialFile } from '../../src/cli/files/output.ts';
import type { ResultsFile } from '../../src/core/results/results.ts';
import { parseResults } from '../../src/core/results/recompute.ts';
import { gridMissing, startGrid, type Grid } from './selenium-grid.ts';
import { alive, filesIn, REPO_ROOT, startSweep, sweep, waitFor } from './sweep-process.ts';

test.describe.configure({ mode: 'serial' });

/** The smallest plan whose two shards both get rows: two case groups (bulk and serial at 100). */
const CASES = ['bulk', 'serial'];
const ADAPTERS = ['memory', 'idb'];
const PLAN = [
  ...['--suites', 'insert', '--cases', CASES.join(','), '--adapters', ADAPTERS.join(',')],
  ...['--sizes', '100', '--iterations', '3'],
];

let grid: Grid | undefined;
let work = '';
let page = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const missing = gridMissing();
  if (missing) throw new Error(missing);
  work = mkdtempSync(join(tmpdir(), 'storebench-grid-test-'));
  [grid, page] = await Promise.all([startGrid(2), buildPage(undefined, join(work, 'page'))]);
});

test.afterAll(async () => {
  await grid?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const on = () => grid as Grid;
const remote = (out: string, ...more: string[]) => [
  ...['--remote', on().endpoint, '--page', page, '--out', out],
  ...more,
];

function merge(files: string[], out: string) {
  return spawnSync('npm', ['run', '--silent', 'merge', '--', ...files, '--out', out], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

function results(out: string, runId: string): ResultsFile {
  const name = `${runId}-chromium.json`;
  return parseResults(readFileSync(join(out, name), 'utf8'), name);
}

/** The hub still answers, and no session is open on it: every slot is free. */
async function gridLeftAsFound(nodes = on().nodes): Promise<void> {
  const g = on();
  expect(alive(g.hub.pid), `the hub:\n${g.log(g.hub)}`).toBe(true);
  for (const n of nodes) expect(alive(n.pid), `${n.url}:\n${g.log(n)}`).toBe(true);
  const status = (await (await fetch(`${g.endpoint}/status`)).json()) as {
    value: { ready: boolean };
  };
  expect(status.value.ready).toBe(true);
  // The sweep deleted its session: the hub frees the slot once the node confirms it.
  const t0 = Date.now();
  let slots = await g.slots();
  while (slots.free !== slots.total && Date.now() - t0 < 10_000) {
    await new Promise((ok) => setTimeout(ok, 200));
    slots = await g.slots();
  }
  expect(slots.free, 'slots free of all').toBe(slots.total);
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const runIdOf = (stdout: string) => /^storebench sweep (\S+)$/m.exec(stdout)?.[1] as string;

test('sweep grid - shards 1/2 and 2/2 at once on two nodes merge into every row of the plan, each recording the node it ran on', async () => {
  test.setTimeout(240_000);
  const out = join(work, 'shards');
  const t0 = Date.now();
  const shards = [1, 2].map((i) =>
    startSweep(remote(out, '--browsers', 'chromium', '--shard', `${i}/2`, ...PLAN), 200_000),
  );
  const runs = await Promise.all(
    shards.map((s) => s.done.then((r) => ({ ...r, seconds: (Date.now() - t0) / 1000 }))),
  );
  const docs: ResultsFile[] = [];
  for (const run of runs) {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const node = /chromium: launch 1 runs on the grid node (\S+)$/m.exec(run.stdout)?.[1];
    expect(
      on().nodes.map((n) => n.url),
      run.stdout,
    ).toContain(node);
    const doc = results(out, runIdOf(run.stdout));
    // Where each row ran: the endpoint and the node, in the results the rows are read with.
    expect(doc.environment.driver).toEqual({
      kind: 'webdriver',
      remote: on().endpoint,
      nodes: [node],
    });
    docs.push(doc);
  }

  const mergedPath = join(out, 'merged.json');
  const merged = merge(
    docs.map((d) => join(out, `${d.run.id}-chromium.json`)),
    mergedPath,
  );
  expect(merged.status, merged.stdout + merged.stderr).toBe(0);
  expect(merged.stdout).not.toContain('MISSING');
  const set = JSON.parse(readFileSync(mergedPath, 'utf8')) as ResultsFile[];
  const rows = set.flatMap((d) => d.cases.map((c) => `${c.case}/${c.adapter}/${c.size}`));
  const plan = CASES.flatMap((c) => ADAPTERS.map((a) => `${c}/${a}/100`));
  // Every row of the plan once, and nothing else.
  expect([...rows].sort()).toEqual([...plan].sort());
  expect(set.flatMap((d) => d.cases).every((c) => c.status === 'ok')).toBe(true);
  expect(set.map((d) => d.environment.driver?.remote)).toEqual([on().endpoint, on().endpoint]);
  await gridLeftAsFound();
  console.log(
    `grid shards (a shared machine): shard 1/2 ${runs[0]?.seconds.toFixed(1)} s, shard 2/2 ${runs[1]?.seconds.toFixed(1)} s, merged ${rows.length} rows`,
  );
});

test('sweep grid - a browser the grid does not offer is exit 2 within 30 s naming what it offers; a session it refuses shows its own words, escaped', async () => {
  test.setTimeout(120_000);
  const out = join(work, 'refused');
  const t0 = Date.now();
  const firefox = await sweep(remote(out, '--browsers', 'firefox', ...PLAN), 60_000);
  const seconds = (Date.now() - t0) / 1000;
  expect(firefox.code, `${firefox.stdout}\n${firefox.stderr}`).toBe(2);
  expect(seconds).toBeLessThan(30);
  expect(firefox.stderr).toMatch(
    new RegExp(
      `^sweep: --browsers firefox: the grid at ${escaped(on().endpoint)} has no node for browserName "firefox"; it offers chrome on \\S+ \\(2 slots on 2 nodes\\), which --browsers chromium or chrome asks for\\n$`,
    ),
  );

  // --capabilities merged over the defaults: a binary no node has, with an escape sequence in its name.
  const binary = `${work}/no-chromium\u001b[31m`;
  const refused = await sweep(
    remote(
      out,
      '--browsers',
      'chromium',
      '--capabilities',
      JSON.stringify({ 'goog:chromeOptions': { binary } }),
      ...PLAN,
    ),
    60_000,
  );
  expect(refused.code, `${refused.stdout}\n${refused.stderr}`).toBe(1);
  expect(refused.stdout).toMatch(
    /chromium\s+FAILED after \S+ \(crashed, 0 rows kept\): the WebDriver endpoint \S+ refused a "chrome" session: POST \/session: session not created: .*no chrome binary at .*no-chromium\\u001b\[31m; it offers chrome on \S+ \(2 slots on 2 nodes\)$/m,
  );
  expect(refused.stdout).not.toContain('\u001b');
  expect(filesIn(out)).toEqual([]);
  await gridLeftAsFound();
  console.log(`grid: --browsers firefox exited 2 after ${seconds.toFixed(1)} s (a shared machine)`);
});

test('sweep grid - a full grid: the sweep says so and waits up to --wait-ms, then runs on the slot that frees, or gives up saying why', async () => {
  test.setTimeout(180_000);
  const out = join(work, 'full');
  const chromium = findChromium();
  const binary = chromium.found ? chromium.playwright?.executablePath : undefined;
  // Both slots taken by sessions of the test's own.
  const open = async () => {
    const r = await fetch(`${on().endpoint}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        capabilities: {
          alwaysMatch: {
            browserName: 'chrome',
            'goog:chromeOptions': { binary, args: ['--headless=new', '--no-sandbox'] },
          },
        },
      }),
    });
    return ((await r.json()) as { value: { sessionId: string } }).value.sessionId;
  };
  const close = (id: string) =>
    fetch(`${on().endpoint}/session/${id}`, { method: 'DELETE' }).catch(() => undefined);
  const held = [await open(), await open()];
  try {
    expect(await on().slots()).toEqual({ free: 0, total: 2 });
    const gaveUp = await sweep(
      remote(out, '--browsers', 'chromium', '--wait-ms', '2000', ...PLAN),
      60_000,
    );
    expect(gaveUp.code, `${gaveUp.stdout}\n${gaveUp.stderr}`).toBe(1);
    expect(gaveUp.stdout).toContain(
      'chromium: the grid is full (all 2 slots busy): waiting for a chrome slot, 0:00 of 0:02 (--wait-ms)',
    );
    expect(gaveUp.stdout).toMatch(
      /chromium\s+FAILED after \S+ \(crashed, 0 rows kept\): the grid at \S+ is full: no chrome slot came free within 0:02 \(--wait-ms; all 2 slots busy\)$/m,
    );

    const waits = startSweep(
      remote(out, '--browsers', 'chromium', '--wait-ms', '120000', ...PLAN),
      150_000,
    );
    await waits.waitForStdout(
      /the grid is full \(all 2 slots busy\): waiting for a chrome slot/,
      60_000,
    );
    await close(held.shift() as string);
    const run = await waits.done;
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/chromium: launch 1 runs on the grid node \S+$/m);
    const doc = results(out, runIdOf(run.stdout));
    expect(doc.cases).toHaveLength(CASES.length * ADAPTERS.length);
  } finally {
    for (const id of held) await close(id);
  }
  await gridLeftAsFound();
});

test("sweep grid - a node killed mid-run: its shard fails with a one-line reason and its file says which pass failed; the other shard's rows are intact", async () => {
  test.setTimeout(240_000);
  const out = join(work, 'killed');
  // Shards deal the case groups by size, and the suite lists serial before bulk: shard 1 is
  // serial at 100, then serial at 5000 (5000 IndexedDB transactions a sample, seconds long), shard 2 bulk at both.
  const plan = [...PLAN.slice(0, -4), '--sizes', '100,5000', '--iterations', '3'];
  const shards = [1, 2].map((i) =>
    startSweep(remote(out, '--browsers', 'chromium', '--shard', `${i}/2`, ...plan), 200_000),
  );
  const [doomed, other] = shards as [(typeof shards)[0], (typeof shards)[0]];
  const runId = (await doomed.waitForStdout(/^storebench sweep (\S+)$/m, 60_000))[1] as string;
  const node = (await doomed.waitForStdout(/launch 1 runs on the grid node (\S+)$/m, 120_000))[1];
  // Once its first group's rows are on disk, the node running it dies, with its browser.
  await waitFor('shard 1 to finish its first group', 120_000, () =>
    filesIn(out).includes(`${runId}-chromium.partial.json`),
  );
  const victim = on().nodes.find((n) => n.url === node);
  expect(
    victim,
    `${node} among ${on()
      .nodes.map((n) => n.url)
      .join(', ')}`,
  ).toBeDefined();
  process.kill(-(victim?.pid as number), 'SIGKILL');

  const [dead, kept] = await Promise.all([doomed.done, other.done]);
  expect(dead.code, `${dead.stdout}\n${dead.stderr}`).toBe(1);
  expect(dead.stdout).toMatch(
    new RegExp(
      `^chromium\\s+FAILED after \\S+ \\(crashed, [1-9]\\d* rows? kept\\): chromium \\(remote\\) on the grid node ${escaped(node as string)} went away before the run finished \\(GET /session/\\w+/window: unknown error: [^\\n]+\\)$`,
      'm',
    ),
  );
  expect(dead.stdout).toMatch(/^FAILED: chromium did not complete\.$/m);

  const partial = JSON.parse(
    readFileSync(join(out, `${runId}-chromium.partial.json`), 'utf8'),
  ) as PartialFile;
  expect(partial.driver).toEqual({ kind: 'webdriver', remote: on().endpoint, nodes: [node] });
  expect(partial.ended).toMatchObject({
    kind: 'crashed',
    pass: 1,
    passes: 1,
    launch: 1,
    launches: 1,
  });
  expect(partial.ended?.message).toContain(`on the grid node ${node} went away`);
  expect(partial.ended?.lastSeen).toMatchObject({ suite: 'insert', case: 'serial' });
  // The group the node died in lost its samples; the one before it is kept whole.
  expect(partial.cases.length).toBeGreaterThan(0);
  for (const row of partial.cases) {
    expect(row.status).toBe('ok');
    expect(row.samples).toHaveLength(3);
    expect(`${row.case}@${row.size}`).toBe('serial@100');
  }

  expect(kept.code, `${kept.stdout}\n${kept.stderr}`).toBe(0);
  const whole = results(out, runIdOf(kept.stdout));
  expect(whole.cases).toHaveLength(2 * ADAPTERS.length);
  expect(whole.cases.every((c) => c.status === 'ok')).toBe(true);
  // The merge takes the complete shard, skips the partial file and says what the set lacks.
  const merged = merge(
    filesIn(out)
      .filter((f) => f.endsWith('.json'))
      .map((f) => join(out, f)),
    join(out, 'set.json'),
  );
  expect(merged.status, merged.stdout + merged.stderr).toBe(0);
  expect(merged.stdout).toContain('MISSING shard 1/2');
  await gridLeftAsFound(on().nodes.filter((n) => n !== victim));
});
