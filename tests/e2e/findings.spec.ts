import { expect, test } from '@playwright/test';
import { settled } from './page-state.ts';

/**
 * "What this run found" at the top of the Results after a short run of the two paging cases on
 * two IndexedDB stores: a startkey-over-skip line per store with its ratio, interval and verdict,
 * the same sentence as the results file's findings, also in the explorer the run is added to, and
 * at phone width a list that fits the screen.
 */
// Twelve samples a row, so that every row has an interval of its median however busy the machine (a 15 s budget over a loaded
// machine left a row of PouchDB with fewer than 6), at 1,000 documents, where a page takes many timer steps.
const PLAN =
  '/?suites=paginate&cases=ref-skip,ref-startkey&adapters=pouchdb-idb,idb&sizes=1000&iterations=12&warmup=1&autorun=1';
const STORES = ['pouchdb-idb', 'idb'];
const LINE = (store: string, browser: string) =>
  new RegExp(
    `^startkey paging is \\d+(\\.\\d+)?× \\[\\d+(\\.\\d+)?, \\d+(\\.\\d+)?\\] (faster than|as fast as) skip/limit paging .*on ${store} in ${browser}: (holds|reversed|undecided)$`,
  );

test('page - what this run found: a startkey-over-skip line per store, with a ratio, an interval and a verdict, at any width', async ({
  page,
}) => {
  await page.goto(PLAN);
  // A cold dev server takes a while to serve the page's modules: wait for them before reading the run's state.
  await page.waitForFunction(() => '__storebench' in window, null, { timeout: 60_000 });
  const done = await settled(page, 110_000);
  expect(done.status, done.error).toBe('done');
  const results = done.results!;
  const browser = results.run.browser;

  const list = page.locator('section[aria-labelledby="results-heading"]').getByTestId('findings');
  await expect(list).toBeVisible();
  await expect(list.getByRole('heading', { name: 'What this run found' })).toBeVisible();
  // It comes before the chart and the table of the Results.
  expect(
    await list.evaluate(
      (el) =>
        el.compareDocumentPosition(document.getElementById('table')!) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ),
  ).toBeTruthy();
  for (const store of STORES) {
    const line = list.locator(`li[data-finding="startkey-over-skip"][data-store="${store}"]`);
    await expect(line).toHaveCount(1);
    await expect(line).toHaveText(LINE(store, browser));
    // The sentence the results file carries for the same store, recomputed by the page from the rows.
    const inFile = results.findings?.find(
      (f) => f.finding === 'startkey-over-skip' && f.store === store,
    );
    expect(inFile?.text).toBe(await line.textContent());
    expect(['holds', 'reversed', 'undecided']).toContain(await line.getAttribute('data-verdict'));
  }
  // The fastest store of each case, too.
  await expect(list.locator('li[data-finding="fastest:paginate/ref-skip"]')).toHaveCount(1);

  // The explorer the run is added to lists the same findings.
  const explored = page.getByTestId('explorer').getByTestId('findings');
  await expect(explored.locator('li[data-finding="startkey-over-skip"]')).toHaveCount(
    STORES.length,
  );

  // At phone width the list wraps inside the screen: nothing in it is wider than it, and it is no wider than the page.
  await page.setViewportSize({ width: 390, height: 844 });
  await list.scrollIntoViewIfNeeded();
  const fits = await list.evaluate((el) => {
    const items = [...el.querySelectorAll('li, summary, p, h3')] as HTMLElement[];
    return {
      list: el.scrollWidth <= el.clientWidth,
      right: el.getBoundingClientRect().right <= window.innerWidth,
      items: items.filter((i) => i.scrollWidth > i.clientWidth + 1).map((i) => i.textContent),
    };
  });
  expect(fits).toEqual({ list: true, right: true, items: [] });
  for (const store of STORES)
    await expect(
      list.locator(`li[data-finding="startkey-over-skip"][data-store="${store}"]`),
    ).toBeVisible();
});
