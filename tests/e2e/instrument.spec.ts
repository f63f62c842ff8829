/**
 * The calibration instrument in a real browser. Its accounting first: on the real memory store,
 * with the browser's own clock, the waits it adds come to 10% of the calls' time (load can only
 * stretch a wait, and the waits after it are shorter by as much: it is what the instrument does). Then as a pair in the page, `memory@+10%` against
 * `memory`: each row is compared, with an interval, and the B/A it reads is recorded with the
 * test. How close to 1.10 that comes is a measurement, with its figures in docs/figures.md, not an
 * assertion: a 20-second pair in one launch is at the mercy of the machine (docs/figures.md, "A
 * against B", has what it read under load).
 */
import { expect, test } from '@playwright/test';
import { settled } from './page-state.ts';

test('instrument - in a real browser its waits add 10% of the calls, and memory@+10% is compared with memory', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/tests/e2e/blank.html');
  // The modules as the dev server serves them to the page: the test runs them in the browser.
  const accounting = await page.evaluate(
    async (paths) => {
      const { instrumentAdapter } = (await import(
        paths.instrument
      )) as typeof import('../../src/adapters/variants/instrument.ts');
      const { memoryAdapter } = (await import(
        paths.memory
      )) as typeof import('../../src/adapters/memory.ts');
      let callMs = 0;
      let spunMs = 0;
      // What the last wait went past its aim: the part not yet paid back by shorter waits after it.
      let pastMs = 0;
      const adapter = instrumentAdapter(memoryAdapter, 10, {
        onCall: (c: { callMs: number; spunMs: number; aimMs: number }) => (
          (callMs += c.callMs),
          (spunMs += c.spunMs),
          (pastMs = c.spunMs - c.aimMs)
        ),
      });
      const handle = await adapter.open('instrument-in-page');
      for (let i = 0; i < 300; i++)
        await handle.put({ _id: `d${String(i).padStart(5, '0')}`, n: i, text: 'x'.repeat(200) });
      for (let i = 0; i < 300; i++) await handle.get(`d${String(i).padStart(5, '0')}`);
      // A wait the machine preempted goes past its aim by the preemption, and the next calls pay it
      // back; on a loaded machine the last wait may be one, so read on until the carry is a clock step.
      for (let i = 0; pastMs > 0.1 && i < 100_000; i++)
        await handle.get(`d${String(i % 300).padStart(5, '0')}`);
      await handle.destroy();
      return { callMs, spunMs, pastMs };
    },
    { instrument: '/src/adapters/variants/instrument.ts', memory: '/src/adapters/memory.ts' },
  );
  expect(accounting.callMs).toBeGreaterThan(0);
  expect(accounting.pastMs).toBeLessThanOrEqual(0.1);
  // Within a tenth of a point: what one clock step of overshoot, carried to the next wait, leaves at the end.
  expect(accounting.spunMs / accounting.callMs).toBeGreaterThan(0.099);
  expect(accounting.spunMs / accounting.callMs).toBeLessThan(0.101 + 0.1 / accounting.callMs);

  await page.goto(
    '/?suites=insert,read&cases=bulk,get-batch&adapters=memory,memory@%2B10%25&sizes=1000&budget=20s&ab=5%25&autorun=1',
  );
  const s = await settled(page, 110_000);
  expect(s.status, s.error).toBe('done');
  const rows = s.results?.ab?.rows ?? [];
  expect(rows.map((r) => r.case).sort()).toEqual(['bulk', 'get-batch']);
  for (const r of rows) {
    expect(r.ratio, `${r.case}: no interval`).not.toBeNull();
    test.info().annotations.push({
      type: `B/A ${r.case}`,
      description: `${r.ratio?.ratio.toFixed(3)} [${r.ratio?.lo.toFixed(3)}, ${r.ratio?.hi.toFixed(3)}]`,
    });
  }
  // The page labels it what it is.
  await expect(page.locator('body')).toContainText('instrument');
});
