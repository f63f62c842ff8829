import { expect, test, type Page } from '@playwright/test';
import { detectBrowser } from '../../src/core/run/environment.ts';
import { validateResults } from '../../src/core/results/recompute.ts';
import { CSV_COLUMNS } from '../../src/export/csv.ts';
import { download } from './download.ts';
import { settled, state, type PageState } from './page-state.ts';

async function choose(
  page: Page,
  name: 'suite' | 'adapter',
  values: readonly string[],
): Promise<void> {
  for (const box of await page.locator(`input[name=${name}]`).all()) {
    await box.setChecked(values.includes((await box.getAttribute('value')) ?? ''));
  }
}

/** Pixels with real colour (bars); axes, grid and labels are grey and do not count. */
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

test.describe('page - run', () => {
  test('runs insert on memory and an IndexedDB store, then draws, tabulates and exports', async ({
    page,
    channel,
  }, info) => {
    await page.goto('/');
    // The page names itself from its user agent: chromium, firefox, webkit.
    const label = detectBrowser(await page.evaluate(() => navigator.userAgent)).name.toLowerCase();
    const isolation = page.getByTestId('isolation');
    await expect(isolation).toContainText('cross-origin isolated ✓');
    await expect(isolation).toHaveText(/timer step \d+(\.\d+)? ms/);

    // idb is the plain IndexedDB store; include it when the registry has it, and say so when not.
    const listed = await page
      .locator('input[name=adapter]')
      .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
    const adapters = listed.filter((id) => id === 'memory' || id === 'idb'); // in registry order, as the URL lists them
    expect(adapters).toContain('memory');
    info.annotations.push({
      type: 'adapters',
      description: adapters.includes('idb')
        ? adapters.join(', ')
        : 'memory only: no idb adapter in the registry',
    });

    await choose(page, 'suite', ['insert']);
    await choose(page, 'adapter', adapters);
    // clear() first: over WebDriver BiDi (stock Firefox), fill() on a number input appends to
    // the old value ("5" becomes "53") instead of replacing it.
    await page.locator('#plan-sizes').clear();
    await page.locator('#plan-sizes').fill('100');
    // Adaptive sampling is the default, and its iterations field is disabled: a fixed 3 keeps the run short.
    await expect(page.locator('#plan-auto')).toBeChecked();
    await expect(page.locator('#plan-iterations')).toBeDisabled();
    await page.locator('#plan-budget').clear();
    await page.locator('#plan-budget').fill('90s');
    await expect(page).toHaveURL(/[?&]budget=1m30s(&|$)/);
    await page.locator('#plan-auto').uncheck();
    await expect(page.locator('#plan-budget')).toBeDisabled();
    await page.locator('#plan-iterations').clear();
    await page.locator('#plan-iterations').fill('3');
    await expect(page).toHaveURL(
      new RegExp(`suites=insert&adapters=${adapters.join('%2C')}&sizes=100&iterations=3`),
    );

    await page.locator('#run').click();
    await page.waitForFunction(
      () =>
        ((window as unknown as { __storebench?: PageState }).__storebench?.status ?? 'running') !==
        'running',
      null,
      { timeout: 90_000 },
    );
    const final = await state(page);
    expect(final.error).toBeUndefined();
    expect(final.status).toBe('done');

    for (const adapter of adapters) {
      const row = page
        .locator('#results-table tbody tr[data-status=ok]', {
          has: page.locator('td.adapter', { hasText: new RegExp(`^${adapter}$`) }),
        })
        .filter({ hasText: 'insert/serial' });
      await expect(row).toHaveCount(1);
      await expect(row.locator('td.num').nth(2)).toHaveText(/^\d[\d,.]*$/); // median (ms)
      await expect(row.locator('td.num').nth(3)).toHaveText(/^×\d+(\.\d+)?$/); // × fastest
      await expect(row.locator('td.num').nth(6)).toHaveText(/^\d[\d,.]*$/); // ops/s
      // 3 samples: too few for an interval of the median, and the row says so rather than show the mean's.
      await expect(row.locator('td.num').nth(4)).toHaveText('—');
      await expect(row.locator('td.reason')).toContainText(
        'no 95% CI of the median: fewer than 6 samples',
      );
    }
    await expect(page.getByTestId('run-summary')).toHaveText(
      /^Took \d+\.\d s\. Precision: the median row has no interval \(fewer than 6 samples\); 0 of \d+ ok rows within ±2%/,
    );
    await expect(page.getByTestId('progress-counter')).toHaveText(/^(\d+)\/\1 samples$/);

    expect(await colouredPixels(page, '.chart-size[data-size="100"] canvas')).toBeGreaterThan(500);

    // Only insert ran: the charts that the crash, cold, tabs and growth suites (or a throttled run)
    // would fill fold under one line that names them, and no empty chart panel shows. So do the
    // charts with little to draw: one size, and this run's medians, drawn under Results already.
    const explorer = page.getByTestId('explorer');
    await expect(explorer.locator('[data-chart=bars]')).toHaveAttribute('data-state', 'drawn');
    await expect(explorer.locator('[data-chart=boxplot]')).toHaveAttribute('data-state', 'drawn');
    await expect(explorer.locator('[data-chart=boxplot]')).toBeVisible();
    await expect(explorer.locator('figure[data-state=empty]:visible')).toHaveCount(0);
    await expect(explorer.locator('figure[data-little]:visible')).toHaveCount(0);
    await expect(explorer.getByTestId('folded-charts')).toBeVisible();
    await expect(explorer.getByTestId('folded-charts')).toContainText(
      'the growth, crash, cold and tabs suites',
    );
    await expect(explorer.getByTestId('folded-charts')).toContainText(
      'results at two sizes or more',
    );
    // This run alone: the browser comparison would be the results table again, and the change in
    // speed a table of one column; each folds under a line that says what it holds.
    await expect(explorer.getByTestId('comparison-fold')).not.toHaveAttribute('open');
    await expect(explorer.getByTestId('comparison-fold').locator('summary')).toContainText(
      'the results table above again',
    );
    await expect(explorer.getByTestId('ratio-fold')).not.toHaveAttribute('open');
    await expect(explorer.getByTestId('ratio-fold').locator('summary')).toContainText(
      /1 pair on \d stores?, .*× to .*× \(bulk vs one at a time \(insert\)\)/,
    );

    const viaLink = channel === 'moz-firefox';
    const json = await download(page, '#download-json', viaLink);
    expect(json.name).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ-[0-9a-f]{4}-${label}\\.json$`),
    );
    const results = validateResults(JSON.parse(json.text), json.name);
    expect(results.run.plan).toMatchObject({
      suites: ['insert'],
      adapters,
      sizes: [100],
      iterations: 3,
    });
    expect(results.run.cancelled).toBe(false);
    expect(results.environment.crossOriginIsolated).toBe(true);
    for (const adapter of adapters) {
      expect(results.cases.find((c) => c.adapter === adapter && c.case === 'serial')?.status).toBe(
        'ok',
      );
    }

    const csv = await download(page, '#download-csv', viaLink);
    expect(csv.name).toBe(json.name.replace(/\.json$/, '.csv'));
    const lines = csv.text.split('\r\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join(','));
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(1, -1)).toHaveLength(results.cases.length);
    expect(lines[1]).toMatch(new RegExp(`^${results.run.id},${label},`));
    // CSV for Excel: the same bytes after a byte-order mark.
    const excel = await download(page, '#download-csv-excel', viaLink);
    expect(excel.name).toBe(csv.name);
    expect(excel.text).toBe(`\uFEFF${csv.text}`);
  });

  test('the table shows each row’s factor to the fastest store, and folds unsupported stores into one line each', async ({
    page,
  }) => {
    await page.goto(
      '/?suites=insert&cases=bulk,serial&adapters=memory,idb,localforage-websql&sizes=50&iterations=6&warmup=0&autorun=1',
    );
    const s = await settled(page);
    expect(s.status, s.error).toBe('done');
    const table = page.locator('#results-table');
    // The fastest store of each case reads ×1.00; the others more, with the factor's 95% interval.
    await expect(table.locator('tr[data-adapter=memory] td.factor')).toHaveText(['×1.00', '×1.00']);
    for (const text of await table.locator('tr[data-adapter=idb] td.factor').allTextContents()) {
      const m = /^×(\S+) \[(\S+), (\S+)\]$/.exec(text);
      expect(m, text).not.toBeNull();
      const [factor, lo, hi] = (m ?? []).slice(1).map(Number) as [number, number, number];
      expect(factor).toBeGreaterThan(1);
      expect(lo).toBeLessThanOrEqual(factor);
      expect(hi).toBeGreaterThanOrEqual(factor);
    }
    // WebSQL is in no engine Playwright drives here: its two rows are one folded line, not two rows.
    await expect(table.locator('tr[data-adapter=localforage-websql]')).toHaveCount(0);
    await expect(page.getByTestId('table-unsupported')).toContainText(
      '2 unsupported rows, in 1 store',
    );
    await expect(page.getByTestId('table-unsupported').locator('li')).toContainText(
      'localforage-websql (2 cases): WebSQL',
    );
    await expect(page.getByTestId('table-factors')).toContainText(
      /Geometric mean .*: memory ×1\.00 \(2\), idb ×\d/,
    );
    // A click on a numeric header sorts the rows by it; a second click the other way.
    const medians = () =>
      table
        .locator('tbody tr[data-status=ok] td[data-label="Median (ms)"]')
        .evaluateAll((cells) => cells.map((c) => Number((c as HTMLElement).dataset.value)));
    await table.locator('button[data-sort]', { hasText: 'Median (ms)' }).click();
    const up = await medians();
    expect(up).toEqual([...up].sort((a, b) => a - b));
    await table.locator('button[data-sort]', { hasText: 'Median (ms)' }).click();
    const down = await medians();
    expect(down).toEqual([...up].reverse());
  });

  test('cancel stops the run and keeps the rows that finished', async ({ page }) => {
    await page.goto('/?suites=insert&adapters=memory&sizes=1000&iterations=500&warmup=0');
    await page.locator('#run').click();
    await expect(page.getByTestId('progress-counter')).toHaveText(/^[1-9]\d*\/\d+ samples$/);
    await page.locator('#cancel').click();
    await page.waitForFunction(
      () =>
        ((window as unknown as { __storebench?: PageState }).__storebench?.status ?? 'running') !==
        'running',
      null,
      { timeout: 60_000 },
    );
    const final = await state(page);
    expect(final.status).toBe('done');
    expect(final.results?.run.cancelled).toBe(true);
    await expect(page.locator('.progress')).toHaveAttribute('data-state', 'cancelled');
    await expect(page.locator('#download-json')).toBeEnabled();
  });
});

test.describe('page - bad URL', () => {
  test('an unknown adapter is named with the allowed ones, and the page falls back to defaults', async ({
    page,
  }) => {
    await page.goto('/?adapters=nope');
    const banner = page.locator('.banner-error');
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('adapters: unknown "nope"; allowed:');
    const ids = await page
      .locator('input[name=adapter]')
      .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
    expect(ids).toContain('memory');
    await expect(banner).toContainText(`allowed: ${ids.join(', ')}`);
    // Defaults: every adapter chosen but older versions of a store (ids with an @), and the page still works.
    for (const box of await page.locator('input[name=adapter]').all()) {
      if ((await box.inputValue()).includes('@')) await expect(box).not.toBeChecked();
      else await expect(box).toBeChecked();
    }
    await expect(page.locator('#run')).toBeEnabled();
    expect((await state(page)).status).toBe('idle');
  });
});

test.describe('page - phone width', () => {
  // The narrowest phone screens in use: there a label and an interval side by side are wider
  // than the screen, so the value must wrap, not widen the table.
  test.use({ viewport: { width: 320, height: 640 } });

  test('the stacked results table fits the screen, intervals included', async ({ page }) => {
    await page.goto(
      '/?suites=find&cases=count-all&adapters=memory,localstorage&sizes=100&budget=5s&autorun=1',
    );
    const s = await settled(page);
    expect(s.status, s.error).toBe('done');
    for (const cell of await page
      .locator('#results-table td[data-label="95% CI of median (ms)"]')
      .all())
      await expect(cell).toHaveText(/\d – \d/);
    const box = page.locator('#results-table').locator('xpath=..');
    const { client, scroll } = await box.evaluate((el) => ({
      client: el.clientWidth,
      scroll: el.scrollWidth,
    }));
    expect(
      scroll,
      'the table is wider than its box, so values are cut off at the right',
    ).toBeLessThanOrEqual(client);
  });
});
