/**
 * Playwright driver: Chromium (Playwright's build, Debian's, or Chrome and Edge through their
 * channels), Firefox (Playwright's build, or a stock Firefox over WebDriver BiDi with channel
 * 'moz-firefox'; see docs/browsers.md, "Browsers on this kind of machine"), Playwright's WebKit, and a remote Playwright browser server
 * (`--remote ws://...`), which is connected to instead of launched.
 */
import { rmSync } from 'node:fs';
import {
  chromium,
  firefox,
  webkit,
  type Browser,
  type BrowserContext,
  type Page,
} from 'playwright-core';
import { errorMessage, withTimeout } from '../../core/base/errors.ts';
import { PAGE_QUERY } from '../../core/run/collector.ts';
import { planFieldsFromQuery } from '../../core/plan/url.ts';
import { redactUrl, type PlaywrightLaunch } from './discovery.ts';
import type { RunEnd } from '../server/session.ts';
import { makeTempFolder } from '../files/temp.ts';
import { engineSettingsForUrl, type EngineSettings } from './engine-settings.ts';
import { describePageState, LastLines, once, withDetails, type DriveRequest } from './driver.ts';

/** How long a browser may take to start, and a page to load, on a loaded machine. */
export const LAUNCH_TIMEOUT_MS = 60_000;
export const GOTO_TIMEOUT_MS = 60_000;
const CLOSE_TIMEOUT_MS = 20_000;

/** Connect to the browser server (`--remote`), or launch the browser with its own TMPDIR. */
function startBrowser(
  how: PlaywrightLaunch,
  browserTmp: string | undefined,
  settings: EngineSettings,
): Promise<Browser> {
  const type = { chromium, firefox, webkit }[how.engine];
  if (how.connect)
    return type.connect(how.connect, {
      timeout: LAUNCH_TIMEOUT_MS,
      // The browser server tunnels the browser's requests for loopback addresses back
      // through this connection, so a browser on another machine reaches the sweep's
      // server on 127.0.0.1 without --host.
      exposeNetwork: '<loopback>',
    });
  return type.launch({
    executablePath: how.executablePath,
    args: how.engine === 'chromium' ? [...how.args, ...settings.chromiumArgs] : how.args,
    ...(how.engine === 'firefox' ? { firefoxUserPrefs: settings.firefoxPrefs } : {}),
    env: { ...process.env, TMPDIR: browserTmp },
    ...(how.channel ? { channel: how.channel } : {}),
    headless: true,
    timeout: LAUNCH_TIMEOUT_MS,
    // The sweep handles signals itself and closes the browser in its finally.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

/**
 * A new page in a new context, wired to end the session when the browser or the page goes, and
 * to keep the page's errors for the end's details.
 */
async function openPage(
  browser: Browser,
  { browser: found, session }: DriveRequest,
  consoleErrors: LastLines,
): Promise<{ context: BrowserContext; page: Page }> {
  browser.on('disconnected', () =>
    session.end({
      kind: 'crashed',
      message: found.playwright?.connect
        ? `the connection to the browser server closed, or its browser crashed, before the run finished`
        : `${found.label} closed or crashed before the run finished`,
    }),
  );
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('crash', () =>
    session.end({
      kind: 'crashed',
      message: 'the page crashed (out of memory, or the renderer died)',
    }),
  );
  page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    // A missing favicon is the browser's own request, not the page's problem.
    if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico'))
      consoleErrors.push(`console error: ${m.text()}`);
  });
  return { context, page };
}

/** Open the page (throttled first where the plan asks) and wait for the session's end, with details when it failed. */
async function runPage(
  browser: Browser,
  request: DriveRequest,
  consoleErrors: LastLines,
): Promise<RunEnd> {
  const { session, url } = request;
  const { context, page } = await openPage(browser, request, consoleErrors);
  const target = await throttle(context, page, url);
  if (!session.isOver) {
    await page.goto(target, { waitUntil: 'load', timeout: GOTO_TIMEOUT_MS }).catch((e: unknown) => {
      session.end({ kind: 'crashed', message: `could not open the page: ${errorMessage(e)}` });
    });
  }
  const end = await session.ended;
  if (end.kind === 'done' || end.kind === 'checked' || end.kind === 'cancelled') return end;
  const details = consoleErrors.all;
  if (browser.isConnected() && !page.isClosed()) details.unshift(await pageState(page));
  return withDetails(end, details);
}

export async function drivePlaywright(request: DriveRequest): Promise<RunEnd> {
  const { browser: found, session, signal } = request;
  const how = found.playwright;
  if (!how) return { kind: 'crashed', message: `${found.id} has no Playwright launch settings` };
  const consoleErrors = new LastLines();
  let browser: Browser | undefined;
  const stopAbort = once(signal, () =>
    session.end({ kind: 'cancelled', message: 'cancelled (Ctrl-C or SIGTERM)' }),
  );
  // The browser's own temporary folders (Chromium's org.chromium.Chromium.*) go in one of the
  // sweep's, removed when the drive ends: a browser killed with SIGKILL cannot remove its own.
  let browserTmp: string | undefined;
  const removeTmp = () => {
    if (browserTmp) rmSync(browserTmp, { recursive: true, force: true });
  };
  process.once('exit', removeTmp);
  try {
    try {
      // Short enough for Chromium's socket whatever TMPDIR is (files/temp.ts); a TMPDIR too long is said here.
      if (!how.connect) browserTmp = makeTempFolder('browser');
      browser = await startBrowser(how, browserTmp, engineSettingsForUrl(request.url));
    } catch (e) {
      const what = how.connect
        ? `connect to the browser server at ${redactUrl(how.connect)}`
        : `start ${found.label} (${how.executablePath ?? how.channel ?? how.engine})`;
      session.end({ kind: 'crashed', message: `could not ${what}: ${errorMessage(e)}` });
      return await session.ended;
    }
    return await runPage(browser, request, consoleErrors);
  } catch (e) {
    session.end({ kind: 'crashed', message: `driving ${found.label} failed: ${errorMessage(e)}` });
    return withDetails(await session.ended, consoleErrors.all);
  } finally {
    stopAbort();
    // For a connected browser this closes only this sweep's context and the connection; the
    // server and its browser belong to whoever started them.
    if (browser)
      await withTimeout(browser.close(), CLOSE_TIMEOUT_MS, `closing ${found.label}`).catch(
        () => {},
      );
    removeTmp();
    process.off('exit', removeTmp);
  }
}

/**
 * The plan's CPU throttling (the URL's `cpu-throttle`), applied to the page through Chromium's
 * DevTools protocol before it loads; the URL then says so (`throttled`), and the page runs its
 * rows. Without the protocol (Firefox over BiDi) the URL is left as it is, and the page reports
 * every row unsupported with the reason.
 */
async function throttle(context: BrowserContext, page: Page, url: string): Promise<string> {
  const rate = Number(planFieldsFromQuery(new URL(url).searchParams).cpuThrottle ?? NaN);
  if (!(rate > 1)) return url;
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  } catch {
    return url;
  }
  const throttled = new URL(url);
  throttled.searchParams.set(PAGE_QUERY.throttled, String(rate));
  return throttled.href;
}

/** What the page says about itself, bounded: a page stuck in a loop never answers. */
async function pageState(page: Page): Promise<string> {
  try {
    const state = await withTimeout(
      page.evaluate(() => {
        const s = (globalThis as { __storebench?: { status?: unknown; error?: unknown } })
          .__storebench;
        return s
          ? {
              status: s.status,
              error:
                s.error === undefined || typeof s.error === 'string'
                  ? s.error
                  : JSON.stringify(s.error),
            }
          : null;
      }),
      5_000,
      'reading window.__storebench',
    );
    return describePageState(state);
  } catch (e) {
    return `page state: unknown (${errorMessage(e)})`;
  }
}
