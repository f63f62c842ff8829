/**
 * Variants of a store in one sweep (docs/stores.md, "Variants of a store"): the same adapter on
 * another build of its package beside the installed one, as a user runs it, in Chromium.
 */
import { expect, test } from '@playwright/test';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultsFile } from '../../src/core/results/results.ts';
import { parseResults } from '../../src/core/results/recompute.ts';
import { filesIn, REPO_ROOT, sweep } from './sweep-process.ts';

test.describe.configure({ mode: 'serial' });

function chromiumResults(out: string): ResultsFile {
  const name = filesIn(out).find((f) => f.endsWith('-chromium.json'));
  expect(name, filesIn(out).join(', ')).toBeDefined();
  return parseResults(readFileSync(join(out, name as string), 'utf8'), name);
}

test('sweep variants - pouchdb-idb@file:DIR, a local build with its companion beside it, runs beside the installed one with no network', async () => {
  test.setTimeout(150_000);
  const dir = mkdtempSync(join(tmpdir(), 'storebench-variant-folder-'));
  const out = mkdtempSync(join(tmpdir(), 'storebench-variant-out-'));
  try {
    // As PouchDB's monorepo lays them out: packages/node_modules/pouchdb-browser beside pouchdb-find.
    for (const pkg of ['pouchdb-browser', 'pouchdb-find'])
      cpSync(join(REPO_ROOT, 'node_modules', pkg), join(dir, pkg), {
        recursive: true,
        dereference: true,
      });
    const id = `pouchdb-idb@file:${join(dir, 'pouchdb-browser')}`;
    // An unreachable registry: a folder must need no network.
    const run = await sweep(
      [
        '--browsers',
        'chromium',
        '--suites',
        'insert',
        '--cases',
        'bulk',
        '--adapters',
        `pouchdb-idb,${id}`,
        '--iterations',
        '3',
        '--out',
        out,
      ],
      140_000,
      { npm_config_registry: 'http://127.0.0.1:9/', npm_config_offline: 'true' },
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(
      `${id}: pouchdb-browser 9.0.0 from ${join(dir, 'pouchdb-browser')}, folder ${join(dir, 'pouchdb-browser')}, commit not a git folder`,
    );
    const results = chromiumResults(out);
    for (const adapter of ['pouchdb-idb', id]) {
      const rows = results.cases.filter((c) => c.adapter === adapter);
      expect(
        rows.map((r) => r.status),
        adapter,
      ).toEqual(['ok']);
    }
    expect(results.environment.adapters?.[id]).toMatchObject({
      package: 'pouchdb-browser',
      version: '9.0.0',
      source: 'folder',
      folder: join(dir, 'pouchdb-browser'),
      commit: 'not a git folder',
      'pouchdb-find': expect.stringMatching(
        new RegExp(
          `^sibling folder ${join(dir, 'pouchdb-find').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, 9.0.0, commit not a git folder$`,
        ),
      ),
    });
    // The installed one says its own package and version, not the local build's.
    expect(results.environment.adapters?.['pouchdb-idb']).toEqual({
      package: 'pouchdb-browser',
      version: '9.0.0',
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep variants - idb@8.0.4 from npm, installed into the cache, runs beside idb with its integrity recorded (needs the registry)', async () => {
  test.setTimeout(150_000);
  const cache = mkdtempSync(join(tmpdir(), 'storebench-variant-cache-'));
  const out = mkdtempSync(join(tmpdir(), 'storebench-variant-out-'));
  try {
    const run = await sweep(
      [
        '--browsers',
        'chromium',
        '--suites',
        'insert',
        '--cases',
        'bulk',
        '--adapters',
        'idb,idb@8.0.4',
        '--iterations',
        '3',
        '--out',
        out,
      ],
      140_000,
      { XDG_CACHE_HOME: cache },
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(
      `idb@8.0.4: installing idb@8.0.4 into ${join(cache, 'storebench', 'variants', 'idb@8.0.4')}`,
    );
    const results = chromiumResults(out);
    expect(results.cases.filter((c) => c.adapter === 'idb@8.0.4').map((r) => r.status)).toEqual([
      'ok',
    ]);
    expect(results.cases.filter((c) => c.adapter === 'idb').map((r) => r.status)).toEqual(['ok']);
    const facts = results.environment.adapters?.['idb@8.0.4'] ?? {};
    expect(facts).toMatchObject({
      package: 'idb',
      version: '8.0.4',
      source: expect.stringMatching(/^npm https?:\/\//),
    });
    const lock = JSON.parse(
      readFileSync(join(cache, 'storebench', 'variants', 'idb@8.0.4', 'package-lock.json'), 'utf8'),
    ) as { packages: Record<string, { integrity: string }> };
    expect(facts.integrity).toMatch(/^sha512-/);
    expect(facts.integrity).toBe(lock.packages['node_modules/idb']?.integrity);
  } finally {
    rmSync(cache, { recursive: true, force: true });
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep variants - a version npm does not have stops the sweep with exit 2 before any browser (needs the registry)', async () => {
  test.setTimeout(60_000);
  const cache = mkdtempSync(join(tmpdir(), 'storebench-variant-cache-'));
  try {
    const run = await sweep(
      [
        '--browsers',
        'chromium',
        '--suites',
        'insert',
        '--adapters',
        'idb,idb@0.0.999',
        '--iterations',
        '1',
      ],
      50_000,
      { XDG_CACHE_HOME: cache },
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^sweep: idb@0\.0\.999: npm has no version 0\.0\.999 of idb; its latest is \d+\.\d+\.\d+$/,
      ),
    ]);
    expect(run.stdout).not.toContain('building the page');
    expect(filesIn(join(cache, 'storebench', 'variants'))).toEqual([]);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
});

test("sweep variants - PouchDB 2.0.2 and 2.2.0, CommonJS for browserify, bundled with Node shims, run the 2.2.0 report's cases (needs the registry)", async () => {
  test.setTimeout(240_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-variant-out-'));
  try {
    const adapters = ['pouchdb-idb@2.0.2', 'pouchdb-idb@2.2.0'];
    const run = await sweep(
      [
        '--browsers',
        'chromium',
        '--suites',
        'paginate,insert,views',
        '--cases',
        'walk-skip,walk-startkey,serial,persisted,persisted-stale,temp',
        '--sizes',
        '60',
        '--params',
        'pageSize=20;queries=2',
        '--adapters',
        adapters.join(','),
        '--iterations',
        '2',
        '--warmup',
        '0',
        '--out',
        out,
      ],
      230_000,
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const results = chromiumResults(out);
    for (const adapter of adapters) {
      const rows = results.cases.filter((c) => c.adapter === adapter);
      expect(rows.map((r) => `${r.case} ${r.status} ${r.reason ?? ''}`).sort(), adapter).toEqual([
        'persisted ok ',
        'persisted-stale ok ',
        'serial ok ',
        'temp ok ',
        'walk-skip ok ',
        'walk-startkey ok ',
      ]);
      expect(results.environment.adapters?.[adapter]).toMatchObject({
        package: 'pouchdb',
        version: adapter.slice(-5),
        integrity: expect.stringMatching(/^sha512-/),
        build: expect.stringContaining('CommonJS for browserify'),
      });
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
