import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import readXlsxFile from 'read-excel-file/node';
import { expect, test, type Page } from '@playwright/test';
import type { ResultsFile } from '../../src/core/results/results.ts';
import { validateResults } from '../../src/core/results/recompute.ts';
import { validateResultsIndex } from '../../src/core/results/input.ts';
import { CSV_COLUMNS } from '../../src/export/csv.ts';

/** Two real runs (Chromium and Firefox), trimmed to insert, paginate, views and growth on three stores. */
const FIXTURES = ['chromium', 'firefox'].map((b) =>
  fileURLToPath(new URL(`./fixtures/results-${b}.json`, import.meta.url)),
);
const docs = FIXTURES.map((f) => validateResults(JSON.parse(readFileSync(f, 'utf8')), f));
const CHART_KINDS = ['bars', 'boxplot', 'scaling', 'histogram', 'growth'] as const;

/** Pixels with real colour (bars, lines); axes, grid and labels are grey and do not count. */
async function colouredPixels(page: Page, selector: string): Promise<number> {
  return page
    .locator(selector)
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d');
      if (!ctx) return 0;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
        if (a > 100 && Math.max(r, g, b) - Math.min(r, g, b) > 40) n++;
      }
      return n;
    });
}

async function openFixtures(page: Page): Promise<void> {
  await page.goto('/');
  await page.locator('#explorer-file').setInputFiles(FIXTURES);
  await expect(page.locator('[data-testid=loaded-list] li')).toHaveCount(2);
}

/** Rows of the comparison as the fixtures define them: suite/case/adapter/size. */
function rowKeys(list: readonly ResultsFile[]): Set<string> {
  return new Set(
    list.flatMap((d) => d.cases.map((c) => `${c.suite}/${c.case}/${c.adapter}/${c.size}`)),
  );
}

test.describe('explorer - two files', () => {
  test('compares the browsers, draws every chart kind, and sorts and filters from the URL', async ({
    page,
  }) => {
    await openFixtures(page);
    const table = page.locator('#comparison-table');
    await expect(table.locator('thead th')).toHaveText(
      ['Suite', 'Case', 'Adapter', 'Size', 'chromium', 'firefox'].map((t) => new RegExp(`^${t}`)),
    );
    await expect(table.locator('tbody tr')).toHaveCount(rowKeys(docs).size);

    // One known row: the median in each browser column is the file's own, formatted.
    const row = table.locator('tbody tr[data-row="paginate/ref-skip/idb/1000"]');
    for (const [i, browser] of ['chromium', 'firefox'].entries()) {
      const c = docs[i]!.cases.find(
        (x) =>
          x.suite === 'paginate' && x.case === 'ref-skip' && x.adapter === 'idb' && x.size === 1000,
      );
      expect(c?.status).toBe('ok');
      await expect(row.locator(`td[data-col=${browser}] .median`)).toHaveText(/^\d[\d,.]*$/);
    }

    for (const kind of CHART_KINDS) {
      const figure = page.locator(`[data-chart=${kind}]`);
      await expect(figure, kind).toHaveAttribute('data-state', 'drawn');
      expect(await colouredPixels(page, `[data-chart=${kind}] canvas`), kind).toBeGreaterThan(300);
    }
    // The change-in-speed table pairs startkey with skip/limit, persisted with temporary views, bulk with serial.
    for (const pair of [
      'paginate/ref-startkey/ref-skip',
      'views/persisted/temp',
      'insert/bulk/serial',
    ]) {
      await expect(
        page.locator(`#ratio-table tbody tr[data-pair="${pair}"]`).first(),
        pair,
      ).toBeVisible();
    }
    await expect(page.locator('#ratio-table td[data-speedup]').first()).toHaveText(
      /^\d+(\.\d+)?×$/,
    );

    // A click on a row shows that case in the charts, and the choice goes into the URL.
    await page
      .locator('tbody tr[data-row="views/temp/pouchdb-indexeddb/200"] td[data-col=firefox]')
      .click();
    await expect(page.locator('#chart-choice-case')).toHaveValue('views/temp');
    await expect(page.locator('#chart-choice-browser')).toHaveValue('firefox');
    await expect(page).toHaveURL(/chart-case=views%2Ftemp/);
    await expect(
      page.locator('[data-chart=histogram] figcaption, [data-chart=histogram] .figure-caption'),
    ).toContainText('pouchdb-indexeddb, views/temp at 200 documents in firefox');

    // Sort by the chromium column: medians ascend, rows without one last.
    await page.locator('button[data-sort="col:chromium"]').click();
    await expect(page.locator('th[aria-sort=ascending]')).toHaveText(/chromium/);
    const medians = await page
      .locator('#comparison-table tbody td[data-col=chromium][data-status=ok] .median')
      .allTextContents();
    const values = medians.map((t) => Number(t.replace(/,/g, '')));
    expect(values).toEqual([...values].sort((a, b) => a - b));

    // Filter out a browser and a size.
    await page.locator('[data-facet=browsers] input[value=firefox]').uncheck();
    await page.locator('[data-facet=sizes] input[value="200"]').uncheck();
    await expect(table.locator('thead th')).toHaveCount(5);
    await expect(page).toHaveURL(/filter-browsers=chromium/);
    await expect(page).toHaveURL(/filter-sizes=1000/);
    await expect(page).toHaveURL(/sort=col%3Achromium/);
    const left = [...rowKeys(docs)].filter((k) => k.endsWith('/1000')).length;
    await expect(table.locator('tbody tr')).toHaveCount(left);
  });

  test('downloads CSV, XLSX and a chart PNG of what is shown, and copies TSV', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openFixtures(page);

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#explorer-csv').click(),
    ]);
    expect(csv.suggestedFilename()).toBe('storebench-2-runs.csv');
    const lines = readFileSync(await csv.path(), 'utf8').split('\r\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines.slice(1, -1)).toHaveLength(docs[0]!.cases.length + docs[1]!.cases.length);
    const medianAt = CSV_COLUMNS.indexOf('median_ms');
    const first = docs[0]!.cases[0]!;
    expect(first.status).toBe('ok');
    expect(Number(lines[1]!.split(',')[medianAt])).toBe(
      first.status === 'ok' ? first.stats.median : NaN,
    );

    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('#explorer-xlsx').click(),
    ]);
    expect(xlsx.suggestedFilename()).toBe('storebench-2-runs.xlsx');
    const sheets = await readXlsxFile(await xlsx.path());
    expect(sheets.map((s) => s.sheet)).toEqual([
      'insert',
      'paginate',
      'views',
      'growth',
      'environment',
      'findings',
    ]);
    const paginate = sheets[1]!.data;
    expect(paginate[0]?.slice(0, 4)).toEqual(['run_id', 'browser', 'suite', 'case']);
    expect(paginate).toHaveLength(
      1 + docs.reduce((n, d) => n + d.cases.filter((c) => c.suite === 'paginate').length, 0),
    );
    expect(typeof paginate[1]?.[paginate[0]!.indexOf('size')]).toBe('number');
    expect(sheets[4]!.data.map((r) => r[1])).toEqual(['browser', 'chromium', 'firefox']);

    const [png] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-testid=png-bars]').click(),
    ]);
    expect(png.suggestedFilename()).toMatch(/^storebench-bars-.+\.png$/);
    expect(readFileSync(await png.path()).subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );

    await page.locator('#explorer-tsv').click();
    await expect(page.getByTestId('export-status')).toContainText('Copied');
    const tsv = await page.evaluate(() => navigator.clipboard.readText());
    expect(tsv.split(/\r?\n/)[0]).toBe(CSV_COLUMNS.join('\t'));
  });
});

/** Real runs of the driven suites in Chromium (crash, cold, tabs), trimmed to a few stores, and a throttled run with its unthrottled pair. */
const fixture = (name: string) =>
  fileURLToPath(new URL(`./fixtures/${name}.json`, import.meta.url));
const DRIVEN = ['crash-chromium', 'cold-chromium', 'tabs-chromium'].map(fixture);
const THROTTLED = ['insert-chromium-x1', 'insert-chromium-x4'].map(fixture);

test.describe('explorer - driven suites and throttling', () => {
  test('draws lost writes per mode, cold against warm and throughput against tabs from real runs', async ({
    page,
  }) => {
    await page.goto('/');
    await page.locator('#explorer-file').setInputFiles(DRIVEN);
    await expect(page.locator('[data-testid=loaded-list] li')).toHaveCount(3);
    for (const kind of ['crash', 'cold', 'tabs']) {
      await expect(page.locator(`[data-chart=${kind}]`), kind).toHaveAttribute(
        'data-state',
        'drawn',
      );
      expect(await colouredPixels(page, `[data-chart=${kind}] canvas`), kind).toBeGreaterThan(300);
    }
    // Nothing throttled is loaded: that chart says what it needs.
    await expect(page.locator('[data-chart=throttle]')).toHaveAttribute('data-state', 'empty');
    await expect(page.locator('[data-chart=throttle]')).toContainText(
      'Load a run with --cpu-throttle N and an unthrottled run of the same browser',
    );
    await expect(page.locator('[data-chart=crash]')).toContainText(
      'chromium, 100 documents per kill',
    );
    await expect(page.locator('[data-chart=crash]')).toContainText('95% Wilson interval');
    await expect(page.locator('[data-chart=cold]')).toContainText(
      'Restart: after the browser was closed and started again on the same profile',
    );
  });

  test('draws throttled against not from a --cpu-throttle run and an unthrottled one, in columns of their own', async ({
    page,
  }) => {
    await page.goto('/');
    await page.locator('#explorer-file').setInputFiles(THROTTLED);
    await expect(page.locator('[data-testid=loaded-list] li')).toHaveCount(2);
    await expect(page.locator('#comparison-table thead th')).toHaveText([
      'Suite',
      'Case',
      'Adapter',
      'Size',
      /^chromium/,
      /^chromium/,
    ]);
    await expect(page.locator('[data-chart=throttle]')).toHaveAttribute('data-state', 'drawn');
    expect(await colouredPixels(page, '[data-chart=throttle] canvas')).toBeGreaterThan(300);
    await expect(page.locator('[data-chart=throttle]')).toContainText(
      'with CPU throttling ×4 over the median without',
    );
  });
});

test.describe('explorer - sources', () => {
  test('lists results/ at start and opens files named in ?results=', async ({ page, request }) => {
    const index = validateResultsIndex(
      await (await request.get('/results/index.json')).json(),
      'results/index.json',
    );
    const good = index.files.filter((f) => f.error === undefined);
    test.skip(good.length < 2, 'results/ holds fewer than two valid files');
    await page.goto('/');
    // The listing checks every file in results/ (38 of them, some of 1 MB): seconds on a loaded machine.
    await expect(page.locator('[data-testid=served-list] input[name=served]')).toHaveCount(
      index.files.length,
      { timeout: 30_000 },
    );
    const names = good.slice(0, 2).map((f) => f.name);
    await page.goto(`/?results=${names.join(',')}&chart-log=1`);
    await expect(page.locator('[data-testid=loaded-list] li')).toHaveCount(2);
    for (const name of names)
      await expect(page.locator(`[data-testid=served-list] input[value="${name}"]`)).toBeChecked();
    await expect(page.locator('#chart-choice-log')).toBeChecked();
    for (const kind of CHART_KINDS)
      await expect(page.locator(`[data-chart=${kind}]`)).toHaveAttribute(
        'data-state',
        /drawn|empty/,
      );
    // With files open, the list folds under a line that counts them; opened, it is the same list.
    const fold = page.getByTestId('served-fold');
    await expect(fold).not.toHaveAttribute('open');
    await expect(fold.locator('summary')).toContainText(`${index.files.length} files`);
    await expect(fold.locator('summary')).toContainText('2 open');
    await fold.locator('summary').click();
    // Unticking a file drops it from the view and from the link.
    await page.locator(`[data-testid=served-list] input[value="${names[1]}"]`).uncheck();
    await expect(page.locator('[data-testid=loaded-list] li')).toHaveCount(1);
    await expect(page).toHaveURL(new RegExp(`results=${names[0]}(&|$)`));
  });

  test('takes dropped files, names a bad file with its field, and never reads file text as HTML', async ({
    page,
  }) => {
    await page.goto('/');
    const hostile = structuredClone(docs[0]!);
    hostile.run.browser = '<img src=x onerror="window.__pwned=1">';
    // Each row a store of its own, as a document holds each row once.
    hostile.cases = hostile.cases.slice(0, 3).map((c, i) => ({
      ...c,
      title: '<b id="injected">bold</b>',
      adapter: `<script>window.__pwned=1</script>${'_'.repeat(i)}`,
    }));
    const bad = structuredClone(docs[1]!) as unknown as { cases: { samples: unknown[] }[] };
    bad.cases[0]!.samples[0] = 'fast';
    await page.evaluate(
      ([hostileText, badText]: [string, string]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([hostileText], 'hostile.json', { type: 'application/json' }));
        dt.items.add(new File([badText], 'bad.json', { type: 'application/json' }));
        const panel = document.getElementById('explorer-panel')!;
        panel.dispatchEvent(
          new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }),
        );
        panel.dispatchEvent(
          new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }),
        );
      },
      [JSON.stringify(hostile), JSON.stringify(bad)] as [string, string],
    );
    await expect(page.getByTestId('load-errors')).toContainText(
      'bad.json: $.cases[0].samples[0]: expected a finite number, got "fast"',
    );
    await expect(page.locator('[data-testid=loaded-list] li')).toHaveCount(1);
    await expect(page.locator('#comparison-table thead')).toContainText(
      '<img src=x onerror="window.__pwned=1">',
    );
    await expect(page.locator('#comparison-table tbody')).toContainText(
      '<script>window.__pwned=1</script>',
    );
    await expect(page.locator('#injected')).toHaveCount(0);
    await expect(page.locator('#explorer-panel img, #explorer-panel script')).toHaveCount(0);
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
  });

  test('shows the study report for study results it opens, framed so that it runs nothing', async ({
    page,
  }) => {
    await page.goto('/');
    // The fixture's paginate rows, tagged as npm run study tags a part, with a hostile browser name.
    const tagged = structuredClone(docs[0]!);
    tagged.run.plan = { ...tagged.run.plan, study: 'pouchdb-2.2/paging' };
    tagged.run.browser = 'chromium<script>window.__pwned=1</script>';
    await page.locator('#explorer-file').setInputFiles([
      {
        name: 'study-paging.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(tagged)),
      },
      {
        name: 'plain.json',
        mimeType: 'application/json',
        buffer: Buffer.from(JSON.stringify(docs[1])),
      },
    ]);
    const report = page.locator('details.study-report[data-study="pouchdb-2.2"]');
    await expect(report.locator('summary')).toContainText(
      'Study report: PouchDB 2.2.0 performance report (',
    );
    await report.locator('summary').click();
    await expect(report.locator('iframe')).toHaveAttribute('sandbox', '');
    const frame = page.frameLocator('.study-report-frame');
    await expect(frame.locator('h1')).toHaveText(
      'PouchDB 2.2.0 performance report: storebench report',
    );
    await expect(frame.locator('body')).toContainText('61.32');
    await expect(frame.locator('body')).toContainText('chromium<script>window.__pwned=1</script>');
    await expect(frame.locator('script')).toHaveCount(0);
    expect(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    // Files of no study show no report.
    await page
      .locator('[data-testid=loaded-list] li', { hasText: 'study-paging.json' })
      .getByRole('button')
      .click();
    await expect(page.locator('#comparison-table')).toBeVisible();
    await expect(page.getByTestId('study-reports')).toBeHidden();
  });

  test('the run just finished joins the explorer', async ({ page }) => {
    await page.goto('/?suites=insert&adapters=memory&sizes=100&iterations=2&warmup=0');
    await page.locator('#run').click();
    await page.waitForFunction(
      () =>
        (window as unknown as { __storebench?: { status: string } }).__storebench?.status ===
        'done',
      null,
      { timeout: 60_000 },
    );
    await expect(page.locator('[data-testid=loaded-list] li')).toContainText('this run');
    await expect(
      page.locator('#comparison-table tbody tr[data-row="insert/serial/memory/100"]'),
    ).toHaveCount(1);
  });

  test('after a run started from the URL (autorun), results/ is listed too', async ({
    page,
    request,
  }) => {
    const index = validateResultsIndex(
      await (await request.get('/results/index.json')).json(),
      'results/index.json',
    );
    await page.goto(
      '/?suites=insert&cases=bulk&adapters=memory&sizes=100&iterations=2&warmup=0&autorun=1',
    );
    await page.waitForFunction(
      () =>
        (window as unknown as { __storebench?: { status: string } }).__storebench?.status ===
        'done',
      null,
      { timeout: 60_000 },
    );
    await expect(page.locator('[data-testid=loaded-list] li')).toContainText('this run');
    await expect(page.locator('[data-testid=served-list] input[name=served]')).toHaveCount(
      index.files.length,
    );
  });
});
