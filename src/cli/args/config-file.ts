/**
 * `storebench.config.json`: read, checked against its published schema (config-schema.ts), and
 * turned into what the commands take: the adapter modules, resolved against the file's folder,
 * and the sweep's flags as command-line text. `--config FILE` names it; otherwise the working
 * directory's is read when there is one. A flag on the command line overrides its key.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import PUBLISHED from '../../../storebench.config.schema.json' with { type: 'json' };
import { findFault, type SchemaNode } from '../../core/schema/check.ts';
import { ArgsError, scanFlags, type FlagSpec } from './flags.ts';

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

/**
 * The config `--config` names (must exist), or the working directory's storebench.config.json
 * when there is one, or null.
 */
export function readConfig(
  given: string | undefined,
  cwd = process.cwd(),
): StorebenchConfig | null {
  const shown = given ?? CONFIG_FILE;
  const path = resolve(cwd, shown);
  if (given === undefined && !existsSync(path)) return null;
  if (!existsSync(path) || !statSync(path).isFile())
    throw new ConfigError(`--config: ${shown}: no such file`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new ConfigError(`${shown}: not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  const fault = findFault(PUBLISHED as SchemaNode, data, () => undefined);
  if (fault) throw new ConfigError(`${shown}: ${fault.path}: ${fault.what}`);
  const config = data as { adapters?: string[]; sweep?: Record<string, unknown> };
  const dir = dirname(path);
  const adapters = (config.adapters ?? []).map((written, i) => {
    const abs = resolve(dir, written);
    if (!existsSync(abs) || !statSync(abs).isFile())
      throw new ConfigError(
        `${shown}: $.adapters[${i}]: ${written} is no file (resolved against the config's folder: ${abs}); give a module of this repository that exports a StoreAdapter`,
      );
    return { path: abs, written };
  });
  return { shown, path, dir, adapters, sweep: flagValues(config.sweep ?? {}) };
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
  const given = new Set(scanFlags(argv, specs).values.keys());
  const dropped = new Set(
    ONE_CHOICE.flatMap((group) => (group.some((k) => given.has(k)) ? group : [])),
  );
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
