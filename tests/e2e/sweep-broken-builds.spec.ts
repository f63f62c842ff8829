/**
 * A broken build never passes (docs/stores.md, "Variants of a store"; docs/gate.md): a store
 * variant that throws as it loads fails the sweep; a local folder whose entry is missing or
 * outside it, a plan the page would read otherwise, and an A/B plan that can never decide are
 * refused before any build; Ctrl-C during a variant's install stops npm and leaves no partial
 * folder. Each test is one of the faults a probe of hostile inputs found, run as a user runs it.
 */
import { expect, test } from '@playwright/test';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseResults } from '../../src/core/results/recompute.ts';
import { filesIn, signalGroup, startSweep, sweep, waitFor } from './sweep-process.ts';

test.describe.configure({ mode: 'serial' });

/** The probe's plan: one case, one browser, three samples. */
const C = ['--browsers', 'chromium', '--suites', 'insert', '--cases', 'bulk'];

/** A folder holding a package named idb, as a user's branch of it would. */
function idbFolder(root: string, name: string, pkg: Record<string, unknown>, index?: string) {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'idb', version: '9.9.9', ...pkg }),
  );
  if (index !== undefined) writeFileSync(join(dir, 'index.js'), index);
  return dir;
}

/** A sweep that must stop at its inputs: its exit code, its output, and how long it took. */
async function refused(args: string[], env: NodeJS.ProcessEnv = {}) {
  const t0 = Date.now();
  const run = await sweep(args, 60_000, env);
  return { ...run, ms: Date.now() - t0, log: `${run.stdout}\n${run.stderr}` };
}

test('broken builds - a build that throws as it loads is a row `error` with its message, and the sweep exits 1', async () => {
  test.setTimeout(180_000);
  const root = mkdtempSync(join(tmpdir(), 'storebench-broken-'));
  try {
    const dir = idbFolder(
      root,
      'x',
      { type: 'module', module: 'index.js', main: 'index.js' },
      'throw new Error("boom")',
    );
    const out = join(root, 'out');
    const id = `idb@file:${dir}`;
    const run = await sweep(
      [...C, '--iterations', '3', '--adapters', `memory,${id}`, '--out', out],
      170_000,
    );
    const log = `${run.stdout}\n${run.stderr}`;
    expect(run.code, log).toBe(1);
    expect(run.stdout).toContain('FAILED: 1 row is error.');
    const name = filesIn(out).find((f) => f.endsWith('-chromium.json')) as string;
    const results = parseResults(readFileSync(join(out, name), 'utf8'), name);
    expect(results.cases.map((c) => [c.adapter, c.status, c.reason]).sort()).toEqual(
      [
        [id, 'error', 'failed to load (supported() threw): boom'],
        ['memory', 'ok', null],
      ].sort(),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('broken builds - a folder whose entry is outside it, or missing, exits 2 within 15 s and prints nothing of what lies outside', async () => {
  test.setTimeout(120_000);
  const root = mkdtempSync(join(tmpdir(), 'storebench-entry-'));
  try {
    const passwd = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '');
    const outside = idbFolder(root, 'outside', { main: '../../../../../../../../etc/passwd' });
    const none = idbFolder(root, 'none', {});
    for (const [dir, field] of [
      [
        outside,
        'its package.json\'s main, "../../../../../../../../etc/passwd", lies outside the folder; a local build\'s entries must be files inside it',
      ],
      [
        none,
        'its package.json names no entry (exports, browser, module or main) and the folder has no index.js: build the package first',
      ],
    ] as const) {
      const run = await refused([
        ...C,
        '--iterations',
        '3',
        '--adapters',
        `memory,idb@file:${dir}`,
        '--out',
        join(root, 'out'),
      ]);
      expect(run.code, run.log).toBe(2);
      expect(run.ms, run.log).toBeLessThan(15_000);
      expect(run.stderr.trim().split('\n'), run.log).toEqual([
        `sweep: idb@file:${dir}: ${dir}: ${field}`,
      ]);
      expect(run.stdout).not.toContain('building the page');
      for (const line of passwd) expect(run.log).not.toContain(line);
    }
    // One folder written two ways would be bundled once under two names.
    const ok = idbFolder(root, 'ok', { main: 'index.js' }, 'export const openDB = () => null;');
    const twice = await refused([
      ...C,
      '--ab',
      `idb@file:${ok},idb@file:${ok}/.`,
      '--out',
      join(root, 'out'),
    ]);
    expect(twice.code, twice.log).toBe(2);
    expect(twice.stderr.trim(), twice.log).toBe(
      `sweep: "idb@file:${ok}" and "idb@file:${ok}/." are one build, the folder ${ok}: name it once`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('broken builds - a plan the page would read otherwise exits 2 within 15 s, before any build', async () => {
  test.setTimeout(120_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-codec-'));
  try {
    for (const [args, message] of [
      [
        ['--ab', 'idb@+5%,idb@+05%'],
        'sweep: --ab: compares two different stores, A then B; "idb@+5%" and "idb@+05%" are one store, "idb@+5%" (an A/A names a registered store twice, e.g. idb,idb) (see --help)',
      ],
      [
        ['--ab', 'idb,memory', '--threshold', '0.0000001%'],
        'sweep: --threshold: "0.0000001%" is not a percentage from 0.01% to 99.99%, at most 2 decimals, e.g. 5% (see --help)',
      ],
    ] as const) {
      const run = await refused([...C, ...args, '--out', out]);
      expect(run.code, run.log).toBe(2);
      expect(run.ms, run.log).toBeLessThan(15_000);
      expect(run.stderr.trim(), run.log).toBe(message);
      expect(run.stdout).not.toContain('building the page');
    }
    expect(filesIn(out)).toEqual([]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('broken builds - an A/B plan that can never decide exits 2, saying why and what would work', async () => {
  test.setTimeout(120_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-undecidable-'));
  try {
    for (const [args, message] of [
      [
        [...C, '--ab', 'idb,memory', '--budget', '20s'],
        /^sweep: --ab: --budget 20s runs 1 pass \(each pass a browser launch of its own, with at least 15 s of the budget\), and B\/A's 95% interval is over passes, which needs 2: give --budget 30s or more/,
      ],
      [
        ['--browsers', 'chromium', '--suites', 'crash', '--ab', 'idb,memory'],
        /^sweep: --ab: crash is driven by the sweep, its rows taken once per browser rather than in every pass, .*leave it out of --suites/,
      ],
      [
        [...C, '--ab', 'idb,memory', '--budget-max', '1m'],
        /^sweep: --budget-max 1m gives 3 passes of 20 s, and --budget auto sizes a run after pass 3, so it needs room for one more: give --budget-max 1m20s or more/,
      ],
      [
        [...C, '--ab', 'idb,memory', '--shard', '2/2'],
        /^sweep: --ab: shard 2\/2 holds none of this plan's 1 case group, so it has nothing to compare: give at most 1 shard/,
      ],
    ] as const) {
      const run = await refused([...args, '--out', out]);
      expect(run.code, run.log).toBe(2);
      expect(run.stderr.trim().split('\n'), run.log).toEqual([expect.stringMatching(message)]);
      expect(run.stdout).not.toContain('building the page');
    }
    expect(filesIn(out)).toEqual([]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

/**
 * An npm registry on loopback that serves one package, idb 8.0.1 packed from a tiny folder, and
 * holds every request for its tarball open: an install is then in progress for as long as the
 * test wants, with no network. Stands in for registry.npmjs.org, which CI must not depend on.
 */
async function heldRegistry(root: string) {
  const pkg = join(root, 'pack');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(
    join(pkg, 'package.json'),
    JSON.stringify({ name: 'idb', version: '8.0.1', main: 'index.js' }),
  );
  writeFileSync(join(pkg, 'index.js'), 'export const openDB = () => null;\n');
  const tgzName = execFileSync('npm', ['pack', '--silent', '--pack-destination', root], {
    cwd: pkg,
    encoding: 'utf8',
  }).trim();
  const tgz = new Uint8Array(readFileSync(join(root, tgzName)));
  const held: ServerResponse[] = [];
  let asked!: () => void;
  const tarballAsked = new Promise<void>((ok) => (asked = ok));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const port = (server.address() as AddressInfo).port;
    if (req.url?.endsWith('.tgz')) {
      held.push(res);
      asked();
      return;
    }
    if (req.url?.replace(/^\//, '') !== 'idb') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const dist = {
      tarball: `http://127.0.0.1:${port}/idb/-/idb-8.0.1.tgz`,
      shasum: createHash('sha1').update(tgz).digest('hex'),
      integrity: `sha512-${createHash('sha512').update(tgz).digest('base64')}`,
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        name: 'idb',
        'dist-tags': { latest: '8.0.1' },
        versions: { '8.0.1': { name: 'idb', version: '8.0.1', main: 'index.js', dist } },
      }),
    );
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    tarballAsked,
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Processes started with this variable in their environment, and their command lines. */
function processesWith(variable: string): { pid: number; cmdline: string }[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(variable)) return [];
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        return [{ pid: Number(pid), cmdline }];
      } catch {
        return []; // gone meanwhile
      }
    });
}

test("broken builds - Ctrl-C during an install stops npm and removes its partial folder; a dead sweep's partial goes on the next run (local registry)", async () => {
  test.setTimeout(120_000);
  const root = mkdtempSync(join(tmpdir(), 'storebench-install-'));
  const registry = await heldRegistry(root);
  const cache = join(root, 'cache');
  // Every process of this sweep, npm's included, has it in its environment.
  const ours = `XDG_CACHE_HOME=${cache}`;
  try {
    const variants = join(cache, 'storebench', 'variants');
    // A partial left by a sweep that has ended (a real pid, of a process that has exited), and
    // one of a live process (this test's), which must stay.
    const dead = await new Promise<number>((ok) => {
      const child = spawn('true');
      child.on('exit', () => ok(child.pid as number));
    });
    const stale = `idb@8.0.1.partial-${dead}-old`;
    const live = `idb@8.0.0.partial-${process.pid}-live`;
    for (const name of [stale, live])
      mkdirSync(join(variants, name, 'node_modules'), { recursive: true });
    const env = {
      XDG_CACHE_HOME: cache,
      npm_config_registry: registry.url,
      npm_config_cache: join(root, 'npm-cache'),
    };
    const run = startSweep(
      [...C, '--iterations', '1', '--adapters', 'idb,idb@8.0.1', '--out', join(root, 'out')],
      100_000,
      'sweep',
      env,
    );
    await run.waitForStdout(/idb@8\.0\.1: installing idb@8\.0\.1 into /, 60_000);
    await registry.tarballAsked;
    const partial = await waitFor("the install's partial folder", 10_000, () =>
      readdirSync(variants).find((n) => n.startsWith('idb@8.0.1.partial-') && n !== stale),
    );
    expect(partial).toMatch(/^idb@8\.0\.1\.partial-\d+-[0-9a-z]+$/);
    // npm is installing: it names itself `npm install` (its process title).
    const installing = processesWith(ours).filter((p) => p.cmdline.startsWith('npm install '));
    expect(installing).toHaveLength(1);
    // As a terminal's Ctrl-C: the signal goes to the sweep's whole process group.
    signalGroup(run.child, 'SIGINT');
    const done = await run.done;
    const log = `${done.stdout}\n${done.stderr}`;
    expect(done.code, log).toBe(1);
    expect(done.stderr).toContain('stopping before any browser starts');
    expect(done.stdout).toContain(`removed ${stale}, left by an install whose sweep has ended`);
    expect(readdirSync(variants)).toEqual([live]);
    await waitFor('no process of the sweep left, npm included', 5_000, () =>
      processesWith(ours).length === 0 ? true : null,
    );
    expect(filesIn(join(root, 'out'))).toEqual([]);
  } finally {
    // A failed check must not leave this sweep and its npm running.
    for (const p of processesWith(ours))
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    registry.close();
    rmSync(root, { recursive: true, force: true });
  }
});
