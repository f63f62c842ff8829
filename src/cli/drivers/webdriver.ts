/**
 * W3C WebDriver driver, for browsers Playwright cannot drive: Debian's WebKitGTK MiniBrowser
 * through WebKitWebDriver (docs/browsers.md, "Browsers on this kind of machine"), Safari through safaridriver, and any remote endpoint
 * (`--remote http://...`: Selenium Grid, cloud grids). The protocol needs only a handful of HTTP
 * calls, so it is spoken here with fetch() instead of adding a client library.
 *
 * A driver process allows one session at a time, so the session is always deleted in a finally
 * and a driver process group the sweep started (xvfb-run, Xvfb, WebKitWebDriver) is stopped by
 * its own id. A remote endpoint is someone else's: only the session is ended there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { errorMessage } from '../../core/errors.ts';
import { redactUrl } from './discovery.ts';
import type { RunEnd } from '../server/session.ts';
import { makeTempFolder } from '../files/temp.ts';
import { describePageState, LastLines, once, withDetails, type DriveRequest } from './driver.ts';

const DRIVER_START_MS = 30_000;
const NEW_SESSION_MS = 60_000;
const NAVIGATE_MS = 60_000;
const PROBE_MS = 5_000;
const ALIVE_EVERY_MS = 15_000;

class WebDriverError extends Error {
  override readonly name = 'WebDriverError';
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** One W3C WebDriver command. Rejects with the driver's error code and message. */
async function command<T>(
  base: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body: unknown,
  timeoutMs: number,
): Promise<T> {
  // fetch() refuses URLs with credentials in them, which cloud grids hand out; send them as Basic auth.
  const url = new URL(`${base}${path}`);
  const auth =
    url.username || url.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
      : undefined;
  url.username = '';
  url.password = '';
  const response = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(auth ? { authorization: auth } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  let data: { value?: unknown } = {};
  try {
    data = JSON.parse(text) as { value?: unknown };
  } catch {
    /* not JSON; reported below */
  }
  const value = data.value as { error?: string; message?: string } | undefined;
  if (!response.ok || (value && typeof value === 'object' && typeof value.error === 'string')) {
    const code = value && typeof value.error === 'string' ? value.error : null;
    throw new WebDriverError(
      `${method} ${path}: ${code ?? `HTTP ${response.status}`}${value?.message ? `: ${value.message.split('\n')[0]}` : ''}`,
      code,
    );
  }
  return data.value as T;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port')),
      );
    });
  });
}

/**
 * Driver process groups still running. The driver runs detached (its own group), so if the sweep
 * is killed hard (a second Ctrl-C), nothing else would stop it and the next session would fail.
 */
const running = new Set<number>();
/**
 * Folders for the X authority files of the Xvfb displays still running. xvfb-run makes such a
 * folder itself and deletes it in an exit trap that a stopped process group does not always
 * reach, which left one folder behind per WebKit run; the sweep owns them instead.
 */
const authFolders = new Set<string>();
const removeFolder = (dir: string) => {
  rmSync(dir, { recursive: true, force: true });
  authFolders.delete(dir);
};
process.on('exit', () => {
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  for (const dir of authFolders) removeFolder(dir);
});

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

export async function driveWebDriver({
  browser: found,
  url,
  session,
  signal,
}: DriveRequest): Promise<RunEnd> {
  const how = found.webdriver;
  if (!how) return { kind: 'crashed', message: `${found.id} has no WebDriver settings` };
  const driverLog = new LastLines();
  let child: ChildProcess | undefined;
  let sessionId: string | undefined;
  let base = '';
  let alive: ReturnType<typeof setInterval> | undefined;
  let authFolder: string | undefined;
  const stopAbort = once(signal, () =>
    session.end({ kind: 'cancelled', message: 'cancelled (Ctrl-C or SIGTERM)' }),
  );
  try {
    if (how.kind === 'local') {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      if (how.needsXvfb) authFolders.add((authFolder = makeTempFolder('xvfb')));
      const [cmd, args] = authFolder
        ? [
            'xvfb-run',
            ['-a', '-f', join(authFolder, 'Xauthority'), how.driverBinary, ...how.portArgs(port)],
          ]
        : [how.driverBinary, how.portArgs(port)];
      // Its own process group, so stopping it also stops Xvfb and the browser it started.
      const started = spawn(cmd, args, {
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...how.env },
      });
      child = started;
      const pid = started.pid;
      if (pid !== undefined) {
        running.add(pid);
        started.once('exit', () => running.delete(pid));
      }
      const onOutput = (chunk: Buffer) =>
        chunk
          .toString()
          .split('\n')
          .filter((l) => l.trim())
          .forEach((l) => driverLog.push(`driver: ${l.trim()}`));
      started.stdout?.on('data', onOutput);
      started.stderr?.on('data', onOutput);
      started.on('error', (e) =>
        session.end({ kind: 'crashed', message: `could not start ${cmd}: ${e.message}` }),
      );
      started.on('exit', (code, sig) =>
        session.end({
          kind: 'crashed',
          message: `${cmd} exited (${sig ?? `code ${code}`}) before the run finished`,
        }),
      );

      const t0 = Date.now();
      for (;;) {
        if (session.isOver) return withDetails(await session.ended, driverLog.all);
        try {
          const status = await command<{ ready?: boolean }>(
            base,
            'GET',
            '/status',
            undefined,
            2_000,
          );
          if (status?.ready !== false) break;
        } catch {
          /* not listening yet */
        }
        if (Date.now() - t0 > DRIVER_START_MS)
          throw new Error(
            `${how.driverBinary} did not answer on port ${port} within ${DRIVER_START_MS / 1000} s`,
          );
        await sleep(200);
      }
    } else base = how.url;

    const created = await command<{ sessionId: string }>(
      base,
      'POST',
      '/session',
      { capabilities: { alwaysMatch: how.capabilities } },
      NEW_SESSION_MS,
    ).catch((e: unknown) => {
      // A grid that is down or mistyped fails here; say which endpoint, without its credentials.
      throw how.kind === 'remote'
        ? new Error(
            `the WebDriver endpoint ${redactUrl(how.url)} did not start a ${JSON.stringify(how.capabilities.browserName)} session: ${errorMessage(e)}`,
          )
        : e;
    });
    sessionId = created.sessionId;
    const sid = sessionId;
    // The browser may die without the driver noticing on its own; ask now and then. A page busy
    // in a long synchronous case can make the answer slow, which is not a crash: only a refusal is.
    alive = setInterval(() => {
      command(base, 'GET', `/session/${sid}/window`, undefined, ALIVE_EVERY_MS).catch(
        (e: unknown) => {
          if (
            e instanceof WebDriverError &&
            (e.code === 'invalid session id' || e.code === 'no such window')
          ) {
            session.end({
              kind: 'crashed',
              message: `${found.label} went away before the run finished (${e.message})`,
            });
          }
        },
      );
    }, ALIVE_EVERY_MS);
    if (!session.isOver) {
      await command(base, 'POST', `/session/${sid}/url`, { url }, NAVIGATE_MS).catch(
        (e: unknown) => {
          session.end({ kind: 'crashed', message: `could not open the page: ${errorMessage(e)}` });
        },
      );
    }
    const end = await session.ended;
    if (end.kind === 'done' || end.kind === 'checked' || end.kind === 'cancelled') return end;
    return withDetails(end, [await pageState(base, sid), ...driverLog.all]);
  } catch (e) {
    session.end({
      kind: 'crashed',
      message: `driving ${found.label} over WebDriver failed: ${errorMessage(e)}`,
    });
    return withDetails(await session.ended, driverLog.all);
  } finally {
    stopAbort();
    if (alive) clearInterval(alive);
    if (sessionId)
      await command(base, 'DELETE', `/session/${sessionId}`, undefined, 10_000).catch(() => {});
    if (child) await stopGroup(child);
    if (authFolder) removeFolder(authFolder);
  }
}

async function pageState(base: string, sid: string): Promise<string> {
  try {
    const state = await command(
      base,
      'POST',
      `/session/${sid}/execute/sync`,
      {
        script:
          'const s = window.__storebench; return s ? { status: s.status, error: s.error === undefined ? undefined : String(s.error) } : null;',
        args: [],
      },
      PROBE_MS,
    );
    return describePageState(state);
  } catch (e) {
    return `page state: unknown (${errorMessage(e)})`;
  }
}

/**
 * SIGTERM the process group, then SIGKILL if its leader is still there after a few seconds.
 * The group is signalled even when the leader (xvfb-run) is gone: Xvfb, the driver and the
 * browser may have outlived it.
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const kill = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      /* the whole group is gone */
    }
  };
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((ok) => child.once('exit', () => ok()));
  kill('SIGTERM');
  const late = await Promise.race([exited.then(() => false), sleep(5_000).then(() => true)]);
  // Whatever of the group is left after the leader went, or after 5 s, does not get a second chance.
  await sleep(late ? 0 : 500);
  kill('SIGKILL');
  running.delete(pid);
}
