/**
 * The calibration instrument in a real browser. Its accounting first: on the real memory store,
 * with the browser's own clock, the waits it adds come to 10% of the calls' time (load cannot move
 * that: it is what the instrument does). Then as a pair in the page, `memory@+10%` against
 * `memory`: each row is compared, with an interval, and the B/A it reads is recorded with the
 * test. How close to 1.10 that comes is a measurement, with its figures in docs/figures.md, not an
 * assertion: on this machine under another engineer's load, a 20-second pair in one Firefox launch
 * read 0.91 for the bulk put, while quiet runs read within 2 points of 1.10.
 */
import { expect, test } from '@playwright/test';
import { settled } from './page-state.ts';

test('instrument - in a real browser its waits add 10% of the calls, and memory@+10% is compared with memory', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/tests/e2e/blank.html');
  // The modules as the dev server serves them to the page: the test runs them in the browser.
  const accounting = await page.evaluate(async (paths) => {
    const { instrumentAdapter } = (await import(paths.instrument)) as typeof import('../../src/adapters/instrument.ts');
    const { memoryAdapter } = (await import(paths.memory)) as typeof import('../../src/adapters/memory.ts');
    let callMs = 0;
    let spunMs = 0;
    const adapter = instrumentAdapter(memoryAdapter, 10, { onCall: (c: { callMs: number; spunMs: number }) => ((callMs += c.callMs), (spunMs += c.spunMs)) });
    const handle = await adapter.open('instrument-in-page');
    for (let i = 0; i < 300; i++) await handle.put({ _id: `d${String(i).padStart(5, '0')}`, n: i, text: 'x'.repeat(200) });
    for (let i = 0; i < 300; i++) await handle.get(`d${String(i).padStart(5, '0')}`);
    await handle.destroy();
    return { callMs, spunMs };
  }, { instrument: '/src/adapters/instrument.ts', memory: '/src/adapters/memory.ts' });
  expect(accounting.callMs).toBeGreaterThan(0);
  // Within a tenth of a point: what one clock step of overshoot, carried to the next wait, leaves at the end.
  expect(accounting.spunMs / accounting.callMs).toBeGreaterThan(0.099);
  expect(accounting.spunMs / accounting.callMs).toBeLessThan(0.101 + 0.1 / accounting.callMs);

  await page.goto('/?suites=insert,read&cases=bulk,get-batch&adapters=memory,memory@%2B10%25&sizes=1000&budget=20s&ab=5%25&autorun=1');
  const s = await settled(page, 110_000);
  expect(s.status, s.error).toBe('done');
  const rows = s.results?.ab?.rows ?? [];
  expect(rows.map((r) => r.case).sort()).toEqual(['bulk', 'get-batch']);
  for (const r of rows) {
    expect(r.ratio, `${r.case}: no interval`).not.toBeNull();
    test.info().annotations.push({ type: `B/A ${r.case}`, description: `${r.ratio?.ratio.toFixed(3)} [${r.ratio?.lo.toFixed(3)}, ${r.ratio?.hi.toFixed(3)}]` });
  }
  // The page labels it what it is.
  await expect(page.locator('body')).toContainText('instrument');
});
