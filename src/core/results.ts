/**
 * Results schema v1: one JSON document per browser run. Defined once here and shared by the
 * page, the CLI and the tests. Every reader calls `validateResults`, which rejects bad input
 * with a message that says what is wrong and where (a JSON path).
 */
import { STUDY_TAG, type Plan } from './plan.ts';
import { derivedFromSamples, type Stats } from './stats.ts';
import type { CaseIdentity, DbMode } from './identity.ts';

export const RESULTS_SCHEMA = 'storebench/results@1';

/** Results files larger than this are refused before parsing (a hostile or corrupt file). */
export const MAX_RESULTS_BYTES = 64 * 1024 * 1024;

export type CaseStatus = 'ok' | 'unsupported' | 'error' | 'timeout';
export const CASE_STATUSES: readonly CaseStatus[] = ['ok', 'unsupported', 'error', 'timeout'];

interface CaseBase extends CaseIdentity {
  /** Timed samples in ms, in the order taken. Kept for every status, possibly partial. */
  samples: number[];
  /** Warm-up samples in ms, kept but left out of the statistics. */
  warmup: number[];
  /** Named per-sample measurements besides the time, one value per timed sample. */
  metrics?: Record<string, number[]>;
  /**
   * What each timed sample found that is not a number, in words, one per sample: e.g. the error a
   * store gave when it was full (the quota suite). Absent where a case finds nothing of the kind.
   */
  notes?: string[];
  /**
   * Timed samples taken in each pass over the plan, in order (`samples` is their concatenation):
   * a reader can compare a row's passes. Absent with one pass, and in older files.
   */
  samplesPerPass?: number[];
  /** Points the case recorded in each timed sample, e.g. batch time against store size. */
  series?: { x: string; y: string; samples: [number, number][][] };
  /**
   * How the row ran: `fresh`, a new database per sample, or `shared`, one database filled once
   * for all its samples (read-only cases). Absent for rows that never ran, and in older files.
   */
  db?: DbMode;
  /**
   * Runs of the case body in each timed sample, calibrated so a sample spans about 1,000 timer
   * steps; each sample is the timed section over this count, the time of one run. Absent in older files (1).
   */
  repeats?: number;
}

export const DB_MODES: readonly DbMode[] = ['fresh', 'shared'];

/**
 * Why a row stopped taking samples: it reached its count (the plan's `iterations`, or auto's
 * `maxN`), its median's interval reached the target, one more sample would have passed its
 * own time cap (`auto.maxMs`), its group's share of the run's budget was spent, or the run was
 * cancelled in a later pass, after the row had its samples from the earlier ones.
 */
export type StopReason = 'iterations' | 'ci-target' | 'decided' | 'time-cap' | 'budget' | 'cancelled';
export const STOP_REASONS: readonly StopReason[] = ['iterations', 'ci-target', 'decided', 'time-cap', 'budget', 'cancelled'];

/** Samples flagged as outliers: beyond median ± k·MAD (scaled). Flagged only; they stay in `samples` and in the stats. */
export interface Outliers {
  k: number;
  /** Indexes into `samples`, ascending. */
  indexes: number[];
}

/** Only `ok` carries statistics; the other statuses carry the reason instead. */
export type CaseResult =
  | (CaseBase & {
      status: 'ok';
      reason: null;
      stats: Stats;
      /** Absent in files written before it was recorded. */
      stopped?: StopReason;
      /**
       * The precision the row reached: the larger side of its median's 95% interval over the
       * median (0.02 = ±2%); null below 6 samples. Absent in older files.
       */
      precision?: number | null;
      /** Absent in files written before outliers were flagged. */
      outliers?: Outliers;
      /**
       * How long the page's main thread was blocked while the case ran in the measurement pass, an
       * untimed run after the timed samples (`maxFrameGapMs`, `longTasks`, `longTaskMs`);
       * environment.metricNotes says what each means. Absent where nothing was measured, and in
       * files written when the probe ran in every sample (there they are per-sample `metrics`).
       */
      blocking?: Record<string, number>;
      /**
       * What the store kept after the case, from an untimed pass after the timed samples (e.g.
       * `storageBytes`, `heapBytes`); environment.metricNotes says what each means and how far
       * to trust it. Absent where nothing was measured.
       */
      footprint?: Record<string, number>;
    })
  | (CaseBase & { status: 'unsupported' | 'error' | 'timeout'; reason: string });

export interface BrowserInfo {
  name: string;
  version: string;
  engine: string;
}

export interface Environment {
  browser: BrowserInfo;
  userAgent: string;
  os: string;
  cores: number | null;
  /** navigator.deviceMemory in GiB where exposed (Chromium), else null. */
  deviceMemoryGb: number | null;
  crossOriginIsolated: boolean;
  /** Measured performance.now() step in ms. */
  timerStepMs: number;
  /** navigator.storage.estimate() at the start of the run, where it exists. */
  storageEstimate: { quota: number | null; usage: number | null } | null;
  /** Where the benchmark ran: the page's main thread or a dedicated Worker. */
  context: 'main' | 'worker';
  harness: { version: string; commit: string };
  /**
   * What each metric the page recorded besides the time means here, and how far to trust it, by
   * metric name (e.g. storage estimates are coarse). Also names metrics this browser could not
   * record, and why. Absent in older files.
   */
  metricNotes?: Record<string, string>;
  /**
   * What each store reported about how it ran here (StoreAdapter.describe), by adapter id: e.g.
   * `{ "sqlite-opfs": { "vfs": "opfs-sahpool", "sqlite": "3.54.1" } }`, or that WebSQL was
   * emulated. Only stores that reported something; absent in older files.
   */
  adapters?: Record<string, Record<string, string>>;
}

export interface RunInfo {
  id: string;
  startedAt: string;
  finishedAt: string;
  /** The label the driver gave this browser (e.g. `chromium`), or one derived from the UA. */
  browser: string;
  plan: Plan;
  cancelled: boolean;
  /** Adapter order of each round of each case group, as run (seeded, interleaved). */
  order: { suite: string; case: string; size: number; rounds: string[][] }[];
  /**
   * Browser launches the passes ran in (the sweep's --launches, src/core/launch.ts); each row's
   * samplesPerPass then spans them all. Absent: one launch, as in the page and in older files.
   */
  launches?: number;
}

export interface ResultsFile {
  schema: typeof RESULTS_SCHEMA;
  harness: { name: 'storebench'; version: string; commit: string };
  run: RunInfo;
  environment: Environment;
  cases: CaseResult[];
}

export class ResultsError extends Error {
  override readonly name = 'ResultsError';
}

/** The JSON of a results file, refused over the size cap or when it is not JSON. `source` names the file in messages. */
export function parseResultsJson(text: string, source: string): unknown {
  if (text.length > MAX_RESULTS_BYTES) {
    throw new ResultsError(`${source}: ${text.length} bytes is larger than the ${MAX_RESULTS_BYTES}-byte limit for a results file`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ResultsError(`${source}: not JSON (${(e as Error).message})`);
  }
}

/** Parse and validate results JSON text. `source` names the file in messages. */
export function parseResults(text: string, source = 'results'): ResultsFile {
  return validateResults(parseResultsJson(text, source), source);
}

/** Deepest nesting a results document may have: a real one is 7 levels deep; 32 leaves room and keeps every reader's recursion safe. */
export const MAX_RESULTS_DEPTH = 32;

/** Refuse nesting deeper than MAX_RESULTS_DEPTH, walking with a stack of its own so the check itself cannot overflow. */
function checkDepth(data: unknown, source: string): void {
  const stack: [unknown, number, string][] = [[data, 0, '$']];
  while (stack.length > 0) {
    const [v, depth, path] = stack.pop() as [unknown, number, string];
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_RESULTS_DEPTH) throw new ResultsError(`${source}: ${path}: nested deeper than ${MAX_RESULTS_DEPTH} levels; a results document is far shallower`);
    if (Array.isArray(v)) v.forEach((x, i) => stack.push([x, depth + 1, `${path}[${i}]`]));
    else for (const [k, x] of Object.entries(v)) stack.push([x, depth + 1, `${path}.${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}`]);
  }
}

/**
 * Check that `data` is a schema v1 results document; return it typed, or throw ResultsError.
 * The document returned is a copy whose ok rows carry `stats`, `precision` and `outliers`
 * recomputed from their samples: a reader never trusts a summary the samples may contradict.
 * `data` itself is left as it was.
 */
export function validateResults(data: unknown, source = 'results'): ResultsFile {
  const fail = (path: string, what: string): never => {
    throw new ResultsError(`${source}: ${path}: ${what}`);
  };
  checkDepth(data, source);
  const obj = (v: unknown, path: string): Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(path, `expected an object, got ${describe(v)}`);
  const str = (v: unknown, path: string): string => (typeof v === 'string' ? v : fail(path, `expected a string, got ${describe(v)}`));
  const num = (v: unknown, path: string): number =>
    typeof v === 'number' && Number.isFinite(v) ? v : fail(path, `expected a finite number, got ${describe(v)}`);
  const nonNeg = (v: unknown, path: string): number => (num(v, path) >= 0 ? (v as number) : fail(path, `expected a number >= 0, got ${String(v)}`));
  const int = (v: unknown, path: string, min = 0): number =>
    Number.isInteger(v) && (v as number) >= min ? (v as number) : fail(path, `expected a whole number >= ${min}, got ${describe(v)}`);
  const bool = (v: unknown, path: string): boolean => (typeof v === 'boolean' ? v : fail(path, `expected true or false, got ${describe(v)}`));
  const arr = (v: unknown, path: string): unknown[] => (Array.isArray(v) ? v : fail(path, `expected an array, got ${describe(v)}`));
  const nullable = <T>(v: unknown, path: string, check: (v: unknown, p: string) => T): T | null => (v === null ? null : check(v, path));

  const root = obj(data, '$');
  if (root.schema !== RESULTS_SCHEMA) {
    fail('$.schema', `expected "${RESULTS_SCHEMA}", got ${describe(root.schema)}; this reader understands only schema v1`);
  }
  const harness = obj(root.harness, '$.harness');
  if (harness.name !== 'storebench') fail('$.harness.name', `expected "storebench", got ${describe(harness.name)}`);
  str(harness.version, '$.harness.version');
  str(harness.commit, '$.harness.commit');

  const run = obj(root.run, '$.run');
  str(run.id, '$.run.id');
  str(run.startedAt, '$.run.startedAt');
  str(run.finishedAt, '$.run.finishedAt');
  str(run.browser, '$.run.browser');
  bool(run.cancelled, '$.run.cancelled');
  if (run.launches !== undefined) int(run.launches, '$.run.launches', 1);
  const plan = obj(run.plan, '$.run.plan');
  for (const k of ['suites', 'adapters'] as const) arr(plan[k], `$.run.plan.${k}`).forEach((x, i) => str(x, `$.run.plan.${k}[${i}]`));
  arr(plan.sizes, '$.run.plan.sizes').forEach((x, i) => int(x, `$.run.plan.sizes[${i}]`, 1));
  int(plan.iterations, '$.run.plan.iterations', 1);
  int(plan.warmup, '$.run.plan.warmup');
  int(plan.seed, '$.run.plan.seed');
  int(plan.timeoutMs, '$.run.plan.timeoutMs', 1);
  str(plan.fixture, '$.run.plan.fixture');
  obj(plan.params, '$.run.plan.params');
  if (plan.auto !== undefined) {
    const auto = obj(plan.auto, '$.run.plan.auto');
    const target = num(auto.targetRelCi, '$.run.plan.auto.targetRelCi');
    if (target <= 0 || target >= 1) fail('$.run.plan.auto.targetRelCi', `expected a fraction of the mean between 0 and 1, got ${target}`);
    const minN = int(auto.minN, '$.run.plan.auto.minN', 2);
    if (int(auto.maxN, '$.run.plan.auto.maxN', 2) < minN) fail('$.run.plan.auto.maxN', `is below minN ${minN}`);
    int(auto.maxMs, '$.run.plan.auto.maxMs', 1);
    if (auto.passes !== undefined) int(auto.passes, '$.run.plan.auto.passes', 1);
  }
  if (plan.budgetMs !== undefined) int(plan.budgetMs, '$.run.plan.budgetMs', 1);
  if (plan.worker !== undefined) bool(plan.worker, '$.run.plan.worker');
  if (plan.cases !== undefined) arr(plan.cases, '$.run.plan.cases').forEach((x, i) => str(x, `$.run.plan.cases[${i}]`));
  if (plan.shard !== undefined) {
    const shard = obj(plan.shard, '$.run.plan.shard');
    const count = int(shard.count, '$.run.plan.shard.count', 1);
    if (int(shard.index, '$.run.plan.shard.index', 1) > count) fail('$.run.plan.shard.index', `is ${String(shard.index)}, beyond the shard count ${count}`);
  }
  if (plan.cpuThrottle !== undefined && !(num(plan.cpuThrottle, '$.run.plan.cpuThrottle') >= 1)) fail('$.run.plan.cpuThrottle', 'expected a rate of at least 1');
  if (plan.study !== undefined && !STUDY_TAG.test(str(plan.study, '$.run.plan.study'))) fail('$.run.plan.study', 'expected a study part such as pouchdb-2.2/paging');
  arr(run.order, '$.run.order').forEach((o, i) => {
    const p = `$.run.order[${i}]`;
    const entry = obj(o, p);
    str(entry.suite, `${p}.suite`);
    str(entry.case, `${p}.case`);
    int(entry.size, `${p}.size`, 1);
    arr(entry.rounds, `${p}.rounds`).forEach((r, j) => arr(r, `${p}.rounds[${j}]`).forEach((a, k) => str(a, `${p}.rounds[${j}][${k}]`)));
  });

  const env = obj(root.environment, '$.environment');
  const browser = obj(env.browser, '$.environment.browser');
  for (const k of ['name', 'version', 'engine'] as const) str(browser[k], `$.environment.browser.${k}`);
  str(env.userAgent, '$.environment.userAgent');
  str(env.os, '$.environment.os');
  nullable(env.cores, '$.environment.cores', (v, p) => int(v, p, 1));
  nullable(env.deviceMemoryGb, '$.environment.deviceMemoryGb', nonNeg);
  bool(env.crossOriginIsolated, '$.environment.crossOriginIsolated');
  nonNeg(env.timerStepMs, '$.environment.timerStepMs');
  nullable(env.storageEstimate, '$.environment.storageEstimate', (v, p) => {
    const est = obj(v, p);
    nullable(est.quota, `${p}.quota`, nonNeg);
    nullable(est.usage, `${p}.usage`, nonNeg);
    return est;
  });
  if (env.context !== 'main' && env.context !== 'worker') fail('$.environment.context', `expected "main" or "worker", got ${describe(env.context)}`);
  const envHarness = obj(env.harness, '$.environment.harness');
  str(envHarness.version, '$.environment.harness.version');
  str(envHarness.commit, '$.environment.harness.commit');
  if (env.metricNotes !== undefined) {
    for (const [name, note] of Object.entries(obj(env.metricNotes, '$.environment.metricNotes'))) str(note, `$.environment.metricNotes.${name}`);
  }
  if (env.adapters !== undefined) {
    for (const [id, facts] of Object.entries(obj(env.adapters, '$.environment.adapters'))) {
      for (const [key, value] of Object.entries(obj(facts, `$.environment.adapters.${id}`))) str(value, `$.environment.adapters.${id}.${key}`);
    }
  }

  arr(root.cases, '$.cases').forEach((c, i) => {
    const p = `$.cases[${i}]`;
    const row = obj(c, p);
    for (const k of ['suite', 'case', 'title', 'adapter'] as const) str(row[k], `${p}.${k}`);
    int(row.size, `${p}.size`, 1);
    obj(row.params, `${p}.params`);
    nonNeg(row.operations, `${p}.operations`);
    arr(row.samples, `${p}.samples`).forEach((s, j) => nonNeg(s, `${p}.samples[${j}]`));
    arr(row.warmup, `${p}.warmup`).forEach((s, j) => nonNeg(s, `${p}.warmup[${j}]`));
    if (row.metrics !== undefined) {
      for (const [name, values] of Object.entries(obj(row.metrics, `${p}.metrics`))) {
        const list = arr(values, `${p}.metrics.${name}`);
        list.forEach((v, j) => num(v, `${p}.metrics.${name}[${j}]`));
        // One value per timed sample, so a metric lines up with the sample it was taken in.
        if (list.length !== (row.samples as unknown[]).length) fail(`${p}.metrics.${name}`, `has ${list.length} values but there are ${(row.samples as unknown[]).length} samples`);
      }
    }
    if (row.notes !== undefined) {
      const notes = arr(row.notes, `${p}.notes`);
      notes.forEach((v, j) => str(v, `${p}.notes[${j}]`));
      if (notes.length !== (row.samples as unknown[]).length) fail(`${p}.notes`, `has ${notes.length} notes but there are ${(row.samples as unknown[]).length} samples`);
    }
    if (row.samplesPerPass !== undefined) {
      const counts = arr(row.samplesPerPass, `${p}.samplesPerPass`).map((v, j) => int(v, `${p}.samplesPerPass[${j}]`));
      const sum = counts.reduce((a, b) => a + b, 0);
      if (sum !== (row.samples as unknown[]).length) fail(`${p}.samplesPerPass`, `adds up to ${sum} but there are ${(row.samples as unknown[]).length} samples`);
    }
    if (row.series !== undefined) {
      const series = obj(row.series, `${p}.series`);
      str(series.x, `${p}.series.x`);
      str(series.y, `${p}.series.y`);
      arr(series.samples, `${p}.series.samples`).forEach((pts, j) =>
        arr(pts, `${p}.series.samples[${j}]`).forEach((pt, k) => {
          const pair = arr(pt, `${p}.series.samples[${j}][${k}]`);
          if (pair.length !== 2) fail(`${p}.series.samples[${j}][${k}]`, `expected an [x, y] pair, got ${pair.length} values`);
          pair.forEach((v, m) => num(v, `${p}.series.samples[${j}][${k}][${m}]`));
        }),
      );
    }
    if (row.db !== undefined && !DB_MODES.includes(row.db as DbMode)) fail(`${p}.db`, `expected one of ${DB_MODES.join(', ')}, got ${describe(row.db)}`);
    if (row.repeats !== undefined) int(row.repeats, `${p}.repeats`, 1);
    const status = row.status;
    if (!CASE_STATUSES.includes(status as CaseStatus)) fail(`${p}.status`, `expected one of ${CASE_STATUSES.join(', ')}, got ${describe(status)}`);
    if (status === 'ok') {
      if (row.reason !== null) fail(`${p}.reason`, `expected null for an ok case, got ${describe(row.reason)}`);
      const samples = row.samples as number[];
      if (samples.length === 0) fail(`${p}.samples`, 'an ok case needs at least one sample');
      // stats, precision and outliers are recomputed below; what the file says of them is not read.
      if (row.stopped !== undefined && !STOP_REASONS.includes(row.stopped as StopReason)) {
        fail(`${p}.stopped`, `expected one of ${STOP_REASONS.join(', ')}, got ${describe(row.stopped)}`);
      }
      for (const k of ['blocking', 'footprint'] as const) {
        if (row[k] !== undefined) for (const [name, value] of Object.entries(obj(row[k], `${p}.${k}`))) num(value, `${p}.${k}.${name}`);
      }
    } else {
      for (const k of ['stopped', 'precision', 'outliers', 'blocking', 'footprint'] as const) if (row[k] !== undefined) fail(`${p}.${k}`, `only an ok row has ${k}; this one is ${String(status)}`);
      if (str(row.reason, `${p}.reason`) === '') fail(`${p}.reason`, `a ${String(status)} case needs a reason`);
    }
  });
  const doc = data as ResultsFile;
  return { ...doc, cases: doc.cases.map((row) => (row.status === 'ok' ? { ...row, ...derivedFromSamples(row.samples, row.samplesPerPass) } : row)) };
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing (the field is missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${String(v)}`;
}
