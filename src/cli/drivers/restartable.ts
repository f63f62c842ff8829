/**
 * A Playwright browser on a profile kept on disk, which can be killed the hard way (SIGKILL to
 * every one of its processes, as a crash would) and started again on the same profile. The
 * crash suite uses it; the profile and the browser's temporary files live in one folder the
 * caller removes with `dispose()`.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  chromium,
  firefox,
  webkit,
  type BrowserContext,
  type CDPSession,
  type Page,
} from 'playwright-core';
import { withTimeout } from '../../core/base/errors.ts';
import type { PlaywrightLaunch } from './discovery.ts';
import { GOTO_TIMEOUT_MS, LAUNCH_TIMEOUT_MS } from './playwright.ts';
import { makeTempFolder, PROFILE_TMP } from '../files/temp.ts';

const GONE_TIMEOUT_MS = 10_000;

/** Why this machine cannot kill a browser's processes by profile, or null when it can. */
export function killProblem(how: PlaywrightLaunch | undefined): string | null {
  if (!how) return 'this browser is not driven with Playwright';
  if (how.connect)
    return 'this browser runs on a browser server (--remote), whose processes the sweep cannot reach';
  if (process.platform !== 'linux')
    return `finding a browser's processes by its profile needs Linux's /proc, and this is ${process.platform}`;
  return null;
}

export class RestartableBrowser {
  /** Short enough for Chromium's socket below `tmp` whatever TMPDIR is (files/temp.ts). */
  private readonly root = makeTempFolder('profile');
  private readonly profile = join(this.root, 'profile');
  private readonly tmp = join(this.root, PROFILE_TMP);
  private context: BrowserContext | undefined;
  /** A start in flight: dispose() waits for it, so it never removes a profile a browser is starting on. */
  private starting: Promise<unknown> | null = null;
  private disposed = false;
  private unlisten: () => void = () => {};

  /** Also on an abrupt exit (a second Ctrl-C): a browser killed from outside cannot remove its profile. */
  private readonly removeOnExit = () => rmSync(this.root, { recursive: true, force: true });

  constructor(
    private readonly how: PlaywrightLaunch,
    /** Called from the page through `window.<name>(...args)`, in every start. */
    private readonly bindings: Readonly<Record<string, (...args: unknown[]) => void>> = {},
    /** Firefox preferences for the profile (ignored by the other engines). */
    private readonly firefoxPrefs: Readonly<Record<string, string | number | boolean>> = {},
  ) {
    mkdirSync(this.profile);
    mkdirSync(this.tmp);
    process.once('exit', this.removeOnExit);
  }

  /** Dispose of the browser as soon as `signal` aborts (Ctrl-C), so a step in flight ends at once. */
  stopOn(signal: AbortSignal): void {
    if (signal.aborted) return void this.dispose();
    const stop = () => void this.dispose();
    signal.addEventListener('abort', stop, { once: true });
    // One listener per row on the sweep's one signal: each goes with its browser.
    this.unlisten = () => signal.removeEventListener('abort', stop);
  }

  /** Start the browser on the profile (again) and open `url` in its page. */
  async start(url: string): Promise<Page> {
    if (this.disposed) throw new Error('the browser was closed before it could start');
    const type = { chromium, firefox, webkit }[this.how.engine];
    const launch = type.launchPersistentContext(this.profile, {
      executablePath: this.how.executablePath,
      args: this.how.args,
      env: { ...process.env, TMPDIR: this.tmp },
      ...(this.how.channel ? { channel: this.how.channel } : {}),
      ...(this.how.engine === 'firefox' ? { firefoxUserPrefs: { ...this.firefoxPrefs } } : {}),
      headless: true,
      timeout: LAUNCH_TIMEOUT_MS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    this.starting = launch;
    try {
      this.context = await launch;
    } finally {
      this.starting = null;
    }
    if (this.disposed) {
      await withTimeout(this.context.close(), 20_000, 'closing the browser').catch(() => {});
      throw new Error('the browser was closed while it started');
    }
    const page = this.context.pages()[0] ?? (await this.context.newPage());
    for (const [name, fn] of Object.entries(this.bindings))
      await page.exposeBinding(name, (_source, ...args: unknown[]) => fn(...args));
    await page.goto(url, { waitUntil: 'load', timeout: GOTO_TIMEOUT_MS });
    return page;
  }

  /** A DevTools protocol session on `page` (Chromium only: throws elsewhere). */
  async devtools(page: Page): Promise<CDPSession> {
    if (!this.context) throw new Error('the browser is not running');
    return this.context.newCDPSession(page);
  }

  /** Open `url` in one more page (tab) of the running browser. */
  async newPage(url: string): Promise<Page> {
    if (!this.context) throw new Error('the browser is not running');
    const page = await this.context.newPage();
    await page.goto(url, { waitUntil: 'load', timeout: GOTO_TIMEOUT_MS });
    return page;
  }

  /** SIGKILL every process of the browser at once, and wait until none is left. */
  async kill(): Promise<void> {
    const pids = processesOf(this.profile);
    for (const pid of pids) signal(pid);
    const until = Date.now() + GONE_TIMEOUT_MS;
    while (pids.some(alive)) {
      if (Date.now() > until)
        throw new Error(
          `the browser's processes ${pids.filter(alive).join(', ')} outlived SIGKILL by ${GONE_TIMEOUT_MS / 1000} s`,
        );
      await new Promise((r) => setTimeout(r, 25));
    }
    // Playwright learns of the death through its pipe; its context is gone either way.
    this.context = undefined;
  }

  /** Close the browser the way a user quits it, keeping the profile for the next start. */
  async close(): Promise<void> {
    const context = this.context;
    this.context = undefined;
    if (context) await withTimeout(context.close(), 20_000, 'closing the browser');
  }

  /** Close the browser if it runs (killing it if it will not close), and remove the profile. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.unlisten();
    await this.starting?.catch(() => {});
    if (this.context)
      await withTimeout(this.context.close(), 20_000, 'closing the browser').catch(() => {});
    if (processesOf(this.profile).length > 0) await this.kill().catch(() => {});
    this.context = undefined;
    this.removeOnExit();
    process.off('exit', this.removeOnExit);
  }
}

/**
 * The processes that name the profile on their command line (Chromium's every process, Firefox's
 * parent), with all their descendants (Firefox's content processes).
 */
function processesOf(profile: string): number[] {
  const parents = new Map<number, number>();
  const found = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(profile)) found.add(pid);
      // The parent pid is the field after the command, which is in parentheses and may hold spaces.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (!found.has(pid) && found.has(parent)) {
        found.add(pid);
        grew = true;
      }
    }
  }
  return [...found];
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function alive(pid: number): boolean {
  try {
    // A zombie still answers signal 0, but its /proc stat says Z: it is dead, only not reaped.
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
