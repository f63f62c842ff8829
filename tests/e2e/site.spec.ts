/**
 * `npm run site -- results/*.json --out DIR`, served by a plain static server that sends no
 * special headers (a Node server in this file: content types only): the page opens, isolates
 * itself through its service worker, shows the explorer, the findings and the trends, runs a
 * 20-second plan on the visitor's side and offers its results file. One site, built once by the
 * first browser's run into test-results/ (which Playwright empties at every start), serves both.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { validateResults } from '../../src/core/results/recompute.ts';
import { download } from './download.ts';
import { settled } from './page-state.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SITE = join(ROOT, 'test-results', 'site-e2e');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
};

/** The site, built by the command a user runs, once for both browsers. */
function buildSite(): void {
  if (existsSync(join(SITE, 'index.html'))) return;
  const files = readdirSync(join(ROOT, 'results'))
    .filter((n) => n.endsWith('.json'))
    .map((n) => join('results', n));
  const run = spawnSync('npx', ['tsx', 'src/cli/commands/site.ts', ...files, '--out', SITE], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 300_000,
  });
  expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
}

/** A static server: the files as they are, their content type, nothing else (no COOP, no COEP). */
function serve(root: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    let file = resolve(root, `.${path}`);
    if (file.startsWith(root) && existsSync(file) && statSync(file).isDirectory())
      file = join(file, 'index.html');
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(server)));
}

let server: Server;
let origin: string;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  buildSite();
  server = await serve(SITE);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((done) => server.close(() => done())));

test('the static site isolates itself, shows explorer, findings and trends, runs a plan and offers its file', async ({
  page,
  channel,
}) => {
  test.setTimeout(180_000);
  const plan = 'suites=insert&cases=bulk&adapters=idb,memory&sizes=100&budget=20s';
  await page.goto(`${origin}/?${plan}`);
  // The service worker reloads the page once it controls it; then the page is isolated.
  // Asked during that reload, the old page is gone: that counts as not isolated yet.
  const isolated = () => page.evaluate(() => crossOriginIsolated).catch(() => false);
  await expect.poll(isolated, { timeout: 30_000 }).toBe(true);
  await expect(page.getByTestId('isolation')).toContainText('cross-origin isolated ✓');

  // The explorer opens each browser's newest run, with what it found, and the trends over all files.
  const browsers = new Set(
    readdirSync(join(SITE, 'results'))
      .filter((n) => n !== 'index.json')
      .map((n) => /-(chromium|firefox|webkit)\.json$/.exec(n)?.[1])
      .filter(Boolean),
  );
  await expect(page.locator('[data-testid=loaded-list] li')).toHaveCount(browsers.size);
  await expect(
    page.getByTestId('explorer').getByTestId('findings').locator('li').first(),
  ).toBeVisible();
  await expect(page.locator('[data-chart=history]')).toHaveAttribute('data-state', 'drawn', {
    timeout: 60_000,
  });
  await expect(page.locator('#trend-row option')).not.toHaveCount(0);

  // The visitor's own run, and its results file.
  await page.locator('#run').click();
  const done = await settled(page, 120_000);
  expect(done.status).toBe('done');
  const file = await download(page, '#download-json', channel === 'moz-firefox');
  expect(file.name).toMatch(/-[a-z]+\.json$/);
  const saved = validateResults(JSON.parse(file.text), file.name);
  expect(saved.environment.crossOriginIsolated).toBe(true);
  expect(
    saved.cases
      .filter((c) => c.status === 'ok')
      .map((c) => c.adapter)
      .sort(),
  ).toEqual(['idb', 'memory']);
});
