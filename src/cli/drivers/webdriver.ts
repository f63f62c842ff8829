/**
 * W3C WebDriver driver, for browsers Playwright cannot drive: Debian's WebKitGTK MiniBrowser
 * through WebKitWebDriver (docs/browsers.md, "Browsers on this kind of machine"), Safari through safaridriver, and any remote endpoint
 * (`--remote http://...`: Selenium Grid, cloud grids; grid-session.ts opens their sessions). The
 * protocol needs only a handful of HTTP calls, so it is spoken with fetch() (webdriver-http.ts)
 * instead of adding a client library.
 *
 * A driver process allows one session at a time, so the session is always deleted in a finally
 * and a driver process group the sweep started (xvfb-run, Xvfb, WebKitWebDriver) is stopped by
 * its own id. A remote endpoint is someone else's: only the session is ended there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { errorMessage } from '../../core/base/errors.ts';
import type { WebDriverTarget } from './discovery.ts';
import type { BrowserSession, RunEnd } from '../server/session.ts';
import { makeTempFolder } from '../files/temp.ts';
import { describePageState, LastLines, once, withDetails, type DriveRequest } from './driver.ts';
import { GridError, openGridSession } from './grid-session.ts';
import { command, WebDriverError } from './webdriver-http.ts';

const DRIVER_START_MS = 30_000;
const NEW_SESSION_MS = 60_000;
const NAVIGATE_MS = 60_000;
const PROBE_MS = 5_000;
const ALIVE_EVERY_MS = 15_000;

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

/** What a drive holds and must let go of at its end, whatever way it ends. */
interface Held {
  base: string;
  child?: ChildProcess;
  authFolder?: string;
  sessionId?: string;
  alive?: ReturnType<typeof setInterval>;
}

export async function driveWebDriver(request: DriveRequest): Promise<RunEnd> {
  const { browser: found, url, session, signal } = request;
  const how = found.webdriver;
  if (!how) return { kind: 'crashed', message: `${found.id} has no WebDriver settings` };
  const driverLog = new LastLines();
  const held: Held = { base: how.kind === 'remote' ? how.url : '' };
  const stopAbort = once(signal, () =>
    session.end({ kind: 'cancelled', message: 'cancelled (Ctrl-C or SIGTERM)' }),
  );
  try {
    if (how.kind === 'local' && !(await startDriver(how, session, driverLog, held)))
      return withDetails(await session.ended, driverLog.all);
    const opened =
      how.kind === 'remote'
        ? await openGridSession(how, request)
        : await localSession(held.base, how.capabilities, signal);
    if (opened === undefined) return await session.ended;
    const sid = (held.sessionId = opened.sessionId);
    const where =
      opened.node === null ? found.label : `${found.label} on the grid node ${opened.node}`;
    held.alive = watchAlive(held.base, sid, how.kind === 'remote', where, session);
    if (!session.isOver) {
      await command(held.base, 'POST', `/session/${sid}/url`, { url }, NAVIGATE_MS).catch(
        (e: unknown) => {
          session.end({ kind: 'crashed', message: `could not open the page: ${errorMessage(e)}` });
        },
      );
    }
    const end = await session.ended;
    if (end.kind === 'done' || end.kind === 'checked' || end.kind === 'cancelled') return end;
    return withDetails(end, [await pageState(held.base, sid), ...driverLog.all]);
  } catch (e) {
    session.end({
      kind: 'crashed',
      message:
        e instanceof GridError
          ? e.message
          : `driving ${found.label} over WebDriver failed: ${errorMessage(e)}`,
    });
    return withDetails(await session.ended, driverLog.all);
  } finally {
    stopAbort();
    await release(held);
  }
}

async function localSession(
  base: string,
  capabilities: Record<string, unknown>,
  signal: AbortSignal,
): Promise<{ sessionId: string; node: null }> {
  const body = { capabilities: { alwaysMatch: capabilities } };
  const created = await command<{ sessionId: string }>(
    base,
    'POST',
    '/session',
    body,
    NEW_SESSION_MS,
    signal,
  );
  return { sessionId: created.sessionId, node: null };
}

/** The session ended on the endpoint, and what the sweep started stopped. */
async function release(held: Held): Promise<void> {
  if (held.alive) clearInterval(held.alive);
  if (held.sessionId)
    await command(held.base, 'DELETE', `/session/${held.sessionId}`, undefined, 10_000).catch(
      () => {},
    );
  if (held.child) await stopGroup(held.child);
  if (held.authFolder) removeFolder(held.authFolder);
}

/** Start a local driver on a free port and wait until it answers; false when the session ended first. */
async function startDriver(
  how: Extract<WebDriverTarget, { kind: 'local' }>,
  session: BrowserSession,
  driverLog: LastLines,
  held: Held,
): Promise<boolean> {
  const port = await freePort();
  held.base = `http://127.0.0.1:${port}`;
  if (how.needsXvfb) authFolders.add((held.authFolder = makeTempFolder('xvfb')));
  const [cmd, args] = held.authFolder
    ? [
        'xvfb-run',
        ['-a', '-f', join(held.authFolder, 'Xauthority'), how.driverBinary, ...how.portArgs(port)],
      ]
    : [how.driverBinary, how.portArgs(port)];
  // Its own process group, so stopping it also stops Xvfb and the browser it started.
  const started = spawn(cmd, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...how.env },
  });
  held.child = started;
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
  return answering(held.base, how.driverBinary, port, session);
}

/** Wait until the driver answers /status; false when the session ended first. */
async function answering(
  base: string,
  driverBinary: string,
  port: number,
  session: BrowserSession,
): Promise<boolean> {
  const t0 = Date.now();
  for (;;) {
    if (session.isOver) return false;
    try {
      const status = await command<{ ready?: boolean }>(base, 'GET', '/status', undefined, 2_000);
      if (status?.ready !== false) return true;
    } catch {
      /* not listening yet */
    }
    if (Date.now() - t0 > DRIVER_START_MS)
      throw new Error(
        `${driverBinary} did not answer on port ${port} within ${DRIVER_START_MS / 1000} s`,
      );
    await sleep(200);
  }
}

/**
 * The browser may die without the driver noticing on its own; ask now and then. A page busy in a
 * long synchronous case can make the answer slow, which is not a crash: only a refusal is. From a
 * grid any error answer but a timeout is one: the node that ran the session is gone (Selenium
 * Grid 3 answers `unknown error: cannot forward the request`), or the grid ended the session.
 */
function watchAlive(
  base: string,
  sid: string,
  remote: boolean,
  label: string,
  session: BrowserSession,
): ReturnType<typeof setInterval> {
  const gone = (e: WebDriverError) =>
    remote ? e.code !== 'timeout' : e.code === 'invalid session id' || e.code === 'no such window';
  return setInterval(() => {
    command(base, 'GET', `/session/${sid}/window`, undefined, ALIVE_EVERY_MS).catch(
      (e: unknown) => {
        if (e instanceof WebDriverError && gone(e))
          session.end({
            kind: 'crashed',
            message: `${label} went away before the run finished (${e.message})`,
          });
      },
    );
  }, ALIVE_EVERY_MS);
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
