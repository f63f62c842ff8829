/**
 * A local build's entry, checked before the page is built (variant-sources.ts). The page imports
 * the package's folder, and Vite takes its entry from the package.json: `exports` (its "." with
 * a browser build's conditions), else `browser`, `module`, `main`, else index.js. Every entry the
 * package.json names must stay inside the folder once symlinks are followed, and the one the
 * bundler takes must be a file there. Otherwise a file outside the folder (`"main":
 * "../../etc/passwd"`) would be read by the bundler, shown in its errors and bundled, while the
 * results record only the folder's commit.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { quoted } from '../../core/base/shown.ts';

/** The conditions of a browser build's `import()`, as Vite matches `exports` (first key that fits, in the object's order). */
const CONDITIONS = new Set(['browser', 'import', 'module', 'production', 'default']);

/** The entry fields after `exports`, in the order Vite's browser build tries them. */
const FIELDS = ['browser', 'module', 'jsnext:main', 'jsnext', 'main'] as const;

/** What a bundler tries for an entry `x`: x itself, then with an extension, then as a folder. */
const TRIES = ['', '.js', '.mjs', '.cjs', '/index.js', '/index.mjs'];

/** A named entry: where in package.json it is written, and what it says. */
interface Named {
  field: string;
  target: string;
}

/**
 * The file the bundler takes as the package's entry, inside `dir`. Throws EntryError naming the
 * field and what is wrong: outside the folder, missing, not a file, or none named and no index.js.
 */
export function packageEntry(
  dir: string,
  pkg: Readonly<Record<string, unknown>>,
  shown: string,
): string {
  const root = realpathSync(dir);
  const named = [
    ...(pkg.exports === undefined ? [] : exportsTargets(pkg.exports)),
    ...FIELDS.flatMap((f) => fieldTarget(pkg, f)),
  ];
  for (const n of named) outside(root, n, shown);
  const chosen = chosenEntry(pkg, named, shown);
  if (chosen === undefined) {
    const index = inside(root, 'index.js');
    if (index !== undefined) return index;
    throw new EntryError(
      `${shown}: its package.json names no entry (exports, browser, module or main) and the folder has no index.js: build the package first`,
    );
  }
  const file = inside(root, chosen.target);
  if (file === undefined)
    throw new EntryError(
      `${shown} has no ${quoted(chosen.target)} (its package.json's ${chosen.field}): build the package first`,
    );
  return file;
}

export class EntryError extends Error {
  override readonly name = 'EntryError';
}

/** The entry Vite's browser build takes: `exports` wins when the package has it. */
function chosenEntry(
  pkg: Readonly<Record<string, unknown>>,
  named: readonly Named[],
  shown: string,
): Named | undefined {
  if (pkg.exports === undefined || pkg.exports === null)
    return named.find((n) => !n.field.startsWith('browser['));
  const { value, at } = dotEntry(pkg.exports);
  const target = conditionTarget(value, at);
  if (target === undefined)
    throw new EntryError(
      `${shown}: its package.json's exports gives the package itself (".") no entry for a browser's import (conditions ${[...CONDITIONS].join(', ')})`,
    );
  return target;
}

/** A string field, or a `browser` object's entry for the package's main file. */
function fieldTarget(
  pkg: Readonly<Record<string, unknown>>,
  field: (typeof FIELDS)[number],
): Named[] {
  const value = pkg[field];
  if (typeof value === 'string') return value === '' ? [] : [{ field, target: value }];
  // `browser` as an object replaces files by others: each replacement is bundled in their place.
  if (field === 'browser' && value !== null && typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
      typeof v === 'string' && v.startsWith('.')
        ? [{ field: `browser[${JSON.stringify(k)}]`, target: v }]
        : [],
    );
  return [];
}

/** `exports` for the package itself: a string or conditions is ".", a map of subpaths has its "." key. */
function dotEntry(exp: unknown): { value: unknown; at: string } {
  const subpaths =
    exp !== null &&
    typeof exp === 'object' &&
    !Array.isArray(exp) &&
    Object.keys(exp).some((k) => k.startsWith('.'));
  return subpaths
    ? { value: (exp as Record<string, unknown>)['.'], at: 'exports["."]' }
    : { value: exp, at: 'exports' };
}

/** The target the browser build's conditions pick, first match in the object's order. */
function conditionTarget(value: unknown, at: string): Named | undefined {
  if (typeof value === 'string') return { field: at, target: value };
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const t = conditionTarget(v, `${at}[${i}]`);
      if (t) return t;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value))
    if (CONDITIONS.has(k)) return conditionTarget(v, `${at}[${JSON.stringify(k)}]`);
  return undefined;
}

/** Every string target of `exports`, whatever its condition or subpath: each one may be bundled. */
function exportsTargets(exp: unknown, at = 'exports'): Named[] {
  if (typeof exp === 'string') return [{ field: at, target: exp }];
  if (Array.isArray(exp)) return exp.flatMap((v, i) => exportsTargets(v, `${at}[${i}]`));
  if (exp === null || typeof exp !== 'object') return [];
  return Object.entries(exp).flatMap(([k, v]) => exportsTargets(v, `${at}[${JSON.stringify(k)}]`));
}

/** Throws when a named entry leaves the folder, as written or through a symlink. */
function outside(root: string, n: Named, shown: string): void {
  const escapes = (path: string) =>
    path === '..' || path.startsWith(`..${sep}`) || path.startsWith('/');
  const written = relative(root, join(root, n.target));
  let real = written;
  const file = existing(join(root, n.target));
  if (file !== undefined) real = relative(root, realpathSync(file));
  if (!escapes(written) && !escapes(real) && !n.target.startsWith('/')) return;
  throw new EntryError(
    `${shown}: its package.json's ${n.field}, ${quoted(n.target)}, lies outside the folder${escapes(written) || n.target.startsWith('/') ? '' : ' (through a symlink)'}; a local build's entries must be files inside it`,
  );
}

/** The file a bundler finds for `target` inside `root` (after symlinks), or undefined. */
function inside(root: string, target: string): string | undefined {
  const file = existing(join(root, target));
  if (file === undefined) return undefined;
  const real = realpathSync(file);
  return real.startsWith(root.endsWith(sep) ? root : root + sep) ? real : undefined;
}

/** The first of the bundler's tries for `path` that is a file. */
function existing(path: string): string | undefined {
  for (const t of TRIES) {
    const candidate = path + t;
    try {
      if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
    } catch {
      // A name too long for the file system, or a loop of symlinks: not a file here.
    }
  }
  return undefined;
}
