/**
 * A study as a user reruns it: `npm run study -- pouchdb-2.2 --quick` in Chromium, then its
 * report read back: the HTML opened in the browser from disk, the Markdown and the results files.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseResults } from '../../src/core/results/recompute.ts';
import { startSweep } from './sweep-process.ts';

test('study - pouchdb-2.2 --quick: a tagged sweep per part, then a report with the published figures and a verdict per finding', async ({
  page,
}) => {
  // Two more stores than before (PouchDB 2.0.2 and 2.2.0, installed from npm into the variant cache on a first run).
  test.setTimeout(420_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-study-'));
  try {
    const run = await startSweep(
      ['pouchdb-2.2', '--quick', '--browsers', 'chromium', '--out', out],
      400_000,
      'study',
    ).done;
    const log = `${run.stdout}\n${run.stderr}`;
    expect(run.code, log).toBe(0);
    // Every finding measured: the version factors on 2.0.2 against 2.2.0, the nearest published pair.
    expect(run.stdout).toMatch(
      /PouchDB 2\.2\.0 performance report: \d+ holds, \d+ reversed, \d+ differs, \d+ slower, \d+ faster, \d+ same, \d+ undecided, 0 missing, 0 not measurable \(3 results files, chromium\)/,
    );

    const dir = join(out, 'pouchdb-2.2');
    expect(readdirSync(dir).sort()).toEqual([
      'inserts',
      'paging',
      'report.html',
      'report.md',
      'views',
    ]);
    for (const part of ['paging', 'inserts', 'views']) {
      const name = readdirSync(join(dir, part)).find((f) => f.endsWith('-chromium.json'));
      expect(name, part).toBeDefined();
      const results = parseResults(readFileSync(join(dir, part, name!), 'utf8'), name);
      expect(results.run.plan.study).toBe(`pouchdb-2.2/${part}`);
      // The older PouchDB ran beside the current one and says which version it is.
      expect(results.environment.adapters?.['pouchdb-idb@7.3.1']?.version).toBe('7.3.1');
      expect(results.environment.adapters?.['pouchdb-idb']?.version).toBe('9.0.0');
      for (const version of ['2.0.2', '2.2.0'])
        expect(results.environment.adapters?.[`pouchdb-idb@${version}`]).toMatchObject({
          package: 'pouchdb',
          version,
        });
    }

    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toContain('61.32× (change in speed, persisted views; Chrome 34, IndexedDB)');
    expect(md).toMatch(
      /\| chromium \| pouchdb-idb \| [\d.]+× \[[\d.]+, [\d.]+\] \| (holds|reversed|undecided) \|/,
    );
    expect(md).toMatch(
      /\| chromium \| pouchdb-idb@2\.0\.2 → pouchdb-idb@2\.2\.0 \| [\d.]+× \[[\d.]+, [\d.]+\] \| (holds|reversed|undecided) \|/,
    );
    expect(md).toMatch(
      /\| paginate\/walk-skip \| 200 \| chromium \| pouchdb-idb 2\.0\.2 → 2\.2\.0 \| [\d.]+× /,
    );
    expect(md).toMatch(
      /\| paginate\/walk-startkey \| 200 \| chromium \| pouchdb-idb 7\.3\.1 → 9\.0\.0 \| [\d.]+× \[/,
    );
    expect(run.stdout).toMatch(
      /pouchdb-idb@2\.0\.2: pouchdb 2\.0\.2 \(CommonJS for browserify, with Node shims\), from npm, sha512-/,
    );
    // Both paging tables of the report: its factors as published, and today's on the nearest published pair.
    for (const [says, published] of [
      ['allDocs, the first of its two tables', '2×'],
      ['allDocs, the second of its two tables', '8.04×'],
    ]) {
      const section = md.slice(md.indexOf(`## PouchDB 2.2.0-alpha against 2.1.2, ${says}`));
      expect(section, says).toContain(
        `Published: ${published} (change in speed, ${says}; Chrome 34, IndexedDB)`,
      );
      expect(section, says).toMatch(
        /\| chromium \| pouchdb-idb@2\.0\.2 → pouchdb-idb@2\.2\.0 \| [\d.]+× \[[\d.]+, [\d.]+\] \| (holds|reversed|undecided) \|\s+\|/,
      );
    }

    // The HTML opens from disk with nothing to fetch: no script, every chart an inline SVG.
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);
    await expect(page.locator('h1')).toHaveText(
      'PouchDB 2.2.0 performance report: storebench report',
    );
    await expect(page.locator('script')).toHaveCount(0);
    expect(await page.locator('svg').count()).toBeGreaterThanOrEqual(3);
    await expect(
      page.getByRole('heading', { name: 'Versions today: change in speed' }),
    ).toBeVisible();
    await expect(page.locator('td.verdict').first()).toHaveText(
      /holds|reversed|undecided|missing|not measurable/,
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
