/**
 * A page whose thread blocks for good: its watchdog Worker tells the sweep within the step's time
 * limit and the watchdog's grace, and the rows of the passes it finished are kept, not only the
 * rows it finished. The test plays the person of --manual, so it can give its own browser an init
 * script: after the page's first 'pass' message, the next IndexedDB put of a benchmark database
 * loops forever, as a store that never yields would.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '../../src/cli/drivers/discovery.ts';
import type { PartialFile } from '../../src/cli/files/output.ts';
import { PARTIAL_SCHEMA } from '../../src/core/schema/vocabulary.ts';
import { filesIn, signalGroup, startSweep } from './sweep-process.ts';

/** The session's silence limit without the watchdog: the step limit plus 90 s (session.defaultLimits). */
const SILENCE_LIMIT_MS = 3_000 + 90_000;

test('sweep hang - a page blocked in a step is reported by its watchdog at once, and keeps the rows of its finished passes', async () => {
  test.setTimeout(300_000);
  const found = findChromium();
  if (!found.found || !found.playwright)
    throw new Error(
      `this test opens the URL in Chromium, which is not found: ${found.found ? 'no launch settings' : found.why}`,
    );
  const out = mkdtempSync(join(tmpdir(), 'storebench-hang-'));
  const plan = [
    '--suites',
    'insert',
    '--cases',
    'bulk',
    '--adapters',
    'memory,idb',
    '--sizes',
    '50',
    '--budget',
    '9s',
    '--auto=passes:3',
    '--timeout-ms',
    '3000',
  ];
  const sweep = startSweep(['--manual', '--wait-ms', '240000', ...plan, '--out', out], 280_000);
  let browser: Browser | undefined;
  try {
    await sweep.waitForStdout(
      /Waiting up to 4:00 for a browser to open it; Ctrl-C stops\./,
      120_000,
    );
    const url = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?\S*token=\S+)$/m.exec(sweep.stdout)?.[1];
    expect(url, sweep.stdout).toBeDefined();
    browser = await chromium.launch({
      executablePath: found.playwright.executablePath,
      args: found.playwright.args,
      headless: true,
    });
    const page = await browser.newPage();
    await page.addInitScript(() => {
      let passSent = false;
      // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, which the patch calls with its own `this`
      const send = window.fetch;
      window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
        if (typeof init?.body === 'string' && init.body.includes('"type":"pass"')) passSent = true;
        return send.call(this, input, init);
      };
      // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, which the patch calls with its own `this`
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (
        this: IDBObjectStore,
        ...args: Parameters<typeof put>
      ) {
        // A loop the runner's own time limit cannot cut off: no timer runs while it spins.
        if (passSent && this.transaction.db.name.startsWith('storebench-')) for (;;);
        return put.apply(this, args);
      };
    });
    const opened = Date.now();
    await page.goto(url as string);

    const run = await sweep.done;
    const tookMs = Date.now() - opened;
    const log = `${run.stdout}\n${run.stderr}`;
    expect(run.code, log).toBe(1);
    expect(run.stdout).toMatch(
      /manual-chromium\s+FAILED after \S+ \(stalled, [1-9]\d* rows? kept\): the page's thread is blocked: a step is \d+ s past its 3 s time limit/,
    );
    // The whole run, hang included, ends before the silence limit alone would have let the sweep notice.
    expect(tookMs, log).toBeLessThan(SILENCE_LIMIT_MS);

    const partial = filesIn(out).find((f) => f.endsWith('-manual-chromium.partial.json'));
    expect(partial, filesIn(out).join(', ')).toBeDefined();
    const kept = JSON.parse(readFileSync(join(out, partial as string), 'utf8')) as PartialFile;
    expect(kept.schema).toBe(PARTIAL_SCHEMA);
    // Both rows sampled in the finished pass: idb's too, though it never finished a row.
    for (const adapter of ['memory', 'idb']) {
      const row = kept.cases.find((c) => c.adapter === adapter);
      expect(row, `${adapter}: ${JSON.stringify(kept.cases.map((c) => c.adapter))}`).toBeDefined();
      expect(row?.status).toBe('ok');
      expect(row?.samples.length).toBeGreaterThanOrEqual(2);
    }
  } finally {
    await browser?.close();
    signalGroup(sweep.child, 'SIGKILL');
    rmSync(out, { recursive: true, force: true });
  }
});
