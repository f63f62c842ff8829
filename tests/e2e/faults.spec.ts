/**
 * faults - the page survives what goes wrong in a real browser, and says what went wrong: a store
 * that throws, one that never answers, a full disk (quota), Cancel, and bad input. After every
 * run, no benchmark database is left behind (indexedDB.databases()).
 *
 * Faults are injected into the browser's own IndexedDB with an init script, so the page, the
 * runner and the idb adapter run unchanged; the memory store beside it shows the run goes on.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CaseResult, ResultsFile } from '../../src/core/results/results.ts';
import { validateResultsIndex } from '../../src/core/results/input.ts';
import { settled, state, type PageState } from './page-state.ts';

/** Every database of the origin, of any name: PouchDB's (`_pouch_` + the name) and probes' included. */
const leftDatabases = (page: Page) =>
  page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));

function row(s: PageState, adapter: string): CaseResult {
  const r = s.results?.cases.find((c) => c.adapter === adapter);
  if (!r)
    throw new Error(
      `no row for ${adapter}: ${JSON.stringify(s.results?.cases.map((c) => c.adapter))}`,
    );
  return r;
}

/** Fail the test on any dialog: hostile text must never run. */
function forbidDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

const PLAN = 'suites=insert&cases=bulk&adapters=idb,memory&sizes=50&warmup=0';

test.describe('faults - the run goes on', () => {
  test('a case that throws is an error with its message', async ({ page }) => {
    await page.addInitScript(() => {
      // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, which the patch calls with its own `this`
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (
        this: IDBObjectStore,
        ...args: Parameters<typeof put>
      ) {
        if (this.transaction.db.name.startsWith('storebench-'))
          throw new DOMException('injected fault: the disk is on fire', 'UnknownError');
        return put.apply(this, args);
      };
    });
    await page.goto(`/?${PLAN}&iterations=2&autorun=1`);
    const s = await settled(page);
    expect(s.status, s.error).toBe('done');
    expect(row(s, 'idb')).toMatchObject({
      status: 'error',
      reason: expect.stringContaining('injected fault: the disk is on fire'),
    });
    expect(row(s, 'memory').status).toBe('ok');
    await expect(page.locator('#results-table tr[data-status=error] .reason')).toContainText(
      'injected fault: the disk is on fire',
    );
    await expect
      .poll(() => leftDatabases(page), {
        timeout: 10_000,
        message: 'benchmark databases left behind',
      })
      .toEqual([]);
  });

  test('a case that never resolves is cut off as timeout, and its database is deleted', async ({
    page,
  }) => {
    // The idb library resolves a write when its transaction says 'complete'; dropping that
    // listener makes every write hang forever, as a wedged store would.
    await page.addInitScript(() => {
      // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, which the patch calls with its own `this`
      const listen = IDBTransaction.prototype.addEventListener;
      IDBTransaction.prototype.addEventListener = function (
        this: IDBTransaction,
        type: string,
        ...rest: unknown[]
      ) {
        if (
          type === 'complete' &&
          this.mode === 'readwrite' &&
          this.db.name.startsWith('storebench-')
        )
          return;
        return (listen as (...a: unknown[]) => void).call(this, type, ...rest);
      } as typeof listen;
    });
    await page.goto(`/?${PLAN}&iterations=2&timeout-ms=1500&autorun=1`);
    const s = await settled(page);
    expect(s.status, s.error).toBe('done');
    expect(row(s, 'idb')).toMatchObject({
      status: 'timeout',
      reason: expect.stringMatching(/made no progress within the 1500 ms limit of one step/),
    });
    expect(row(s, 'memory').status).toBe('ok');
    await expect
      .poll(() => leftDatabases(page), {
        timeout: 10_000,
        message: 'benchmark databases left behind',
      })
      .toEqual([]);
  });

  test('quota exceeded is "error: quota exceeded" (Chromium, tiny quota through DevTools)', async ({
    page,
    browserName,
    baseURL,
  }) => {
    test.skip(
      browserName !== 'chromium',
      'Storage.overrideQuotaForOrigin is a Chromium DevTools command',
    );
    const cdp = await page.context().newCDPSession(page);
    await page.goto('/tests/e2e/blank.html');
    await cdp.send('Storage.overrideQuotaForOrigin', {
      origin: new URL(baseURL ?? '').origin,
      quotaSize: 64 * 1024,
    });
    // 2,000 documents are several hundred KB: the bulk write cannot commit within 64 KB.
    await page.goto(
      '/?suites=insert&cases=bulk&adapters=idb,memory&sizes=2000&iterations=1&warmup=0&autorun=1',
    );
    const s = await settled(page);
    expect(s.status, s.error).toBe('done');
    expect(row(s, 'idb')).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^quota exceeded/),
    });
    expect(row(s, 'memory').status).toBe('ok');
    await expect(page.locator('#results-table tr[data-status=error] .reason')).toContainText(
      'quota exceeded',
    );
    await expect
      .poll(() => leftDatabases(page), {
        timeout: 10_000,
        message: 'benchmark databases left behind',
      })
      .toEqual([]);
  });
});

test.describe('faults - a full disk under PouchDB', () => {
  test('quota exceeded reads "quota exceeded" on pouchdb-idb, and no PouchDB database outlives the run (Chromium)', async ({
    page,
    browserName,
    baseURL,
  }) => {
    test.skip(
      browserName !== 'chromium',
      'Storage.overrideQuotaForOrigin is a Chromium DevTools command',
    );
    const cdp = await page.context().newCDPSession(page);
    await page.goto('/tests/e2e/blank.html');
    await cdp.send('Storage.overrideQuotaForOrigin', {
      origin: new URL(baseURL ?? '').origin,
      quotaSize: 64 * 1024,
    });
    await page.goto(
      '/?suites=insert&cases=bulk&adapters=pouchdb-idb,pouchdb-indexeddb,memory&sizes=2000&iterations=2&warmup=0&timeout-ms=5000&autorun=1',
    );
    const s = await settled(page);
    expect(s.status, s.error).toBe('done');
    // Where the quota runs out first, in PouchDB's own check of the store or in the sample, both say why.
    expect(row(s, 'pouchdb-idb')).toMatchObject({
      status: expect.stringMatching(/^(error|unsupported)$/),
      reason: expect.stringMatching(/quota exceeded: .*QuotaExceededError/),
    });
    // The indexeddb adapter's open never settles on a full disk: a finding its row says, cut off at the limit.
    expect(row(s, 'pouchdb-indexeddb')).toMatchObject({
      status: 'timeout',
      reason: expect.stringContaining('pouchdb-indexeddb: open did not finish'),
    });
    expect(row(s, 'memory').status).toBe('ok');
    // PouchDB keeps its data in databases named _pouch_<name>: none may outlive the run.
    await expect
      .poll(() => leftDatabases(page), {
        timeout: 15_000,
        message: 'benchmark databases left behind',
      })
      .toEqual([]);
  });
});

test.describe('faults - cleanup', () => {
  for (const { title, query, context } of [
    {
      title: 'Cancel stops a run on a real store and leaves no database behind',
      query: '',
      context: 'main',
    },
    {
      title: 'Cancel in a Worker run leaves no database behind either',
      query: '&worker=1',
      context: 'worker',
    },
  ]) {
    test(title, async ({ page }) => {
      await page.goto(
        `/?suites=insert&cases=serial,bulk&adapters=idb&sizes=200&iterations=200&warmup=0${query}`,
      );
      await page.locator('#run').click();
      await expect(page.getByTestId('progress-counter')).toHaveText(
        /^([3-9]|\d{2,})\/\d+ samples$/,
        { timeout: 60_000 },
      );
      await page.locator('#cancel').click();
      const s = await settled(page);
      expect(s.results?.run.cancelled).toBe(true);
      expect(s.results?.environment.context).toBe(context);
      await expect
        .poll(() => leftDatabases(page), {
          timeout: 10_000,
          message: 'benchmark databases left behind',
        })
        .toEqual([]);
    });
  }
});

test.describe('faults - a stuck plan Worker', () => {
  test('a Worker whose thread never returns is stopped by the page, which says why and deletes its databases', async ({
    page,
  }) => {
    // The Worker's own timers stop with its thread, so only the page can notice: after the case
    // time limit (1.5 s here) plus the margin for cleanup, with no message from the Worker.
    test.setTimeout(150_000);
    await page.route('**/src/ui/host/plan-worker.ts*', async (route) => {
      const response = await route.fetch();
      const freeze =
        "{ const put = IDBObjectStore.prototype.put; IDBObjectStore.prototype.put = function (...a) { if (this.transaction.db.name.startsWith('storebench-')) for (;;) {} return put.apply(this, a); }; }\n";
      await route.fulfill({ response, body: freeze + (await response.text()) });
    });
    const started = Date.now();
    await page.goto(
      `/?suites=insert&cases=bulk&adapters=idb&sizes=50&warmup=0&iterations=2&timeout-ms=1500&worker=1&autorun=1`,
    );
    const s = await settled(page, 120_000);
    expect(s.status).toBe('error');
    expect(s.error).toMatch(
      /the plan Worker sent nothing for \d+ s, more than the case time limit \(1\.5 s\) plus \d+ s: its thread is stuck/,
    );
    expect(Date.now() - started, 'stopped soon after the limit').toBeLessThan(90_000);
    await expect
      .poll(() => leftDatabases(page), {
        timeout: 10_000,
        message: 'benchmark databases left behind',
      })
      .toEqual([]);
  });
});

test.describe('faults - bad input', () => {
  test('bad URL parameters: each is named with what is allowed, nothing runs, nothing executes', async ({
    page,
  }) => {
    const dialogs = forbidDialogs(page);
    const bad = new URLSearchParams({
      suites: 'insert,nope',
      adapters: 'idb,<img src=x onerror=alert(1)>',
      sizes: '0,abc',
      iterations: '-1',
      params: 'chunkSizes',
      auto: 'ci:0%',
      worker: 'maybe',
      cases: '<b>x</b>',
      run: '../../etc',
      autorun: '1',
    });
    await page.goto(`/?${bad}`);
    const banner = page.locator('.banner-error');
    await expect(banner).toBeVisible();
    for (const text of [
      'suites: unknown "nope"; allowed:',
      'adapters: unknown "<img src=x onerror=alert(1)>"; allowed:',
      'sizes: 0 is out of range; allowed: 1 to 10000000',
      'iterations: "-1" is not a whole number; allowed: 1 to 10000',
      'params: "chunkSizes" is not name=value',
      'auto: ci "0%" is not a percentage of the median',
      'worker: "maybe" is not on or off',
      'cases: "<b>x</b>" is not a case id',
    ]) {
      await expect(banner).toContainText(text);
    }
    await expect(page.locator('.banner-warning')).toContainText('run: "../../etc" is not a run id');
    // autorun with a bad plan: the page says why and runs nothing.
    const s = await state(page);
    expect(s.status).toBe('error');
    expect(await page.locator('img[src=x]').count()).toBe(0);
    expect(await page.locator('#banners b').count()).toBe(0);
    await expect
      .poll(() => leftDatabases(page), {
        timeout: 10_000,
        message: 'benchmark databases left behind',
      })
      .toEqual([]);
    expect(dialogs).toEqual([]);
  });

  test('an unknown case id fails before anything runs, naming the cases there are', async ({
    page,
  }) => {
    await page.goto('/?suites=insert&cases=bulk,nope&adapters=memory&sizes=10&autorun=1');
    const s = await settled(page);
    expect(s.status).toBe('error');
    expect(s.error).toMatch(
      /^cases: unknown "nope" in suites insert; allowed: serial, parallel, bulk, /,
    );
    await expect(page.getByTestId('progress-label')).toContainText('cases: unknown "nope"');
  });

  test('an unknown suite parameter fails before anything runs, naming the parameters the suites take', async ({
    page,
  }) => {
    await page.goto(
      '/?suites=insert&cases=bulk&adapters=memory&sizes=10&params=chunkSize%3D5&autorun=1',
    );
    const s = await settled(page);
    expect(s.status).toBe('error');
    expect(s.error).toBe(
      'params: unknown "chunkSize" for suites insert; allowed: insert: chunkSizes, orderChunk',
    );
    expect(s.results ?? null).toBeNull();
  });
});

test.describe('faults - hostile results files in "compare with…"', () => {
  async function runSmallPlan(page: Page): Promise<ResultsFile> {
    // 8 samples: the median's interval needs 6, and compare needs the interval.
    await page.goto(
      '/?suites=insert&cases=bulk&adapters=memory&sizes=20&iterations=8&warmup=0&autorun=1',
    );
    const s = await settled(page);
    expect(s.status, s.error).toBe('done');
    return s.results as ResultsFile;
  }

  const open = async (page: Page) => {
    await page.locator('#compare-view > summary').click();
  };

  test('HTML and formula text in labels stay text: nothing is injected or run', async ({
    page,
  }) => {
    const dialogs = forbidDialogs(page);
    const results = await runSmallPlan(page);
    const hostile = structuredClone(results);
    hostile.run.browser = '<img src=x onerror=alert(1)>';
    for (const c of hostile.cases) {
      c.title = '=HYPERLINK("http://evil.example","click")';
      c.case = '<script>alert(2)</script>';
      c.adapter = '<b id=injected>memory</b>';
    }
    await open(page);
    await page.locator('#compare-file').setInputFiles({
      name: '<i>evil</i>.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(hostile)),
    });
    // Another browser's rows match nothing here: they are listed under the folded "nothing to compare".
    await expect(page.getByTestId('compare-folded')).toContainText('<b id=injected>memory</b>');
    await expect(page.getByTestId('compare-folded')).toContainText('<script>alert(2)</script>');
    await expect(page.getByTestId('compare-status')).toContainText('<i>evil</i>.json');
    expect(await page.locator('#injected').count()).toBe(0);
    expect(await page.locator('img[src=x]').count()).toBe(0);
    expect(await page.locator('#compare-view i, #compare-view script').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  test('a file of the wrong shape, not JSON, or too big gets a message that says what is wrong', async ({
    page,
  }) => {
    const dialogs = forbidDialogs(page);
    const results = await runSmallPlan(page);
    await open(page);
    const status = page.getByTestId('compare-status');
    const load = (name: string, text: string) =>
      page
        .locator('#compare-file')
        .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });

    await load('wrong.json', JSON.stringify({ ...results, schema: 'storebench/results@9' }));
    await expect(status).toContainText(
      'wrong.json: $.schema: expected "storebench/results@1", got "storebench/results@9"',
    );
    await load(
      'samples.json',
      JSON.stringify({ ...results, cases: [{ ...results.cases[0], samples: ['fast'] }] }),
    );
    await expect(status).toContainText(
      'samples.json: $.cases[0].samples[0]: expected a finite number, got "fast"',
    );
    await load('page.json', '<!doctype html><script>alert(1)</script>');
    await expect(status).toContainText('page.json: not JSON');

    // Over the size cap: refused by its size, before it is read.
    const dir = mkdtempSync(join(tmpdir(), 'storebench-huge-'));
    try {
      const huge = join(dir, 'huge.json');
      writeFileSync(huge, ' '.repeat(64 * 1024 * 1024 + 1));
      await page.locator('#compare-file').setInputFiles(huge);
      await expect(status).toContainText(
        /huge\.json: \d+ bytes is larger than the \d+-byte limit for a results file; it was not read/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(page.locator('#compare-table')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test('compare with the same results passes; with samples 20% faster in the file, the run reads slower', async ({
    page,
  }) => {
    const results = await runSmallPlan(page);
    await open(page);
    await page.locator('#compare-file').setInputFiles({
      name: 'same.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(results)),
    });
    await expect(page.getByTestId('compare-status')).toContainText(
      'Against same.json: PASS: no row slower beyond 5%; this comparison would have caught',
    );
    // No change at all; whether its interval also rules out +5% depends on how noisy eight samples were.
    const row = page.locator('#compare-table tbody tr');
    await expect(row).toHaveCount(1);
    await expect(row.locator('td').nth(6)).toHaveText('±0.0%');
    await expect(row).toHaveAttribute('data-verdict', /^(same|undecided)$/);
    // One row is too few to measure how rows move between runs: the page says so, and adds nothing.
    await expect(page.getByTestId('run-to-run')).toContainText(
      `Run-to-run spread added to every row's interval: ${results.run.browser} none (1 row: too few to estimate it from, 10 needed)`,
    );

    // The file (the base) 20% faster means this page's run is 20% slower than it.
    const faster = structuredClone(results);
    for (const c of faster.cases) c.samples = c.samples.map((x) => x / 1.2);
    await page.locator('#compare-file').setInputFiles({
      name: 'faster.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(faster)),
    });
    const verdict = page.locator('#compare-table tbody tr').first();
    // Eight memory samples are noisy, so the row may not be shown slower (undecided); the change of the median is +20% either way.
    await expect(verdict.locator('td').nth(6)).toHaveText('+20.0%');
    await expect(verdict).toHaveAttribute('data-verdict', /^(slower|undecided)$/);
  });
});

test.describe('compare with… a base from results/', () => {
  test('lists the valid files of results/, and compares a run of the same engine with the chosen one, slower rows first', async ({
    page,
    request,
    browserName,
  }) => {
    const index = validateResultsIndex(
      await (await request.get('/results/index.json')).json(),
      'results/index.json',
    );
    // The committed default sweep of this engine (results/ also holds the driven suites' runs).
    const mine = index.files.find((f) =>
      f.documents?.some((d) => d.browser === browserName && d.suites.includes('insert')),
    );
    test.skip(!mine, `results/ holds no ${browserName} file with the insert suite`);
    await page.goto(
      '/?suites=insert&cases=bulk,serial&adapters=memory,idb&sizes=100&iterations=8&warmup=1&autorun=1',
    );
    const s = await settled(page);
    expect(s.status, s.error).toBe('done');
    await page.locator('#compare-view > summary').click();
    const valid = index.files.filter((f) => f.documents && f.documents.length > 0);
    await expect(page.locator('#compare-served option')).toHaveCount(valid.length + 1);
    await page.locator('#compare-served').selectOption(mine!.name);
    // The committed sweep ran both cases on both stores at 100 documents: all four rows are compared.
    await expect(page.getByTestId('compare-status')).toContainText(
      `Against results/${mine!.name}: `,
    );
    await expect(page.getByTestId('compare-status')).toContainText(
      'compared 4 of 4 rows ok in both',
    );
    const verdicts = await page
      .locator('#compare-table tbody tr')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-verdict')));
    const order = [
      'broke',
      'slower',
      'undecided',
      'status changed',
      'not comparable',
      'faster',
      'same',
    ];
    expect(verdicts.map((v) => order.indexOf(v ?? ''))).toEqual(
      [...verdicts.map((v) => order.indexOf(v ?? ''))].sort((a, b) => a - b),
    );
    // The explorer's facet filters narrow the rows: without idb, memory's two cases are left.
    await page.locator('#compare-view [data-facet=adapters] input[value=idb]').uncheck();
    await expect(page.locator('#compare-table tbody tr')).toHaveCount(2);
    await page.locator('#compare-view [data-facet=adapters] input[value=idb]').check();
    // The word filter narrows the table to the rows holding every word.
    await page.locator('#compare-filter').fill('idb serial');
    await expect(page.locator('#compare-table tbody tr')).toHaveCount(1);
  });
});
