import type { Doc, OpenOptions, StoreAdapter, StoreHandle } from './adapter.ts';
import type { Capability } from './capabilities.ts';
import type { Guaranteed, HandleFor } from './capability-methods.ts';
import type { DbMode, ParamValue } from '../base/identity.ts';
import type { Rng } from '../../../fixtures/random.ts';
import { clipped, quoted } from '../base/shown.ts';

export interface ParamSpec {
  readonly kind: 'int' | 'ints' | 'string';
  readonly default: ParamValue;
  readonly help: string;
  /** For `string`: the allowed values. */
  readonly choices?: readonly string[];
  /** For `int` and `ints`: the smallest allowed value. */
  readonly min?: number;
  /** Set when the parameter is how many samples a driven row takes, not what one measures: rows do not record it. */
  readonly sampling?: true;
}

/** Where a case gets its documents: the plan's fixture shape and seed. */
export interface FixtureSource {
  readonly shape: string;
  readonly seed: number;
  /** Fields of the shape that suites may index and query. */
  readonly indexedFields: readonly string[];
  /**
   * Documents [start, start + count), freshly built each call so a store that mutates what it
   * is given (PouchDB adds `_rev`) cannot leak into the next sample.
   */
  docs(count: number, start?: number): Doc[];
  /** The same documents in chunks, never all in memory at once. */
  chunks(count: number, chunkSize: number, start?: number): Iterable<Doc[]>;
}

/**
 * What a case's steps get. `C` are the capabilities the case surely needs: its handle has their
 * methods (`CaseContext<'query'>` can call `ctx.handle.find`), and only theirs.
 */
export interface CaseContext<C extends Capability = never> {
  readonly adapter: StoreAdapter;
  /**
   * The fresh database of this sample. When the case sets `open: 'self'` it is not opened for
   * the case, and touching it throws; the case opens `dbName` itself.
   */
  readonly handle: HandleFor<C>;
  /**
   * A handle the case opened or wrapped itself, typed like `handle` once it is checked to have
   * the methods of the case's needs; throws naming the store and the method it lacks. Untimed
   * steps only: the check is not part of what a case measures.
   */
  checked(handle: StoreHandle): HandleFor<C>;
  readonly dbName: string;
  readonly size: number;
  readonly params: Readonly<Record<string, ParamValue>>;
  readonly fixture: FixtureSource;
  /** Seeded per sample, so key orders and picks are reproducible. */
  readonly rng: Rng;
  readonly signal: AbortSignal;
  /** The runner's clock, for cases that time parts of `run` themselves (see BenchCase.run). */
  now(): number;
  /** Record a named per-sample measurement besides the time, e.g. a latency percentile. */
  metric(name: string, value: number): void;
  /** Record one point of this sample's series, e.g. (store size, batch ms) in the growth suite. */
  point(x: number, y: number): void;
  /**
   * The database already holds the fixture's `size` documents (a case that `sharesFill` was
   * given a store another case filled in this pass): its setup skips filling.
   */
  readonly filled?: boolean;
}

/**
 * One case of a suite. Only `run` is timed; `setup`, `verify` and `teardown` are not.
 * `verify` proves the store holds what `run` wrote (a broken adapter cannot look fast): it
 * throws with a message when it does not. Its steps' handle has the methods of what it `needs`.
 */
export interface BenchCase<
  State = unknown,
  Needs extends readonly Capability[] = readonly Capability[],
> {
  readonly id: string;
  readonly title: string;
  /** What the store must declare for the case to run; the handle then has their methods. */
  readonly needs: Needs;
  /**
   * Every suite parameter the case depends on, with its value, e.g. `{ chunkSize: 100 }`: the
   * row records these and nothing else of the suite's set, and rows match on them in compare.
   * A case that reads a suite parameter without declaring it here would match rows that measured
   * something else (tests/unit/suites/suites.test.ts checks this).
   */
  readonly params?: Readonly<Record<string, ParamValue>>;
  /** How many operations one sample covers, for per-operation time and ops/s. */
  operations(size: number): number;
  /** `fresh` (default): the runner opens a new database for each sample. `self`: the case does. */
  readonly open?: 'fresh' | 'self';
  /**
   * `fresh` (default): every sample gets a new database, filled by `setup`. `shared`: the case
   * only reads, so `setup` fills one database per row and every sample runs on it; its body may
   * also repeat inside one sample (run/sampling/repeats.ts). A case whose first query after opening matters
   * stays `fresh` and says so in its id (`…-cold`).
   */
  readonly db?: DbMode;
  /**
   * With `db: 'shared'`: the case's setup only fills the store with the fixture's documents
   * (suites/prefill.ts `prefilled`) and computes its state, and its run only reads. Such cases
   * of one store and size share one database in a pass instead of filling one each: at 1,000
   * documents the fills were half of what a pass cost. A case that adds an index, a view or any
   * document leaves it unset.
   */
  readonly sharesFill?: boolean;
  /**
   * Set when the page cannot run the case alone, to what a driver outside it must do (src/core/
   * driven.ts): the runner never calls `run`, and records the row `unsupported` for the driver.
   */
  readonly driven?: string;
  /** `true` when this store can run the case, else why not: for what capabilities cannot say (e.g. it keeps nothing across a restart). */
  supports?(adapter: StoreAdapter): true | string;
  readonly openOptions?: OpenOptions;
  /** Axis names of the points the case records with ctx.point, e.g. `{ x: 'docs in store', y: 'batch ms' }`. */
  readonly series?: { readonly x: string; readonly y: string };
  setup?(ctx: CaseContext<Guaranteed<Needs>>): Promise<State>;
  /**
   * The timed body. The runner times it whole, unless it returns a number: then that is the
   * sample in ms. Only cases that must do untimed work between timed parts use that (growth
   * generates each batch between timed writes so a million documents never sit in memory).
   */
  run(ctx: CaseContext<Guaranteed<Needs>>, state: State): Promise<void | number>;
  verify?(ctx: CaseContext<Guaranteed<Needs>>, state: State): Promise<void>;
  teardown?(ctx: CaseContext<Guaranteed<Needs>>, state: State): Promise<void>;
}

/** `Id`: the suite's id as a literal type, where a registry keys on it (suites/driven.ts). */
export interface Suite<Id extends string = string> {
  readonly id: Id;
  readonly title: string;
  /** What the suite measures, in a sentence or two (shown in the page; docs/suites.md lists them). */
  readonly description: string;
  /** The study it reproduces (docs/suites.md), if any. */
  readonly reproduces?: string;
  readonly params?: Readonly<Record<string, ParamSpec>>;
  /** The cases for these parameter values (defaults filled in from `params`). */
  cases(params: Readonly<Record<string, ParamValue>>): readonly BenchCase[];
}

/**
 * A case, typed: its `State` flows from `setup` to `run`, `verify` and `teardown`, and its
 * handle has the methods of what it `needs` (`needs: ['bulkWrite']` makes `ctx.handle.bulkPut`
 * callable). Leave both to inference: a `State` given by hand leaves `Needs` at its default,
 * which promises no method. The runner holds the case as a plain BenchCase and checks the
 * handle (src/core/run/timed-sample.ts).
 */
export function defineCase<
  State,
  const Needs extends readonly Capability[] = readonly Capability[],
>(c: BenchCase<State, Needs>): BenchCase {
  // The one erasure: BenchCase's steps are methods, whose parameters TypeScript compares both
  // ways, so this case's narrower context passes for the runner's, which gives no method.
  return c;
}

/** Thrown by `verify` when the store does not hold what the case wrote. */
export class VerifyError extends Error {
  override readonly name = 'VerifyError';
}

/** Throw a VerifyError unless `actual` equals `expected`. */
export function expectEqual(what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected)
    throw new VerifyError(
      `verify failed: ${what} is ${String(actual)}, expected ${String(expected)}`,
    );
}

/**
 * The suite's parameter values: its declared defaults, overridden by the plan's `params` where
 * the plan names them. Throws a message naming the parameter and what is allowed.
 */
export function resolveSuiteParams(
  suite: Suite,
  planParams: Readonly<Record<string, ParamValue>>,
): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [name, spec] of Object.entries(suite.params ?? {})) {
    const given = planParams[name];
    if (given === undefined) {
      out[name] = spec.default;
      continue;
    }
    const bad = (what: string) =>
      new RangeError(`suite ${suite.id}: parameter ${name}: ${what} (${spec.help})`);
    const min = spec.min ?? 1;
    if (spec.kind === 'string') {
      if (typeof given !== 'string' || (spec.choices && !spec.choices.includes(given))) {
        throw bad(
          `${quoted(String(given))} is not allowed; allowed: ${spec.choices?.join(', ') ?? 'text'}`,
        );
      }
      out[name] = given;
    } else if (spec.kind === 'int') {
      if (typeof given !== 'number' || !Number.isInteger(given) || given < min)
        throw bad(`expected a whole number >= ${min}, got ${clipped(String(given))}`);
      out[name] = given;
    } else {
      const list = typeof given === 'number' ? [given] : given;
      if (
        !Array.isArray(list) ||
        list.length === 0 ||
        list.some((n) => !Number.isInteger(n) || n < min)
      ) {
        throw bad(
          `expected whole numbers >= ${min}, comma-separated, got ${clipped(String(given))}`,
        );
      }
      out[name] = list;
    }
  }
  return out;
}
