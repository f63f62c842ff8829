/**
 * `npm run sweep -- --manual`: the sweep prints a URL and records whichever browser opens it.
 * The test plays the person: it reads the URL from the sweep's output and opens it in a
 * browser process of its own, started apart from the sweep.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '../../src/cli/drivers/discovery.ts';
import { parseResults } from '../../src/core/results/recompute.ts';
import { filesIn, signalGroup, startSweep } from './sweep-process.ts';

test('sweep manual - a browser started apart opens the printed URL, and its results are recorded', async () => {
  test.setTimeout(300_000);
  const found = findChromium();
  if (!found.found || !found.playwright)
    throw new Error(
      `this test opens the URL in Chromium, which is not found: ${found.found ? 'no launch settings' : found.why}`,
    );
  const out = mkdtempSync(join(tmpdir(), 'storebench-manual-'));
  const sweep = startSweep(
    [
      '--manual',
      '--wait-ms',
      '240000',
      '--suites',
      'insert',
      '--adapters',
      'memory,idb',
      '--sizes',
      '50',
      '--iterations',
      '2',
      '--out',
      out,
    ],
    280_000,
  );
  let browser: Browser | undefined;
  try {
    await sweep.waitForStdout(
      /Waiting up to 4:00 for a browser to open it; Ctrl-C stops\./,
      120_000,
    );
    const url = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\?\S*token=\S+)$/m.exec(sweep.stdout)?.[1];
    expect(url, sweep.stdout).toBeDefined();
    expect(sweep.stdout).toContain(
      'Note: the page listens on 127.0.0.1 only, so the URL opens on this machine.',
    );
    expect(url).not.toContain('browser='); // the page names itself from its user agent

    browser = await chromium.launch({
      executablePath: found.playwright.executablePath,
      args: found.playwright.args,
      headless: true,
    });
    const page = await browser.newPage();
    await page.goto(url as string);

    const run = await sweep.done;
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(/manual-chromium\s+done in /);
    expect(run.stdout).toMatch(/suite\s+case\s+adapter\s+size\s+manual-chromium/);

    const files = filesIn(out);
    const name = files.find((f) => f.endsWith('-manual-chromium.json'));
    expect(name, files.join(', ')).toBeDefined();
    const results = parseResults(readFileSync(join(out, name as string), 'utf8'), name);
    expect(results.run.browser).toBe('manual-chromium');
    expect(results.environment.browser.engine).toBe('Blink');
    expect(results.run.plan).toMatchObject({
      suites: ['insert'],
      adapters: ['memory', 'idb'],
      sizes: [50],
      iterations: 2,
    });
    expect(results.cases.length).toBeGreaterThan(0);
    expect(results.cases.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(files.some((f) => f.endsWith('.csv'))).toBe(true);
  } finally {
    await browser?.close();
    signalGroup(sweep.child, 'SIGKILL');
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep manual - with nobody opening the URL, the sweep gives up at --wait-ms and says so', async () => {
  test.setTimeout(120_000);
  const out = mkdtempSync(join(tmpdir(), 'storebench-manual-'));
  try {
    const run = await startSweep(
      [
        '--manual',
        '--wait-ms',
        '2000',
        '--no-build',
        '--suites',
        'insert',
        '--adapters',
        'memory',
        '--sizes',
        '50',
        '--out',
        out,
      ],
      110_000,
    ).done;
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
    expect(run.stdout).toMatch(
      /manual-browser\s+FAILED after .*\(stalled, 0 rows kept\): the page did not say hello within 2 s of printing the URL/,
    );
    expect(run.stdout).toContain('FAILED: manual-browser did not complete.');
    expect(filesIn(out)).toEqual([]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
