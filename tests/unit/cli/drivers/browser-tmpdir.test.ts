/**
 * Chromium under a long TMPDIR: the Playwright driver and the restartable browser (driven suites)
 * start it and load a page with TMPDIR set to a 60-character folder, where the browser's socket
 * below the sweep's own folders would be past the 108-byte limit of a Unix socket path. Starts a
 * real Chromium; skipped where there is none.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, type FoundBrowser } from '../../../../src/cli/drivers/discovery.ts';
import { drivePlaywright } from '../../../../src/cli/drivers/playwright.ts';
import { RestartableBrowser } from '../../../../src/cli/drivers/restartable.ts';
import { BrowserSession, defaultLimits } from '../../../../src/cli/server/session.ts';

const chromium = findChromium();
// At least 60 characters (exactly 60 unless the TMPDIR the tests run with is already long).
const LONG = join(tmpdir(), `sb-long-tmpdir-${process.pid}-`).padEnd(60, 'x');
let server: Server;
let origin = '';
const loaded: string[] = [];
let onLoaded = () => {};
const savedTmpdir = process.env.TMPDIR;

beforeAll(async () => {
  mkdirSync(LONG, { recursive: true });
  process.env.TMPDIR = LONG;
  server = createServer((req, res) => {
    if (req.url === '/loaded') {
      loaded.push(req.url);
      onLoaded();
    }
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>storebench tmpdir</title><script>fetch("/loaded")</script>');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  await new Promise((ok) => server.close(ok));
  rmSync(LONG, { recursive: true, force: true });
});

describe.skipIf(!chromium.found)('Chromium with a 60-character TMPDIR', () => {
  it('the folder is at least 60 characters long and is TMPDIR', () => {
    expect(LONG.length).toBeGreaterThanOrEqual(60);
    expect(process.env.TMPDIR).toBe(LONG);
  });

  it('the Playwright driver starts it and loads the page', async () => {
    const session = new BrowserSession('chromium', defaultLimits(60_000));
    onLoaded = () => session.end({ kind: 'cancelled', message: 'the page loaded' });
    const end = await drivePlaywright({
      browser: chromium as FoundBrowser,
      url: `${origin}/`,
      session,
      signal: new AbortController().signal,
    });
    expect(end).toMatchObject({ kind: 'cancelled', message: 'the page loaded' });
  }, 120_000);

  it('the restartable browser (driven suites) starts it, loads the page, and starts it again', async () => {
    const browser = new RestartableBrowser((chromium as FoundBrowser).playwright!);
    try {
      for (let start = 0; start < 2; start++) {
        const page = await browser.start(`${origin}/`);
        expect(await page.title()).toBe('storebench tmpdir');
        await browser.close();
      }
    } finally {
      await browser.dispose();
    }
  }, 180_000);
});
