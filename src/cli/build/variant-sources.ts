/**
 * Where a variant's packages come from (core/plan/variant.ts): an npm version, installed once into a
 * cache outside the project (`${XDG_CACHE_HOME:-~/.cache}/storebench/variants/`), or a local
 * folder, checked and read as it is. Each source says what identifies its build: the integrity
 * hash npm recorded, or the folder's git commit. The page is then built with these folders beside
 * the installed packages (variants-plugin.ts).
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { PlanVocabulary } from '../../core/plan/plan.ts';
import {
  packagesFor,
  parseVariant,
  type ParsedVariant,
  type Wraps,
} from '../../core/plan/variant.ts';
import { clipped, quoted } from '../../core/base/shown.ts';
import { REPO_ROOT } from './build-page.ts';
import {
  checkPublished,
  install,
  installDir,
  isComplete,
  NODE_SHIMS,
  NpmError,
  readLock,
  registry,
  removeStalePartials,
} from './npm-install.ts';
import { EntryError, packageEntry } from './package-entry.ts';
import { own } from '../../core/base/own.ts';
import { jsonWhere } from '../../core/base/json-where.ts';

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
  /** The sweep's Ctrl-C stopped it: an install in progress, now stopped and removed. */
  constructor(
    message: string,
    readonly stopped = false,
  ) {
    super(message);
  }
}

/** The variants among these adapter ids that are builds of a package (an npm version or a folder), not instruments. */
export function packageVariants(ids: readonly string[], vocab: PlanVocabulary): ParsedVariant[] {
  return [...new Set(ids)]
    .filter((id) => !vocab.adapters.includes(id) && id.includes('@'))
    .map((id) => parseVariant(id, vocab.adapters, vocab.wraps ?? {}))
    .filter((v) => ['version', 'folder', 'installed'].includes(v.spec.kind));
}

/** Where a variant's packages come from: installed from npm (`note` hears of an install) or a folder. */
export async function variantSource(
  v: ParsedVariant,
  vocab: PlanVocabulary,
  note: (line: string) => void,
  signal?: AbortSignal,
): Promise<VariantSource> {
  const wraps = own(vocab.wraps, v.base);
  if (!wraps) throw new VariantSourceError(`${v.base} wraps no npm package`);
  if (v.spec.kind === 'version')
    return npmSource({ ...v, spec: v.spec }, wraps, variantCache(), note, signal);
  if (v.spec.kind === 'folder') return folderSource({ ...v, spec: v.spec }, wraps);
  if (v.spec.kind === 'installed') return nodeModulesSource(v, wraps);
  throw new VariantSourceError(`${v.id} is built from no package of its own`);
}

/** One line: what the variant is built from and what identifies that build. */
export function describeSource(s: VariantSource): string {
  if (s.facts.source === 'installed')
    return `${s.what} (${s.facts.folder ?? 'node_modules'}), built as a variant is, so only the code differs from the other side`;
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
 * The npm packages of `version`, installed into the cache unless they are there already. `note`
 * hears what is asked of the registry before it is asked (an unreachable one takes seconds to
 * say so); `signal` stops an install in progress, its npm and its partial folder with it.
 */
export async function npmSource(
  v: ParsedVariant & { spec: { kind: 'version' } },
  wraps: Wraps,
  cache: string,
  note: (line: string) => void,
  signal?: AbortSignal,
): Promise<VariantSource> {
  const { version } = v.spec;
  const { packages, legacy } = packagesFor(wraps, version);
  const dir = installDir(cache, packages, version);
  try {
    for (const stale of removeStalePartials(cache))
      note(`removed ${stale}, left by an install whose sweep has ended`);
    if (!isComplete(dir, packages)) {
      note(`looking up ${packages.map((p) => `${p}@${version}`).join(' ')} on ${registry()}`);
      for (const pkg of packages) await checkPublished(pkg, version, signal);
      note(`installing ${packages.map((p) => `${p}@${version}`).join(' ')} into ${dir}`);
      await install(dir, packages, version, legacy, signal);
    }
    return installedSource(v, dir, packages, legacy);
  } catch (e) {
    if (e instanceof NpmError) throw new VariantSourceError(e.message, e.stopped);
    throw e;
  }
}

/**
 * `X@installed`: the packages this storebench has installed, built as a variant is, so that
 * against a variant (`X@8.0.4`, `X@file:DIR`) the two sides of an A/B come the same way into the
 * page and differ only in their code. They are copied into the variants' cache first: a module
 * the page also imports statically would otherwise stay in the page's main chunk, one module for
 * both ids, and the bundler says so.
 */
function nodeModulesSource(v: ParsedVariant, wraps: Wraps): VariantSource {
  const found = wraps.packages.map((pkg) => {
    const dir = installedDir(pkg);
    if (!dir) throw new VariantSourceError(`${v.id}: ${pkg} is not installed beside storebench`);
    return { pkg, dir, version: packageIn(dir, pkg, null).version };
  });
  const [main] = found;
  if (!main) throw new VariantSourceError(`${v.id}: the adapter names no package`);
  const copy = join(variantCache(), `installed-${main.pkg.replace('/', '+')}@${main.version}`);
  const dirs = found.map(({ pkg, dir }) => {
    const to = join(copy, 'node_modules', pkg);
    if (!existsSync(join(to, 'package.json'))) cpSync(dir, to, { recursive: true });
    return to;
  });
  return {
    id: v.id,
    base: v.base,
    version: main.version,
    what: `${main.pkg} ${main.version}, installed`,
    legacy: false,
    facts: { package: main.pkg, version: main.version, source: 'installed', folder: main.dir },
    dirs,
    local: [],
  };
}

/**
 * The package and version each plain adapter of `ids` wraps, as installed here (`{ package:
 * 'idb', version: '8.0.4' }`): a run records them, so a results file says which release of the
 * store it timed even when no variant was asked for. A package not found is left out.
 */
export function installedPackages(
  ids: readonly string[],
  vocab: PlanVocabulary,
): Record<string, Record<string, string>> {
  const found: Record<string, Record<string, string>> = {};
  for (const id of ids) {
    const pkg = vocab.adapters.includes(id) ? vocab.wraps?.[id]?.packages[0] : undefined;
    const dir = pkg === undefined ? undefined : installedDir(pkg);
    if (pkg === undefined || dir === undefined) continue;
    try {
      found[id] = { package: pkg, version: packageIn(dir, pkg, null).version };
    } catch {
      // A package.json unreadable here: the run goes on without its version.
    }
  }
  return found;
}

/** The folder of a package as Node finds it from storebench's own folder up, or undefined. */
function installedDir(pkg: string): string | undefined {
  for (let dir = REPO_ROOT; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', pkg);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/** What an installed variant is built from: the cache folder's packages, and what npm recorded of them. */
function installedSource(
  v: ParsedVariant,
  dir: string,
  packages: readonly string[],
  legacy: boolean,
): VariantSource {
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
  return {
    id: v.id,
    base: v.base,
    version: main.version,
    what: `${main.pkg} ${main.version}`,
    legacy,
    facts,
    dirs: packages.map((pkg) => join(dir, 'node_modules', pkg)),
    local: [],
  };
}

/** The most a package.json may weigh: a package's is a few kB, and a bigger one is not read. */
const MAX_PACKAGE_JSON_BYTES = 1024 * 1024;

/**
 * A package's folder and what its package.json says. A local build (`local`: the package it must
 * be) must be that package, with its entry inside the folder and built (package-entry.ts).
 */
function packageIn(
  dir: string,
  shown: string,
  local: string | null,
): { name: string; version: string } {
  const kind = statOf(dir, shown);
  if (!kind) throw new VariantSourceError(`${shown}: no such folder (${clipped(dir)})`);
  if (!kind.isDirectory())
    throw new VariantSourceError(
      `${shown} is a file, not a folder (${clipped(dir)}): give the folder that holds the package's package.json`,
    );
  const pkg = readPackageJson(dir, shown);
  const name = typeof pkg.name === 'string' ? pkg.name : '(no name)';
  if (local !== null) {
    if (name !== local)
      throw new VariantSourceError(`${shown} holds package ${quoted(name)}, not ${local}`);
    try {
      packageEntry(dir, pkg, shown);
    } catch (e) {
      if (e instanceof EntryError) throw new VariantSourceError(e.message);
      throw e;
    }
  }
  return { name, version: typeof pkg.version === 'string' ? pkg.version : 'unknown' };
}

/** A path's stat, undefined when nothing is there; any other failure (a name too long, no permission) stops the sweep, saying so. */
function statOf(path: string, shown: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (e) {
    throw new VariantSourceError(
      `${shown}: cannot be read here (${(e as NodeJS.ErrnoException).code ?? clipped(String(e))})`,
    );
  }
}

/** The folder's package.json as an object; anything else stops the sweep, saying what it is. */
function readPackageJson(dir: string, shown: string): Record<string, unknown> {
  const file = join(dir, 'package.json');
  const kind = statOf(file, `${shown}/package.json`);
  if (!kind?.isFile())
    throw new VariantSourceError(
      `${shown} has no package.json; give the folder of the package itself`,
    );
  if (kind.size > MAX_PACKAGE_JSON_BYTES)
    throw new VariantSourceError(
      `${shown}/package.json is ${kind.size} bytes, more than a package's (${MAX_PACKAGE_JSON_BYTES} at most): give the folder of the package itself`,
    );
  if (!realpathSync(file).startsWith(`${realpathSync(dir)}${sep}`))
    throw new VariantSourceError(
      `${shown}/package.json is a symlink to a file outside the folder; a local build's package.json must be its own`,
    );
  let pkg: unknown;
  const text = readFileSync(file, 'utf8');
  try {
    pkg = JSON.parse(text);
  } catch (e) {
    // Where, never what: JSON.parse quotes the text it stopped at, which need not be a package's.
    throw new VariantSourceError(`${shown}/package.json is not JSON ${jsonWhere(e, text)}`);
  }
  if (pkg === null || typeof pkg !== 'object' || Array.isArray(pkg))
    throw new VariantSourceError(`${shown}/package.json is not a JSON object`);
  return pkg as Record<string, unknown>;
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
  const shown = clipped(v.spec.path);
  const dir = resolve(cwd, v.spec.path);
  const [main, ...companions] = wraps.packages;
  if (!main) throw new VariantSourceError(`${v.id}: the adapter names no package`);
  const pkg = packageIn(dir, shown, main);
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
    // A sibling of another name is not the companion; one of its name must be built as the folder is.
    const siblingPackage =
      existsSync(join(sibling, 'package.json')) &&
      packageIn(sibling, clipped(sibling), null).name === name
        ? packageIn(sibling, clipped(sibling), name)
        : null;
    if (siblingPackage !== null) {
      facts[name] =
        `sibling folder ${sibling}, ${siblingPackage.version}, commit ${gitCommit(sibling)}`;
      dirs.push(sibling);
      local.push(sibling);
    } else if (existsSync(join(installed, 'package.json'))) {
      facts[name] =
        `installed ${packageIn(installed, name, null).version} (this project's node_modules; no sibling folder ${sibling})`;
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
