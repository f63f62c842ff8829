/**
 * The one argument scanner of every command (sweep, start, compare, export, merge, study,
 * bench:overhead, browsers), on node:util's parseArgs. Each command declares its flags; this
 * turns argv into values and positionals, or an ArgsError whose one-line message says what was
 * wrong and what is allowed. The entry points print that message and exit with code 2.
 */
import { parseArgs } from 'node:util';
import { clipped, quoted } from '../../core/base/shown.ts';
import type { Output, OutputKind } from '../files/output.ts';

export class ArgsError extends Error {
  override readonly name = 'ArgsError';
}

/**
 * How a flag is written: `value` takes `--name V` or `--name=V`; `switch` takes nothing;
 * `switch=` takes nothing or `=V` (as `--auto=ci:1%`).
 */
export type FlagKind = 'value' | 'switch' | 'switch=';

export interface FlagSpec {
  kind: FlagKind;
  /** A typical value, for "--name needs a value, e.g. --name EXAMPLE". */
  example?: string;
  /** What the value names for the command to write, checked before any work (outputsOf). */
  output?: OutputKind;
}

export interface ScannedFlags {
  /** --help or -h was given: print the usage and ignore everything else. */
  help: boolean;
  /** The value of each flag given: its text, or true for a switch given bare. */
  values: ReadonlyMap<string, string | true>;
  positionals: string[];
}

export interface ScanOptions {
  /** What positionals mean, for the error when there are some; absent: none are allowed. */
  positionals?: string;
}

/** Scan argv against the declared flags. Throws ArgsError; `help` wins over every mistake. */
export function scanFlags(
  argv: readonly string[],
  specs: Readonly<Record<string, FlagSpec>>,
  options: ScanOptions = {},
): ScannedFlags {
  if (argv.includes('--help') || argv.includes('-h'))
    return { help: true, values: new Map(), positionals: [] };
  const declared = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { type: spec.kind === 'value' ? ('string' as const) : ('boolean' as const) },
    ]),
  );
  const { tokens } = parseArgs({
    args: [...argv],
    options: declared,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const known = [...Object.keys(specs), 'help'];
  const values = new Map<string, string | true>();
  const positionals: string[] = [];
  let terminated = false;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') terminated = true;
    else if (token.kind === 'positional') {
      if (options.positionals === undefined) {
        throw new ArgsError(
          `unexpected argument ${quoted(token.value)}; flags start with --${terminated ? '' : ', e.g. --' + exampleOf(specs)}`,
        );
      }
      positionals.push(token.value);
    } else {
      const spec = specs[token.name];
      if (!spec || token.rawName !== `--${token.name}`) {
        const near = nearest(token.name, known);
        throw new ArgsError(
          `unknown flag ${clipped(token.rawName)}${near ? ` (did you mean --${near}?)` : ''}; allowed: ${known.map((k) => `--${k}`).join(', ')}`,
        );
      }
      if (values.has(token.name))
        throw new ArgsError(
          `--${token.name} is given more than once; give it once${spec.kind === 'value' ? ' (lists are comma-separated)' : ''}`,
        );
      values.set(token.name, valueOf(token.name, spec, token.value, token.inlineValue));
    }
  }
  return { help: false, values, positionals };
}

function valueOf(
  name: string,
  spec: FlagSpec,
  value: string | undefined,
  inline: boolean | undefined,
): string | true {
  if (spec.kind === 'value') {
    if (value === undefined || value.trim() === '' || (!inline && value.startsWith('--'))) {
      throw new ArgsError(`--${name} needs a value, e.g. --${name} ${spec.example ?? '...'}`);
    }
    return value;
  }
  if (value === undefined) return true;
  if (spec.kind === 'switch') throw new ArgsError(`--${name} takes no value, got ${quoted(value)}`);
  return value;
}

/** The text of a value flag, or undefined when it was not given. */
export function flagText(flags: ScannedFlags, name: string): string | undefined {
  const value = flags.values.get(name);
  return typeof value === 'string' ? value : undefined;
}

/**
 * The outputs a command will write, each named by its flag (`{ out: 'merged.json' }`), with its
 * kind from the flag's spec, for the one check every command runs before any work
 * (files/output.ts checkOutputs). A null or undefined path is an output not asked for.
 */
export function outputsOf(
  specs: Readonly<Record<string, FlagSpec>>,
  paths: Readonly<Record<string, string | null | undefined>>,
  rows?: number,
): Output[] {
  return Object.entries(paths).flatMap(([name, path]) => {
    const kind = specs[name]?.output;
    if (kind === undefined) throw new Error(`--${name} is not declared as an output flag`);
    if (path === null || path === undefined) return [];
    return [{ flag: `--${name}`, path, kind, ...(kind === 'folder' && rows ? { rows } : {}) }];
  });
}

/** A whole number flag within [min, max], or the fallback when not given. */
export function flagInteger(
  flags: ScannedFlags,
  name: string,
  min: number,
  max: number,
  fallback: number,
): number {
  const text = flagText(flags, name);
  if (text === undefined) return fallback;
  const digits = text.trim().replace(/_/g, '');
  if (!/^\d+$/.test(digits) || Number(digits) < min || Number(digits) > max)
    throw new ArgsError(`--${name}: ${quoted(text)} is not a whole number from ${min} to ${max}`);
  return Number(digits);
}

/** Run a parser of a value whose RangeError messages start with the flag's name, as ArgsErrors. */
export function asFlagError<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof RangeError) throw new ArgsError(`--${e.message}`);
    throw e;
  }
}

function exampleOf(specs: Readonly<Record<string, FlagSpec>>): string {
  const [name, spec] = Object.entries(specs).find(([, s]) => s.kind === 'value') ?? [
    'help',
    { kind: 'switch' as const },
  ];
  return spec.example ? `${name} ${spec.example}` : name;
}

/** The known name closest to a mistyped one, if it is close enough to be a likely typo. */
function nearest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(name, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  return bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row.push(
        Math.min(
          (prev[j] as number) + 1,
          (row[j - 1] as number) + 1,
          (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
        ),
      );
    }
    prev = row;
  }
  return prev[b.length] as number;
}
