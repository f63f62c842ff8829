/**
 * `npm run sweep -- --remote URL`: a browser someone else started, reached over the network.
 * Both kinds are started here on loopback, the way a CI service would run them: a Playwright
 * browser server (ws://), and a bare WebDriver endpoint (http://, WebKitWebDriver: one driver,
 * no grid in front of it). The sweep must use them like local browsers and leave them running:
 * they are not its own. A real Selenium Grid is sweep-grid.spec.ts's.
 */
import { expect, test } from '@playwright/test';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserServer } from 'playwright-core';
import { findChromium, findWebKit } from '../../src/cli/drivers/discovery.ts';
import { parseResults } from '../../src/core/results/recompute.ts';
import { alive, filesIn, freePort, REPO_ROOT, sweep } from './sweep-process.ts';

test.describe.configure({ mode: 'serial' });

/** Wait until something answers HTTP at `url`. */
async function answers(url: string, ms: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch (e) {
      if (Date.now() - t0 > ms)
        throw new Error(`nothing answered at ${url} within ${ms} ms: ${String(e)}`, {
          cause: e,
        });
      await new Promise((ok) => setTimeout(ok, 200));
    }
  }
}

test('sweep remote - ws:// connects to a Playwright browser server; its shard is recorded and merges', async () => {
  test.setTimeout(300_000);
  const found = findChromium();
  if (!found.found || !found.playwright)
    throw new Error(
      `this test starts a Chromium browser server, and Chromium is not found: ${found.found ? 'no launch settings' : found.why}`,
    );
  const out = mkdtempSync(join(tmpdir(), 'storebench-remote-'));
  let server: BrowserServer | undefined;
  try {
    server = await chromium.launchServer({
      executablePath: found.playwright.executablePath,
      args: found.playwright.args,
      host: '127.0.0.1',
      headless: true,
    });
    const run = await sweep(
      [
        '--remote',
        server.wsEndpoint(),
        '--shard',
        '2/2',
        '--suites',
        'insert',
        '--adapters',
        'memory',
        '--sizes',
        '50,100',
        '--iterations',
        '2',
        '--out',
        out,
      ],
      280_000,
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(
      /chromium: chromium \(remote\) remote, driven by Playwright connect to the chromium browser server at ws:\/\/127\.0\.0\.1:\d+\//,
    );
    expect(run.stdout).toContain('plan: shard 2/2 of the case groups');

    const name = filesIn(out).find((f) => f.endsWith('-chromium.json'));
    expect(name, filesIn(out).join(', ')).toBeDefined();
    const path = join(out, name as string);
    const results = parseResults(readFileSync(path, 'utf8'), name);
    expect(results.environment.browser.engine).toBe('Blink');
    // Where it ran, without the endpoint's path: that path is what lets anyone connect.
    expect(results.environment.driver).toEqual({
      kind: 'playwright',
      remote: new URL(server.wsEndpoint()).origin,
    });
    expect(results.run.plan.shard).toEqual({ index: 2, count: 2 });
    // Half of the case groups: each size is dealt round-robin, so both sizes are in this shard.
    const all = new Set(results.cases.map((c) => `${c.case}@${c.size}`));
    expect(results.cases.length).toBeGreaterThan(0);
    expect(new Set(results.cases.map((c) => c.size))).toEqual(new Set([50, 100]));
    expect(all.size).toBe(results.cases.length);
    expect(results.cases.filter((c) => c.status !== 'ok')).toEqual([]);
    // The browser server is someone else's: the sweep disconnected and left it running.
    expect(server.process().exitCode).toBeNull();

    // npm run merge takes the shard file and says which shard the set still lacks.
    const merged = join(out, 'merged.json');
    const merge = spawnSync('npm', ['run', '--silent', 'merge', '--', path, '--out', merged], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(merge.status, merge.stdout + merge.stderr).toBe(0);
    expect(merge.stdout).toContain(
      `chromium: 1 document (2/2), ${results.cases.length} rows; MISSING shard 1/2: their rows are not in the set`,
    );
    const set = JSON.parse(readFileSync(merged, 'utf8')) as unknown[];
    expect(set).toHaveLength(1);
  } finally {
    await server?.close();
    rmSync(out, { recursive: true, force: true });
  }
});

test('sweep remote - http:// drives a bare WebDriver endpoint (WebKitWebDriver, no grid)', async () => {
  test.setTimeout(300_000);
  const webkit = findWebKit();
  const local = webkit.found && webkit.webdriver?.kind === 'local' ? webkit.webdriver : undefined;
  if (!local)
    throw new Error(
      `this test starts WebKitWebDriver as a WebDriver endpoint, and it is not found: ${webkit.found ? webkit.how : webkit.why}`,
    );
  const port = await freePort();
  const out = mkdtempSync(join(tmpdir(), 'storebench-remote-'));
  // The X authority file in a folder of the test's own: xvfb-run's own folder outlives a SIGKILL.
  const xauth = mkdtempSync(join(tmpdir(), 'storebench-xvfb-'));
  const [cmd, args] = local.needsXvfb
    ? ['xvfb-run', ['-a', '-f', join(xauth, 'Xauthority'), local.driverBinary, `--port=${port}`]]
    : [local.driverBinary, [`--port=${port}`]];
  // Its own process group, so the test stops all of it (Xvfb, the driver, the browser) at the end.
  const driver = spawn(cmd, args, {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, ...local.env },
  });
  try {
    const endpoint = `http://127.0.0.1:${port}`;
    await answers(`${endpoint}/status`, 30_000);
    const run = await sweep(
      [
        '--remote',
        endpoint,
        '--browsers',
        'webkit',
        '--suites',
        'insert',
        '--adapters',
        'memory,pouchdb-idb',
        '--sizes',
        '50',
        '--iterations',
        '2',
        '--out',
        out,
      ],
      280_000,
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain(
      `webkit: webkit (remote) remote, driven by WebDriver at ${endpoint}/, browserName MiniBrowser`,
    );
    // The page is on loopback: the sweep warns that a grid elsewhere could not reach it.
    expect(run.stdout).toContain('pass --host <an address of this machine they can reach>');
    const name = filesIn(out).find((f) => f.endsWith('-webkit.json'));
    const results = parseResults(readFileSync(join(out, name as string), 'utf8'), name);
    expect(results.environment.browser.engine).toBe('WebKit');
    // A bare driver names no grid node.
    expect(results.environment.driver).toEqual({ kind: 'webdriver', remote: endpoint });
    // PouchDB's idb adapter runs in WebKitGTK (src/adapters/pouchdb/idb-blob-probe.ts has why it used to hang).
    expect(results.cases.filter((c) => c.status !== 'ok')).toEqual([]);
    expect(results.cases.some((c) => c.adapter === 'pouchdb-idb')).toBe(true);
    // The endpoint is someone else's: still up after the sweep.
    expect(alive(driver.pid as number)).toBe(true);
  } finally {
    try {
      process.kill(-(driver.pid as number), 'SIGKILL');
    } catch {
      /* gone */
    }
    rmSync(out, { recursive: true, force: true });
    rmSync(xauth, { recursive: true, force: true });
  }
});
