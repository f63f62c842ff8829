/**
 * `storebench.config.json`: read, checked against its published schema (config-schema.ts), and
 * turned into what the commands take: the adapter modules, resolved against the file's folder,
 * and the sweep's flags as command-line text. `--config FILE` names it; otherwise the working
 * directory's is read when there is one. A flag on the command line overrides its key.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, resolve, sep } from 'node:path';
import PUBLISHED from '../../../storebench.config.schema.json' with { type: 'json' };
import { jsonWhere } from '../../core/base/json-where.ts';
import { clipped } from '../../core/base/shown.ts';
import { findFault, type SchemaNode } from '../../core/schema/check.ts';
import { ArgsError, scanFlags, type FlagSpec } from './flags.ts';
import { isAutoBudget } from './sweep-flags.ts';

export const CONFIG_FILE = 'storebench.config.json';

export interface StorebenchConfig {
  /** The file read, as given or found (for messages), and its absolute path. */
  shown: string;
  path: string;
  /** The folder the adapter modules are resolved against. */
  dir: string;
  /** The adapter modules: absolute paths, in the file's order, with each entry as written. */
  adapters: readonly { path: string; written: string }[];
  /** The `sweep` keys, as flag values: text, or true for a switch given. */
  sweep: ReadonlyMap<string, string | true>;
}

/** A config that cannot be used: the message names the file and the JSON path. Exit 2. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A config is a page of keys; more is not a config, and is not read whole to find out. */
const MAX_CONFIG_BYTES = 1024 * 1024;
/** The modules a config may name: code Node and the page build can import. */
const MODULE_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'];

/**
 * The config `--config` names (must exist), or the working directory's storebench.config.json
 * when there is one, or null. Nothing of a file's text is ever quoted: a config that is a symlink
 * to a key or a `.env` would otherwise have its first characters printed.
 */
export function readConfig(
  given: string | undefined,
  cwd = process.cwd(),
): StorebenchConfig | null {
  const shown = given ?? CONFIG_FILE;
  const path = resolve(cwd, shown);
  const said = given === undefined ? `${shown} (in the working directory)` : `--config: ${shown}`;
  let kind;
  try {
    kind = statSync(path);
  } catch {
    if (given === undefined) return null;
    throw new ConfigError(`${said}: no such file`);
  }
  // Checked before opening: a FIFO would block the read, a folder would fail it.
  if (!kind.isFile())
    throw new ConfigError(`${said}: not a regular file; give a JSON file of storebench's keys`);
  if (kind.size > MAX_CONFIG_BYTES)
    throw new ConfigError(
      `${said}: ${kind.size} bytes, more than a config's ${MAX_CONFIG_BYTES} at most`,
    );
  const text = readFileSync(path, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ConfigError(`${shown}: not JSON ${jsonWhere(e, text)}`);
  }
  const fault = findFault(PUBLISHED as SchemaNode, data, () => undefined);
  if (fault) throw new ConfigError(`${shown}: ${fault.path}: ${fault.what}`);
  const config = data as { adapters?: string[]; sweep?: Record<string, unknown> };
  const dir = dirname(path);
  const adapters = (config.adapters ?? []).map((written, i) => ({
    path: adapterModule(shown, dir, written, i),
    written,
  }));
  return { shown, path, dir, adapters, sweep: flagValues(config.sweep ?? {}) };
}

/**
 * An adapter module's absolute path: a file of a module's extension inside the config's folder,
 * after symlinks. Anything else is refused before a byte of it is read or run: the module is
 * imported, and its import error would print what it read.
 */
function adapterModule(shown: string, dir: string, written: string, i: number): string {
  const where = `${shown}: $.adapters[${i}]: ${clipped(written)}`;
  const allowed = `give a module (${MODULE_EXTENSIONS.join(', ')}) inside the config's folder that exports a StoreAdapter`;
  const abs = resolve(dir, written);
  if (!MODULE_EXTENSIONS.includes(extname(abs)))
    throw new ConfigError(`${where} is not a module; ${allowed}`);
  let real: string;
  try {
    real = realpathSync(abs);
  } catch {
    throw new ConfigError(`${where} is no file (resolved against the config's folder); ${allowed}`);
  }
  const root = realpathSync(dir);
  if (!real.startsWith(`${root}${sep}`))
    throw new ConfigError(`${where} leaves the config's folder; ${allowed}`);
  if (!statSync(real).isFile()) throw new ConfigError(`${where} is no file; ${allowed}`);
  return abs;
}

/** A key's JSON value as the flag's text: lists joined with commas, numbers written out, false left out. */
function flagValues(sweep: Record<string, unknown>): Map<string, string | true> {
  const values = new Map<string, string | true>();
  for (const [name, value] of Object.entries(sweep)) {
    if (value === false || value === undefined) continue;
    if (value === true) values.set(name, true);
    else if (Array.isArray(value)) values.set(name, value.map(String).join(','));
    else values.set(name, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return values;
}

/**
 * Keys that stand for one choice: giving one of them on the command line drops the others from
 * the config, so `--ab A,B` replaces a config's `adapters`, and `--iterations` its `budget`.
 */
const ONE_CHOICE: readonly (readonly string[])[] = [
  ['adapters', 'ab'],
  ['ab', 'baseline'],
  ['iterations', 'budget', 'auto'],
  ['manual', 'browsers'],
];

/**
 * A fixed --budget on the command line replaces a config's `budget-max`, and --budget-max a
 * config's `budget`; --budget auto keeps the config's cap, which it reads.
 */
function budgetChoice(given: ReadonlyMap<string, string | true>): string[] {
  const budget = given.get('budget');
  if (typeof budget === 'string' && !isAutoBudget(budget)) return ['budget-max'];
  return given.has('budget-max') ? ['budget'] : [];
}

/**
 * The command line with the config's flags added where the command line does not give them: the
 * argv to parse, and the flags that came from the config. Throws ArgsError for a bad command line.
 */
export function withConfigFlags(
  argv: readonly string[],
  config: StorebenchConfig | null,
  specs: Readonly<Record<string, FlagSpec>>,
): { argv: string[]; fromConfig: Set<string>; overridden: Set<string> } {
  const fromConfig = new Set<string>();
  const overridden = new Set<string>();
  if (config === null) return { argv: [...argv], fromConfig, overridden };
  const scanned = scanFlags(argv, specs).values;
  const given = new Set(scanned.keys());
  const dropped = new Set([
    ...ONE_CHOICE.flatMap((group) => (group.some((k) => given.has(k)) ? group : [])),
    ...budgetChoice(scanned),
  ]);
  const added: string[] = [];
  for (const [name, value] of config.sweep) {
    if (given.has(name) || dropped.has(name)) {
      overridden.add(name);
      continue;
    }
    fromConfig.add(name);
    added.push(value === true ? `--${name}` : `--${name}=${value}`);
  }
  return { argv: [...argv, ...added], fromConfig, overridden };
}

/** An ArgsError about a flag that came from the config, said as the config's key. */
export function configArgsError(
  e: ArgsError,
  config: StorebenchConfig | null,
  fromConfig: ReadonlySet<string>,
): ArgsError {
  const flag = /^--([a-z][a-z-]*)/.exec(e.message)?.[1];
  if (config === null || flag === undefined || !fromConfig.has(flag)) return e;
  return new ArgsError(`${config.shown}: $.sweep.${flag}${e.message.slice(flag.length + 2)}`);
}
