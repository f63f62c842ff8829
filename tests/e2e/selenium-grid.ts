/**
 * A real Selenium Grid 3 on loopback, for the grid tests: a hub and nodes from the standalone jar
 * of the npm package selenium-server (3.141.59), each node offering Chromium through Debian's
 * chromium-driver, each process in a process group of its own so the test stops exactly what it
 * started (a node's chromedriver and browsers with it). Needs java (openjdk-17-jre-headless) and
 * /usr/bin/chromedriver (chromium-driver).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seleniumServer from 'selenium-server';
import { alive, freePort } from './sweep-process.ts';

const CHROMEDRIVER = '/usr/bin/chromedriver';

export interface GridProcess {
  /** What the hub calls it: http://127.0.0.1:PORT. */
  url: string;
  child: ChildProcess;
  pid: number;
}

export interface Grid {
  /** The WebDriver endpoint to give --remote. */
  endpoint: string;
  /** The hub's own address, where /grid/api is. */
  root: string;
  hub: GridProcess;
  nodes: GridProcess[];
  /** Slots the hub counts, free and in all. */
  slots(): Promise<{ free: number; total: number }>;
  /** The last lines a process logged, for a failure message. */
  log(p: GridProcess): string;
  /** Stop every process group this grid started, and remove its folder. */
  stop(): Promise<void>;
}

/** What is missing to start a grid here, with the Debian packages that bring it; null when nothing. */
export function gridMissing(): string | null {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  const missing = [
    java.status === 0 ? null : 'java (apt-get install openjdk-17-jre-headless)',
    existsSync(CHROMEDRIVER) ? null : `${CHROMEDRIVER} (apt-get install chromium-driver)`,
  ].filter(Boolean);
  return missing.length > 0
    ? `this test starts a Selenium Grid, and needs ${missing.join(' and ')}`
    : null;
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    /* the group is gone */
  }
}

/** Start a hub and `count` nodes of one Chromium slot each; resolves once every node has registered. */
export async function startGrid(count: number): Promise<Grid> {
  const jar = seleniumServer.path;
  // The nodes' temporary files (chromedriver's profiles, Selenium's per-session folders) go here:
  // a node killed mid-run cannot remove its own.
  const dir = mkdtempSync(join(tmpdir(), 'storebench-grid-'));
  const nodeConfig = join(dir, 'node.json');
  writeFileSync(
    nodeConfig,
    JSON.stringify({
      capabilities: [{ browserName: 'chrome', maxInstances: 1, seleniumProtocol: 'WebDriver' }],
      maxSession: 1,
    }),
  );
  const start = (name: string, port: number, args: string[]): GridProcess => {
    const logFd = openSync(join(dir, `${name}.log`), 'w');
    const child = spawn(
      'java',
      [
        `-Djava.io.tmpdir=${dir}`,
        `-Dwebdriver.chrome.driver=${CHROMEDRIVER}`,
        '-jar',
        jar,
        ...args,
      ],
      { detached: true, stdio: ['ignore', logFd, logFd], env: { ...process.env, TMPDIR: dir } },
    );
    return { url: `http://127.0.0.1:${port}`, child, pid: child.pid as number };
  };
  const hubPort = await freePort();
  const hub = start('hub', hubPort, [
    '-role',
    'hub',
    '-host',
    '127.0.0.1',
    '-port',
    String(hubPort),
  ]);
  const root = hub.url;
  const nodes: GridProcess[] = [];
  for (let i = 1; i <= count; i++) {
    const port = await freePort();
    nodes.push(
      start(`node${i}`, port, [
        ...['-role', 'node', '-host', '127.0.0.1', '-port', String(port)],
        ...['-hub', `${root}/grid/register`, '-nodeConfig', nodeConfig],
      ]),
    );
  }
  const grid: Grid = {
    endpoint: `${root}/wd/hub`,
    root,
    hub,
    nodes,
    async slots() {
      const r = await fetch(`${root}/grid/api/hub`, { signal: AbortSignal.timeout(5_000) });
      return ((await r.json()) as { slotCounts: { free: number; total: number } }).slotCounts;
    },
    log(p) {
      const name = p === hub ? 'hub' : `node${nodes.indexOf(p) + 1}`;
      try {
        return readFileSync(join(dir, `${name}.log`), 'utf8')
          .split('\n')
          .slice(-15)
          .join('\n');
      } catch {
        return '(no log)';
      }
    },
    async stop() {
      const all = [hub, ...nodes];
      for (const p of all) signalGroup(p.pid, 'SIGTERM');
      for (let t = 0; t < 50 && all.some((p) => alive(p.pid)); t++) await sleep(100);
      for (const p of all) signalGroup(p.pid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await registered(grid, count);
  } catch (e) {
    const logs = [hub, ...nodes].map((p) => `${p.url}:\n${grid.log(p)}`).join('\n');
    await grid.stop();
    throw new Error(`${(e as Error).message}\n${logs}`, { cause: e });
  }
  return grid;
}

/** Wait until the hub counts every node's slot (Java starts in seconds, slower on a busy machine). */
async function registered(grid: Grid, count: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const total = await grid.slots().then(
      (s) => s.total,
      () => 0,
    );
    if (total === count) return;
    if (Date.now() - t0 > 90_000)
      throw new Error(`the grid counted ${total} of ${count} node slots after 90 s`);
    await sleep(250);
  }
}
