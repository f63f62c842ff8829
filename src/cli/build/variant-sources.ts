/**
 * Where a variant's packages come from (core/variant.ts): an npm version, installed once into a
 * cache outside the project (`${XDG_CACHE_HOME:-~/.cache}/storebench/variants/`), or a local
 * folder, checked and read as it is. Each source says what identifies its build: the integrity
 * hash npm recorded, or the folder's git commit. The page is then built with these folders beside
 * the installed packages (variants-plugin.ts).
 */
import { execFile, execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { PlanVocabulary } from '../../core/plan.ts';
import { packagesFor, parseVariant, type ParsedVariant, type Wraps } from '../../core/variant.ts';
import { REPO_ROOT } from './build-page.ts';

/** A variant ready to build: its packages' folders and what identifies them. */
export interface VariantSource {
  id: string;
  base: string;
  /** The store package's version, as its package.json says. */
  version: string;
  /** `idb 8.0.4`, or `pouchdb-browser 9.0.0 from ../pouchdb/...`, for labels. */
  what: string;
  /** CommonJS for browserify, bundled with Node's shims (Wraps.before). */
  legacy: boolean;
  /** The results' environment.adapters[id]: package, version, source, integrity or folder and commit. */
  facts: Record<string, string>;
  /** The packages' folders, in the order of the adapter's packages. */
  dirs: string[];
  /** Folders whose bare imports may fall back to this project's node_modules (a local build's). */
  local: string[];
}

export class VariantSourceError extends Error {
  override readonly name = 'VariantSourceError';
}

/** The variants among these adapter ids that are builds of a package (an npm version or a folder), not instruments. */
export function packageVariants(ids: readonly string[], vocab: PlanVocabulary): ParsedVariant[] {
  return [...new Set(ids)]
    .filter((id) => !vocab.adapters.includes(id) && id.includes('@'))
    .map((id) => parseVariant(id, vocab.adapters, vocab.wraps ?? {}))
    .filter((v) => v.spec.kind === 'version' || v.spec.kind === 'folder');
}

/** Where a variant's packages come from: installed from npm (`note` hears of an install) or a folder. */
export async function variantSource(
  v: ParsedVariant,
  vocab: PlanVocabulary,
  note: (line: string) => void,
): Promise<VariantSource> {
  const wraps = vocab.wraps?.[v.base];
  if (!wraps) throw new VariantSourceError(`${v.base} wraps no npm package`);
  if (v.spec.kind === 'version')
    return npmSource({ ...v, spec: v.spec }, wraps, variantCache(), note);
  if (v.spec.kind === 'folder') return folderSource({ ...v, spec: v.spec }, wraps);
  throw new VariantSourceError(`${v.id} is an instrument, built from no package`);
}

/** One line: what the variant is built from and what identifies that build. */
export function describeSource(s: VariantSource): string {
  const identity = s.facts.integrity ?? `commit ${s.facts.commit ?? 'unknown'}`;
  const from = s.facts.folder === undefined ? 'from npm' : `folder ${s.facts.folder}`;
  return `${s.what}${s.legacy ? ' (CommonJS for browserify, with Node shims)' : ''}, ${from}, ${identity}`;
}

/** The file beside a built page that lists the variants built into it. */
const MANIFEST = 'storebench-variants.json';

/** Record which variants a page holds, for a sweep that serves it with --page (npm run study). */
export function writeBuiltVariants(page: string, sources: readonly VariantSource[]): void {
  writeFileSync(
    join(page, MANIFEST),
    JSON.stringify(
      sources.map((s) => ({ id: s.id, facts: s.facts })),
      null,
      2,
    ),
  );
}

/** The ids of the variants a built page holds; none when it lists none. */
export function builtVariants(page: string): string[] {
  try {
    const list = JSON.parse(readFileSync(join(page, MANIFEST), 'utf8')) as { id?: unknown }[];
    return list.flatMap((v) => (typeof v.id === 'string' ? [v.id] : []));
  } catch {
    return [];
  }
}

/** The cache of installed variants. */
export function variantCache(env: NodeJS.ProcessEnv = process.env): string {
  const base =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : join(homedir(), '.cache');
  return join(base, 'storebench', 'variants');
}

/**
 * Node's shims for a legacy build, installed beside it: the npm packages of the same names stand
 * in for Node's builtins (as browserify gave them), so `require('events')` finds them first.
 */
const NODE_SHIMS = ['events@3.3.0', 'buffer@6.0.3', 'process@0.11.10', 'util@0.12.5'];

/**
 * Build and test tools that 2014 packages list among their dependencies (level-js lists
 * browserify and tape; pouchdb 2.2.0 lists es3ify) and never require at run time. Their own trees
 * no longer install: npm 11 rejects esprima-fb's version 3001.0001.0000-dev-harmony-fb, and
 * browserify 3's derequire needs esprima-six 0.0.x, since unpublished. An empty package stands in.
 */
const LEGACY_TOOLS = ['browserify', 'tape', 'es3ify'];

/** Marks a cache folder whose install finished: written last. */
const COMPLETE = 'storebench-variant.json';

/** The npm packages of `version`, installed into the cache unless they are there already. */
export async function npmSource(
  v: ParsedVariant & { spec: { kind: 'version' } },
  wraps: Wraps,
  cache: string,
  note: (line: string) => void,
): Promise<VariantSource> {
  const { version } = v.spec;
  const { packages, legacy } = packagesFor(wraps, version);
  const dir = join(cache, `${packages.map((p) => p.replace('/', '__')).join('+')}@${version}`);
  if (!isComplete(dir, packages)) {
    for (const pkg of packages) await checkPublished(pkg, version);
    note(`installing ${packages.map((p) => `${p}@${version}`).join(' ')} into ${dir}`);
    await install(dir, packages, version, legacy);
  }
  const lock = readLock(dir);
  const [main, ...companions] = packages.map((pkg) => ({ pkg, ...lock(pkg) }));
  if (!main) throw new VariantSourceError(`${v.id}: the adapter names no package`);
  const facts: Record<string, string> = {
    package: main.pkg,
    version: main.version,
    source: `npm ${registry()}`,
    integrity: main.integrity,
  };
  for (const c of companions) facts[c.pkg] = `npm ${c.version}, ${c.integrity}`;
  if (legacy)
    facts.build = `CommonJS for browserify, bundled with ${NODE_SHIMS.join(', ')} for Node's builtins`;
  const dirs = packages.map((pkg) => join(dir, 'node_modules', pkg));
  return {
    id: v.id,
    base: v.base,
    version: main.version,
    what: `${main.pkg} ${main.version}`,
    legacy,
    facts,
    dirs,
    local: [],
  };
}

function isComplete(dir: string, packages: readonly string[]): boolean {
  return (
    existsSync(join(dir, COMPLETE)) &&
    packages.every((p) => existsSync(join(dir, 'node_modules', p, 'package.json')))
  );
}

/** The version and integrity npm installed of each package, from the cache folder's package-lock.json. */
function readLock(dir: string): (pkg: string) => { version: string; integrity: string } {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages?: Record<string, { version?: string; integrity?: string }>;
  };
  return (pkg) => {
    const entry = lock.packages?.[`node_modules/${pkg}`];
    if (!entry?.version || !entry.integrity)
      throw new VariantSourceError(
        `${dir}/package-lock.json records no version and integrity of ${pkg}; remove that folder and run again`,
      );
    return { version: entry.version, integrity: entry.integrity };
  };
}

/** npm's registry, as npm itself is configured. */
function registry(): string {
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

/**
 * Run npm; its stdout, or a rejection with npm's error code and first error line. Its errors are
 * asked for explicitly: under `npm run --silent` the child inherits a silent log level.
 */
function npm(args: readonly string[]): Promise<string> {
  return new Promise((ok, fail) => {
    execFile(
      'npm',
      [...args, '--loglevel=error'],
      { encoding: 'utf8', timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return ok(stdout);
        const code =
          /npm (?:error|ERR!) code (\S+)/.exec(stderr)?.[1] ??
          (error as NodeJS.ErrnoException).code ??
          String(error.code ?? 'failed');
        const lines = stderr
          .split('\n')
          .filter((l) => /^npm (error|ERR!)/.test(l) && !/ code | A complete log /.test(l));
        fail(
          Object.assign(new Error(lines[0]?.replace(/^npm (error|ERR!)\s*/, '') ?? error.message), {
            npmCode: code,
          }),
        );
      },
    );
  });
}

const UNREACHABLE =
  /^(E[A-Z_]*(NOTFOUND|REFUSED|RESET|TIMEDOUT|UNREACH|AGAIN)|ETIMEDOUT|EAI_AGAIN|ECONNRESET|ENETUNREACH|EHOSTUNREACH|CERT_|UNABLE_TO|SELF_SIGNED|ERR_SOCKET)/;

/** Why npm failed, in words: an unreachable registry, or npm's own first line. */
function npmProblem(e: unknown, doing: string): VariantSourceError {
  const code = (e as { npmCode?: string }).npmCode ?? 'failed';
  if (UNREACHABLE.test(code))
    return new VariantSourceError(
      `the npm registry ${registry()} could not be reached (${code}) while ${doing}`,
    );
  return new VariantSourceError(
    `npm failed (${code}) while ${doing}: ${e instanceof Error ? e.message : String(e)}`,
  );
}

/** That npm has this version of the package; otherwise what it has. */
async function checkPublished(pkg: string, version: string): Promise<void> {
  try {
    if ((await npm(['view', `${pkg}@${version}`, 'version'])).trim() !== '') return;
  } catch (e) {
    if ((e as { npmCode?: string }).npmCode !== 'E404')
      throw npmProblem(e, `looking up ${pkg}@${version}`);
  }
  let latest: string;
  try {
    latest = (await npm(['view', pkg, 'dist-tags.latest'])).trim();
  } catch (e) {
    if ((e as { npmCode?: string }).npmCode === 'E404')
      throw new VariantSourceError(`npm has no package named ${pkg}`);
    throw npmProblem(e, `looking up ${pkg}`);
  }
  throw new VariantSourceError(`npm has no version ${version} of ${pkg}; its latest is ${latest}`);
}

/** Install into a folder of its own, then move it into place: an interrupted install never looks complete. */
async function install(
  dir: string,
  packages: readonly string[],
  version: string,
  legacy: boolean,
): Promise<void> {
  const partial = `${dir}.partial-${process.pid}-${Date.now().toString(36)}`;
  mkdirSync(partial, { recursive: true });
  try {
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
    const specs = [...packages.map((p) => `${p}@${version}`), ...(legacy ? NODE_SHIMS : [])];
    try {
      await npm([
        'install',
        '--prefix',
        partial,
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--save-exact',
        ...specs,
      ]);
    } catch (e) {
      throw npmProblem(e, `installing ${specs.join(' ')}`);
    }
    writeFileSync(join(partial, COMPLETE), JSON.stringify({ packages, version, legacy }));
    if (isComplete(dir, packages)) return; // another sweep finished the same install first
    rmSync(dir, { recursive: true, force: true });
    renameSync(partial, dir);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

/** A package's folder: its package.json, and its build's entry file present. */
function packageIn(dir: string, shown: string): { name: string; version: string } {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new VariantSourceError(`${shown}: no such folder (${dir})`);
  const file = join(dir, 'package.json');
  if (!existsSync(file))
    throw new VariantSourceError(
      `${shown} has no package.json; give the folder of the package itself`,
    );
  let pkg: { name?: unknown; version?: unknown; module?: unknown; main?: unknown };
  try {
    pkg = JSON.parse(readFileSync(file, 'utf8')) as typeof pkg;
  } catch (e) {
    throw new VariantSourceError(
      `${shown}/package.json is not JSON: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  const entry = [pkg.module, pkg.main].find((f): f is string => typeof f === 'string');
  if (entry && !existsSync(join(dir, entry)) && !existsSync(join(dir, `${entry}.js`))) {
    throw new VariantSourceError(
      `${shown} has no ${entry} (its package.json's entry): build the package first`,
    );
  }
  return {
    name: typeof pkg.name === 'string' ? pkg.name : '(no name)',
    version: typeof pkg.version === 'string' ? pkg.version : 'unknown',
  };
}

/** The folder's git commit, `-dirty` when its work tree has changes, or that it is not in git. */
export function gitCommit(dir: string): string {
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', dir, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 30_000,
    }).trim();
  try {
    const commit = git('rev-parse', 'HEAD');
    return git('status', '--porcelain') === '' ? commit : `${commit}-dirty`;
  } catch {
    return 'not a git folder';
  }
}

/**
 * A local build: the folder must hold the package the adapter wraps. A companion package
 * (pouchdb-find beside pouchdb-browser) comes from a sibling folder of its name when there is one,
 * as in PouchDB's `packages/node_modules/`, otherwise from this project's node_modules. No network.
 */
export function folderSource(
  v: ParsedVariant & { spec: { kind: 'folder' } },
  wraps: Wraps,
  cwd = process.cwd(),
): VariantSource {
  const shown = v.spec.path;
  const dir = resolve(cwd, shown);
  const [main, ...companions] = wraps.packages;
  if (!main) throw new VariantSourceError(`${v.id}: the adapter names no package`);
  const pkg = packageIn(dir, shown);
  if (pkg.name !== main)
    throw new VariantSourceError(`${shown} holds package ${pkg.name}, not ${main}`);
  const facts: Record<string, string> = {
    package: main,
    version: pkg.version,
    source: 'folder',
    folder: dir,
    commit: gitCommit(dir),
  };
  const dirs = [dir];
  const local = [dir];
  for (const name of companions) {
    const sibling = join(dirname(dir), name);
    const installed = join(REPO_ROOT, 'node_modules', name);
    if (existsSync(join(sibling, 'package.json')) && packageIn(sibling, sibling).name === name) {
      facts[name] =
        `sibling folder ${sibling}, ${packageIn(sibling, sibling).version}, commit ${gitCommit(sibling)}`;
      dirs.push(sibling);
      local.push(sibling);
    } else if (existsSync(join(installed, 'package.json'))) {
      facts[name] =
        `installed ${packageIn(installed, name).version} (this project's node_modules; no sibling folder ${sibling})`;
      dirs.push(installed);
    } else {
      throw new VariantSourceError(
        `${v.id}: ${name} is neither in a sibling folder (${sibling}) nor installed in this project`,
      );
    }
  }
  return {
    id: v.id,
    base: v.base,
    version: pkg.version,
    what: `${main} ${pkg.version} from ${shown}`,
    legacy: false,
    facts,
    dirs,
    local,
  };
}
