/**
 * npm for a variant's npm version (variant-sources.ts): looking a version up, and installing it
 * into a folder of its own in the cache. npm runs in a process group of its own, so that the
 * sweep's Ctrl-C stops it with everything it started, and its partial folder is removed then, or
 * on the next run when the sweep that made it died without a word.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { clipped } from '../../core/base/shown.ts';

export class NpmError extends Error {
  override readonly name = 'NpmError';
  /** npm was stopped by the sweep's Ctrl-C (the `signal` given), not failing of itself. */
  constructor(
    message: string,
    readonly stopped = false,
  ) {
    super(message);
  }
}

/**
 * Node's shims for a legacy build, installed beside it: the npm packages of the same names stand
 * in for Node's builtins (as browserify gave them), so `require('events')` finds them first.
 */
export const NODE_SHIMS = ['events@3.3.0', 'buffer@6.0.3', 'process@0.11.10', 'util@0.12.5'];

/**
 * Build and test tools that 2014 packages list among their dependencies (level-js lists
 * browserify and tape; pouchdb 2.2.0 lists es3ify) and never require at run time. Their own trees
 * no longer install: npm 11 rejects esprima-fb's version 3001.0001.0000-dev-harmony-fb, and
 * browserify 3's derequire needs esprima-six 0.0.x, since unpublished. An empty package stands in.
 */
const LEGACY_TOOLS = ['browserify', 'tape', 'es3ify'];

/** Marks a cache folder whose install finished: written last. */
const COMPLETE = 'storebench-variant.json';

export function isComplete(dir: string, packages: readonly string[]): boolean {
  return (
    existsSync(join(dir, COMPLETE)) &&
    packages.every((p) => existsSync(join(dir, 'node_modules', p, 'package.json')))
  );
}

/** npm's registry, as npm itself is configured. */
export function registry(): string {
  try {
    return execFileSync('npm', ['config', 'get', 'registry'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 30_000,
    }).trim();
  } catch {
    return 'https://registry.npmjs.org/';
  }
}

/** How long one npm command may take: an install of PouchDB 2.x's tree takes about a minute here. */
const NPM_TIMEOUT_MS = 600_000;

/** After SIGTERM, how long npm's process group has to end before it is killed outright. */
const NPM_GRACE_MS = 2_000;

/**
 * Run npm in a process group of its own; its stdout, or a rejection with npm's error code and
 * first error line. `signal` stops the whole group (npm and whatever it started); so does the
 * sweep's own exit, even an abrupt one (a second Ctrl-C). Its errors are asked for explicitly:
 * under `npm run --silent` the child inherits a silent log level.
 */
function npm(args: readonly string[], signal?: AbortSignal): Promise<string> {
  return new Promise((ok, fail) => {
    if (signal?.aborted) return fail(new NpmError('stopped before npm started', true));
    const child = spawn('npm', [...args, '--loglevel=error'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout = (stdout + c.toString()).slice(-MAX_OUTPUT)));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-MAX_OUTPUT)));
    const group = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // The group has ended already.
      }
    };
    let stopped = false;
    const stop = () => {
      stopped = true;
      group('SIGTERM');
      setTimeout(() => group('SIGKILL'), NPM_GRACE_MS).unref();
    };
    const timer = setTimeout(stop, NPM_TIMEOUT_MS);
    const onExit = () => group('SIGKILL');
    signal?.addEventListener('abort', stop, { once: true });
    process.once('exit', onExit);
    child.on('error', (e) => fail(new NpmError(`could not run npm: ${e.message}`)));
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      process.off('exit', onExit);
      if (stopped && signal?.aborted) return fail(new NpmError('npm was stopped', true));
      if (code === 0) return ok(stdout);
      fail(npmFailure(stderr, stopped ? 'ETIMEDOUT' : `exit ${code ?? 'by a signal'}`));
    });
  });
}

/** The most of npm's output kept: its last lines say what failed. */
const MAX_OUTPUT = 1024 * 1024;

/** npm's error code and first error line, from its stderr. */
function npmFailure(stderr: string, fallback: string): Error & { npmCode: string } {
  const code = /npm (?:error|ERR!) code (\S+)/.exec(stderr)?.[1] ?? fallback;
  const lines = stderr
    .split('\n')
    .filter((l) => /^npm (error|ERR!)/.test(l) && !/ code | A complete log /.test(l));
  return Object.assign(new Error(lines[0]?.replace(/^npm (error|ERR!)\s*/, '') ?? fallback), {
    npmCode: code,
  });
}

const UNREACHABLE =
  /^(E[A-Z_]*(NOTFOUND|REFUSED|RESET|TIMEDOUT|UNREACH|AGAIN)|ETIMEDOUT|EAI_AGAIN|ECONNRESET|ENETUNREACH|EHOSTUNREACH|CERT_|UNABLE_TO|SELF_SIGNED|ERR_SOCKET)/;

/** Why npm failed, in words: stopped, an unreachable registry, or npm's own first line. */
function npmProblem(e: unknown, doing: string): NpmError {
  if (e instanceof NpmError) return e.stopped ? new NpmError(`stopped while ${doing}`, true) : e;
  const code = (e as { npmCode?: string }).npmCode ?? 'failed';
  if (UNREACHABLE.test(code))
    return new NpmError(
      `the npm registry ${registry()} could not be reached (${code}) while ${doing}`,
    );
  return new NpmError(
    `npm failed (${code}) while ${doing}: ${clipped(e instanceof Error ? e.message : String(e))}`,
  );
}

/**
 * A lookup is a small request: two tries, a few seconds apart, say that a registry is unreachable
 * within seconds instead of npm's default minute and a half. The install keeps npm's own settings.
 */
const LOOKUP_RETRIES = [
  '--fetch-retries=1',
  '--fetch-retry-mintimeout=2000',
  '--fetch-retry-maxtimeout=5000',
  '--fetch-timeout=30000',
];

/** That npm has this version of the package; otherwise what it has. */
export async function checkPublished(
  pkg: string,
  version: string,
  signal?: AbortSignal,
): Promise<void> {
  try {
    const found = await npm(['view', `${pkg}@${version}`, 'version', ...LOOKUP_RETRIES], signal);
    if (found.trim() !== '') return;
  } catch (e) {
    if ((e as { npmCode?: string }).npmCode !== 'E404')
      throw npmProblem(e, `looking up ${pkg}@${version}`);
  }
  let latest: string;
  try {
    latest = (await npm(['view', pkg, 'dist-tags.latest', ...LOOKUP_RETRIES], signal)).trim();
  } catch (e) {
    if ((e as { npmCode?: string }).npmCode === 'E404')
      throw new NpmError(`npm has no package named ${pkg}`);
    throw npmProblem(e, `looking up ${pkg}`);
  }
  throw new NpmError(`npm has no version ${version} of ${pkg}; its latest is ${latest}`);
}

/** A folder an install is writing into: the final folder's name, the sweep's pid, a time. */
const PARTIAL = /\.partial-(\d+)-[0-9a-z]+$/;

/**
 * Remove the partial folders of installs whose sweep is gone (killed, or its machine restarted):
 * an install of a live sweep is left alone. Returns the folders removed.
 */
export function removeStalePartials(cache: string): string[] {
  if (!existsSync(cache)) return [];
  const stale = readdirSync(cache).filter((name) => {
    const pid = Number(PARTIAL.exec(name)?.[1] ?? NaN);
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid);
  });
  for (const name of stale) rmSync(join(cache, name), { recursive: true, force: true });
  return stale;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: alive, another user's.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Install into a folder of its own, then move it into place: an interrupted install never looks
 * complete, and its folder is removed however the sweep ends (`signal`, an error, its exit).
 */
export async function install(
  dir: string,
  packages: readonly string[],
  version: string,
  legacy: boolean,
  signal?: AbortSignal,
): Promise<void> {
  const partial = `${dir}.partial-${process.pid}-${Date.now().toString(36)}`;
  const removePartial = () => rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  process.once('exit', removePartial);
  try {
    writeManifest(partial, legacy);
    const specs = [...packages.map((p) => `${p}@${version}`), ...(legacy ? NODE_SHIMS : [])];
    try {
      await npm(
        [
          'install',
          '--prefix',
          partial,
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
          '--save-exact',
          ...specs,
        ],
        signal,
      );
    } catch (e) {
      throw npmProblem(e, `installing ${specs.join(' ')} (its partial folder is removed)`);
    }
    writeFileSync(join(partial, COMPLETE), JSON.stringify({ packages, version, legacy }));
    if (isComplete(dir, packages)) return; // another sweep finished the same install first
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  } finally {
    removePartial();
    process.off('exit', removePartial);
  }
}

/** The install folder's own package.json: a legacy build's old tools overridden by an empty package. */
function writeManifest(partial: string, legacy: boolean): void {
  const manifest: Record<string, unknown> = {
    private: true,
    description: 'storebench: a variant of a store, installed by npm run sweep',
  };
  if (legacy) {
    mkdirSync(join(partial, 'empty'));
    writeFileSync(
      join(partial, 'empty', 'package.json'),
      JSON.stringify({ name: 'storebench-empty', version: '1.0.0' }),
    );
    manifest.overrides = Object.fromEntries(LEGACY_TOOLS.map((t) => [t, 'file:./empty']));
  }
  writeFileSync(join(partial, 'package.json'), JSON.stringify(manifest, null, 2));
}

/** The version and integrity npm installed of each package, from the cache folder's package-lock.json. */
export function readLock(dir: string): (pkg: string) => { version: string; integrity: string } {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages?: Record<string, { version?: string; integrity?: string }>;
  };
  return (pkg) => {
    const entry = lock.packages?.[`node_modules/${pkg}`];
    if (!entry?.version || !entry.integrity)
      throw new NpmError(
        `${dir}/package-lock.json records no version and integrity of ${pkg}; remove that folder and run again`,
      );
    return { version: entry.version, integrity: entry.integrity };
  };
}

/** The cache folder of a variant's packages, `<packages>@<version>`. */
export function installDir(cache: string, packages: readonly string[], version: string): string {
  return join(cache, `${packages.map((p) => p.replace('/', '__')).join('+')}@${version}`);
}
