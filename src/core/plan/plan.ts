/**
 * The plan room (src/core/plan/): what to run: the Plan, its defaults, its form fields and URL,
 * shards, variants, A/B and launch budgets. It imports base and stats, nothing above: a plan is
 * written before any result exists.
 *
 * The plan: what to run. One shape for the page controls, the URL query and the sweep's flags,
 * parsed and checked in one place so every entry point rejects bad input the same way.
 */
import { canonicalJson } from '../base/canonical-json.ts';
import { formatDuration } from '../base/format.ts';
import { parseShard, ShardError, type Shard } from './shard.ts';
import type { ParamValue } from '../base/identity.ts';
import { DEFAULT_LOOKS, plannedLooks } from '../stats/sequential.ts';
import { formatPercent, percentOrProblem, type PercentRange } from '../base/percent.ts';
import { clipped, quoted } from '../base/shown.ts';
import { parseVariant, VariantError, type Wraps } from './variant.ts';

export interface Plan {
  suites: string[];
  adapters: string[];
  sizes: number[];
  /** Timed samples per row with fixed sampling (no `auto`); with `auto` it is unused. */
  iterations: number;
  /** Untimed warm-up samples per case, taken before the timed ones. */
  warmup: number;
  seed: number;
  /**
   * Time limit of one step, in ms: one sample (open, setup, run, verify, teardown), or a shared
   * database's fill. A step past it made no progress: the row is `timeout`. Sampling time is
   * bounded by `budgetMs` and `auto.maxMs`, which stop a row without failing it.
   */
  timeoutMs: number;
  fixture: string;
  /** Suite parameters, e.g. `{ chunkSizes: [1, 10, 100] }`; suites fill in their defaults. */
  params: Record<string, ParamValue>;
  /**
   * Adaptive sampling, the default: instead of a fixed `iterations`, each row takes samples until
   * the 95% interval of its median is within the target, and the run's budget goes to the rows
   * whose interval is widest for what a sample costs. Absent means fixed `iterations` (as in
   * every file written without it).
   */
  auto?: AutoSampling;
  /**
   * With `auto`: the time one browser's run may spend sampling, in ms. Rows always get their
   * first 2 samples, so a plan whose minimum alone is longer overruns it (and says so).
   */
  budgetMs?: number;
  /** Run the whole plan in a dedicated Worker instead of the page's main thread. Absent means main. */
  worker?: boolean;
  /** Only these case ids of the chosen suites (e.g. `bulk`). Absent means every case. */
  cases?: string[];
  /**
   * Only this shard's share of the case groups (src/core/plan/shard.ts), for one plan split over
   * several jobs. Absent means the whole plan. Shards of one plan differ only here.
   */
  shard?: Shard;
  /**
   * The study and part this plan runs for `npm run study` (src/studies/), as `study/part`, so a
   * report can find its rows in any set of files. Absent for every other plan.
   */
  study?: string;
  /**
   * Chromium's DevTools CPU throttling (Emulation.setCPUThrottlingRate) at this rate, for every
   * case: 4 runs the page's thread about 4 times slower. It emulates a slow CPU; it is not a
   * device. Only a driver with the DevTools protocol can apply it; elsewhere every row is
   * unsupported, with the reason. Absent means no throttling.
   */
  cpuThrottle?: number;
  /**
   * B against A in one run (paired.ts): `adapters` is the pair [A, B], which sample as adjacent
   * pairs in balanced order in every pass, and each row's B/A is judged against ±thresholdPct.
   * Absent for every other plan.
   */
  ab?: { thresholdPct: number };
}

/** The slowest CPU throttling rate a plan may ask for. */
export const MAX_CPU_THROTTLE = 20;

/** A study part's tag: lower-case words joined by '-' or '.', a slash, then the part's. */
export const STUDY_TAG = /^[a-z0-9][a-z0-9.-]{0,39}\/[a-z0-9][a-z0-9-]{0,39}$/;

export interface AutoSampling {
  /**
   * Stop once the 95% interval of the median lies within ± this fraction of the median
   * (0.02 = ±2%; files written before the median's interval existed meant the mean's)...
   */
  targetRelCi: number;
  /** ...but not before this many timed samples (the median has no 95% interval below 6)... */
  minN: number;
  /** ...and never take more than this many. */
  maxN: number;
  /**
   * ...nor keep sampling once the row (case, store, size) has spent this long on its own steps,
   * in ms. The cap wins over minN: a case whose samples are slow stops with fewer and says so.
   */
  maxMs: number;
  /**
   * Passes over the plan: the budget is spent in this many rounds over every case, each row
   * taking samples in each, so its samples come from minutes apart. Absent in files written
   * before passes, which ran one (read it with passesOf).
   */
  passes?: number;
  /**
   * Looks: the pass counts at which the plan's comparisons (A against B, the findings) are
   * decided, evenly spaced, the last after every pass (sequential.plannedLooks). A comparison
   * decided at a look stops its rows. Absent in files written before looks: one, at the end.
   */
  looks?: number;
}

/** Passes over the plan: adaptive sampling's, or one (fixed sampling, and files without the field). */
export function passesOf(auto: AutoSampling | undefined): number {
  return auto?.passes ?? 1;
}

/** The pass counts a plan's comparisons are decided at; null for one look after every pass (fixed sampling, files without looks). */
export function plannedLooksOf(auto: AutoSampling | undefined): number[] | null {
  const looks = auto?.looks ?? 1;
  return auto && looks > 1 && passesOf(auto) >= 3 ? plannedLooks(passesOf(auto), looks) : null;
}

/**
 * ±2% of the median: a 5% regression then stands clear of run-to-run noise. minN 6: the fewest
 * samples with a distribution-free 95% interval of the median. maxN and maxMs keep one noisy row
 * from taking the whole budget. passes 12: a machine that is slow for half a minute then slows a
 * twelfth of every row's samples instead of all of a few rows'; each pass fills its own databases,
 * and a store's speed differs between passes (by up to 6% here for IndexedDB stores), which only
 * more passes average out: that part of a row's interval shrinks as 1/√passes
 * (stats.passInterval). Twelve rather than six: default Chromium runs, taken in turn, read the
 * median row at ±4.1% against ±5.0% and ±4.5%; 24 passes spend too much of the budget on each
 * pass's fills and warm-ups. looks 4: see sequential.ts.
 */
export const DEFAULT_AUTO: Readonly<AutoSampling> = {
  targetRelCi: 0.02,
  minN: 6,
  maxN: 1000,
  maxMs: 60_000,
  passes: 12,
  looks: DEFAULT_LOOKS,
};

/**
 * Sampling time per browser by default: with the browsers' launches, fills and warm-ups on top,
 * the default plan in three engines takes about 15 minutes (docs/figures.md).
 */
export const DEFAULT_BUDGET_MS = 3.5 * 60_000;

export const PLAN_LIMITS = {
  maxSize: 10_000_000,
  maxIterations: 10_000,
  maxWarmup: 1_000,
  maxTimeoutMs: 24 * 3600 * 1000,
  minBudgetMs: 1000,
  maxBudgetMs: 24 * 3600 * 1000,
  /** Adaptive sampling targets, as a fraction of the median. */
  minTargetRelCi: 0.001,
  maxTargetRelCi: 0.5,
  /** Passes over the plan with adaptive sampling: each one refills every shared database. */
  maxPasses: 50,
  /** Planned looks: each one widens every look's interval a little (sequential.boundary). */
  maxLooks: 10,
} as const;

/**
 * The plan when none is named: the questions people choose a store by (serial against bulk
 * writes, one get at a time against a batch, skip against startkey, an index against a scan,
 * persisted against temporary views, the first query after opening against a warm one), on every
 * store, at the default size (1,000 documents: at 100 the skip/limit penalty and the temporary
 * views' cost barely show). Every other suite, case and size runs by name (--suites, --cases, --sizes).
 */
export const DEFAULT_SUITES: readonly string[] = ['insert', 'read', 'paginate', 'find', 'views'];
export const DEFAULT_CASES: readonly string[] = [
  'serial',
  'bulk', // insert
  'get-serial',
  'get-batch',
  'all', // read
  'ref-skip',
  'ref-startkey', // paginate
  'eq-indexed',
  'eq-scan',
  'eq-indexed-cold',
  'count-all', // find
  'persisted',
  'temp', // views
];

/**
 * Queries per sample of the find and views cases in the default plan: at 1,000 documents one
 * temporary view's query builds its index anew (1 to 4 s a sample of 10 on PouchDB here), and 3
 * measure the same per query for a third of the time.
 */
export const DEFAULT_PLAN_PARAMS: Readonly<Record<string, ParamValue>> = { queries: 3 };

/** The default plan's size: the PouchDB 2.2.0 and JSONStore studies start at 1,000 documents, where their findings show. */
export const DEFAULT_PLAN_SIZES: readonly number[] = [1000];

export const DEFAULT_PLAN: Readonly<Omit<Plan, 'suites' | 'adapters'>> = {
  /** A plan that names its suites or cases: small and quick, for a question of its own; --sizes for more. */
  sizes: [100],
  iterations: 5,
  warmup: 1,
  seed: 42,
  timeoutMs: 120_000,
  fixture: 'person',
  params: {},
};

/** What the plan may name; the registries supply it so this module stays free of imports. */
export interface PlanVocabulary {
  suites: readonly string[];
  adapters: readonly string[];
  fixtures: readonly string[];
  /** The packages each adapter wraps, for variants `ADAPTER@VERSION` and `ADAPTER@file:DIR` (variant.ts); absent: none. */
  wraps?: Readonly<Record<string, Wraps>>;
}

export class PlanError extends Error {
  override readonly name = 'PlanError';
}

/** The fields every plan has, as text. */
type CoreField =
  | 'suites'
  | 'adapters'
  | 'sizes'
  | 'iterations'
  | 'warmup'
  | 'seed'
  | 'timeoutMs'
  | 'fixture'
  | 'params';
/** Fields added later; absent in a plan (and its text) means off or all. */
type OptionalField =
  'auto' | 'budget' | 'worker' | 'cases' | 'shard' | 'study' | 'cpuThrottle' | 'ab';

/** The fields of a plan as text, as they come from a URL query or command-line flags. */
export type PlanFields = Partial<Record<CoreField | OptionalField, string>>;

/**
 * Parse and check a plan from text fields. Omitted fields take defaults (all suites and all
 * adapters, adaptive sampling within the default budget). Throws PlanError naming the field, the
 * bad value and what is allowed.
 */
export function parsePlan(fields: PlanFields, vocab: PlanVocabulary): Plan {
  const auto = parseSampling(fields);
  // The default plan's suites and cases only when neither is named: --suites insert is all of insert.
  const named = fields.suites !== undefined || fields.cases !== undefined;
  const defaults = !named && DEFAULT_SUITES.every((s) => vocab.suites.includes(s));
  // Older versions of a store (ids with an @) run only when named.
  const adapters =
    fields.adapters === undefined
      ? vocab.adapters.filter((a) => !a.includes('@'))
      : abTwin(fields, parseAdapters(fields.adapters, vocab), vocab);
  return {
    suites:
      fields.suites !== undefined
        ? parseNames('suites', fields.suites, vocab.suites)
        : defaults
          ? [...DEFAULT_SUITES]
          : [...vocab.suites],
    adapters,
    ...sampleFields(fields, vocab, defaults),
    // Added only when on, so plans and files from before these fields read exactly as they did.
    ...optional('auto', auto),
    ...optional(
      'budgetMs',
      auto
        ? fields.budget === undefined
          ? DEFAULT_BUDGET_MS
          : parseDuration('budget', fields.budget, PLAN_LIMITS.minBudgetMs, PLAN_LIMITS.maxBudgetMs)
        : undefined,
    ),
    ...optional(
      'worker',
      fields.worker === undefined ? undefined : parseSwitch('worker', fields.worker) || undefined,
    ),
    ...optional(
      'cases',
      fields.cases !== undefined
        ? parseCaseIds(fields.cases)
        : defaults
          ? [...DEFAULT_CASES]
          : undefined,
    ),
    ...optional('shard', fields.shard === undefined ? undefined : parseShardField(fields.shard)),
    ...optional('study', fields.study === undefined ? undefined : parseStudyTag(fields.study)),
    ...optional(
      'cpuThrottle',
      fields.cpuThrottle === undefined ? undefined : parseThrottle(fields.cpuThrottle),
    ),
    ...optional(
      'ab',
      fields.ab === undefined ? undefined : parseAb(fields.ab, fields.adapters, adapters, auto),
    ),
  };
}

/** The fields of how each row is sampled and of what: sizes to params. */
function sampleFields(
  fields: PlanFields,
  vocab: PlanVocabulary,
  defaults: boolean,
): Pick<Plan, 'sizes' | 'iterations' | 'warmup' | 'seed' | 'timeoutMs' | 'fixture' | 'params'> {
  return {
    sizes:
      fields.sizes === undefined
        ? [...(defaults ? DEFAULT_PLAN_SIZES : DEFAULT_PLAN.sizes)]
        : parseIntList('sizes', fields.sizes, 1, PLAN_LIMITS.maxSize),
    iterations:
      fields.iterations === undefined
        ? DEFAULT_PLAN.iterations
        : parseInteger('iterations', fields.iterations, 1, PLAN_LIMITS.maxIterations),
    warmup:
      fields.warmup === undefined
        ? DEFAULT_PLAN.warmup
        : parseInteger('warmup', fields.warmup, 0, PLAN_LIMITS.maxWarmup),
    seed:
      fields.seed === undefined
        ? DEFAULT_PLAN.seed
        : parseInteger('seed', fields.seed, 0, 2 ** 32 - 1),
    timeoutMs:
      fields.timeoutMs === undefined
        ? DEFAULT_PLAN.timeoutMs
        : parseInteger('timeout-ms', fields.timeoutMs, 1, PLAN_LIMITS.maxTimeoutMs),
    fixture:
      fields.fixture === undefined
        ? DEFAULT_PLAN.fixture
        : (parseNames('fixture', fields.fixture, vocab.fixtures, 1)[0] as string),
    params:
      fields.params === undefined
        ? defaults
          ? { ...DEFAULT_PLAN_PARAMS }
          : {}
        : parseParams(fields.params),
  };
}

/** The slowdown an A/B row is judged against when none is given: 5%, as the regression gate's. */
export const DEFAULT_AB_THRESHOLD_PCT = 5;

/**
 * The thresholds an A/B row may be judged against: above 0 and below 100% (at 100% a faster B
 * would need a ratio below 0), in hundredths of a percent, finer than any interval here resolves.
 */
export const AB_THRESHOLD_RANGE: PercentRange = { min: 0.01, max: 99.99, decimals: 2 };

/**
 * `ab`: the threshold in percent (`5` or `5%`), for a plan of exactly two adapters, A then B,
 * sampled adaptively. `adapters` are the plan's, already normalised (`idb@+05%` is `idb@+5%`), so
 * two spellings of one store are one store here as they are in the page.
 */
function parseAb(
  text: string,
  given: string | undefined,
  adapters: readonly string[],
  auto: AutoSampling | undefined,
): Plan['ab'] {
  const pct = percentOrProblem('ab:', text, AB_THRESHOLD_RANGE, '5%');
  if (typeof pct === 'string') throw new PlanError(pct);
  if (given === undefined || adapters.length !== 2)
    throw new PlanError(
      `ab: compares two different stores, A then B; ${abPairProblem(given, adapters)}`,
    );
  if (!auto)
    throw new PlanError(
      'ab: samples each pair until its interval is narrow enough or the budget ends, which needs adaptive sampling; leave out iterations',
    );
  return { thresholdPct: pct };
}

/**
 * `--ab X,X`, a registered store named twice, is an A/A on one build: X against X@twin, the same
 * adapter under a second name (core/variant.ts), so the sides differ only in their position.
 */
function abTwin(fields: PlanFields, adapters: string[], vocab: PlanVocabulary): string[] {
  const [only] = adapters;
  const twice = fields.ab !== undefined && splitList(fields.adapters ?? '').length === 2;
  return twice && adapters.length === 1 && only !== undefined && vocab.adapters.includes(only)
    ? [only, `${only}@twin`]
    : adapters;
}

/** What is wrong with an A/B pair that is not two stores, as the user gave it. */
function abPairProblem(given: string | undefined, adapters: readonly string[]): string {
  if (given === undefined) return 'the plan has every store';
  const names = splitList(given);
  if (adapters.length === 1 && names.length > 1)
    return `${names.map((n) => quoted(n)).join(' and ')} are one store, ${quoted(adapters[0] as string)} (an A/A names a registered store twice, e.g. idb,idb)`;
  return `the plan has ${adapters.length}: ${clipped(adapters.join(', '))}`;
}

const splitList = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** A rate from 1 to MAX_CPU_THROTTLE, in tenths; 1 is no throttling, so it reads as absent. */
function parseThrottle(text: string): number | undefined {
  const t = text.trim();
  const rate = Number(t);
  if (!/^\d+(\.\d)?$/.test(t) || rate < 1 || rate > MAX_CPU_THROTTLE)
    throw new PlanError(
      `cpu-throttle: ${quoted(text)} is not a rate; allowed: 1 to ${MAX_CPU_THROTTLE}, e.g. 4 (about 4 times slower)`,
    );
  return rate === 1 ? undefined : rate;
}

function parseStudyTag(text: string): string {
  const tag = text.trim();
  if (!STUDY_TAG.test(tag))
    throw new PlanError(
      `study: ${quoted(text)} is not a study part such as pouchdb-2.2/paging (set by npm run study)`,
    );
  return tag;
}

/** 1/1 is the whole plan, so it reads as no shard: the plan and its file stay as without one. */
function parseShardField(text: string): Shard | undefined {
  try {
    const shard = parseShard(text);
    return shard.count === 1 ? undefined : shard;
  } catch (e) {
    if (e instanceof ShardError) throw new PlanError(`shard: ${e.message}`);
    throw e;
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * Adaptive sampling unless the fields ask for a fixed count: `auto` given decides; otherwise a
 * given `iterations` means fixed, and neither means the adaptive default.
 */
function parseSampling(fields: PlanFields): AutoSampling | undefined {
  const auto =
    fields.auto !== undefined
      ? parseAuto(fields.auto)
      : fields.iterations === undefined
        ? { ...DEFAULT_AUTO }
        : undefined;
  if (!auto && fields.budget !== undefined) {
    throw new PlanError(
      'budget: applies to adaptive sampling, and this plan takes a fixed count of samples (iterations, or auto off); give one of the two',
    );
  }
  return auto;
}

const DURATION_UNITS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };

/** A duration such as `10m`, `90s`, `1m30s`, `1h` or `500ms`, in ms. */
export function parseDuration(field: string, text: string, min: number, max: number): number {
  const t = text.trim().toLowerCase().replace(/\s+/g, '');
  const allowed = `allowed: ${formatDuration(min)} to ${formatDuration(max)}, written like 10m, 90s, 1m30s or 1h`;
  if (!/^(\d+(\.\d+)?(h|ms|m|s))+$/.test(t))
    throw new PlanError(`${field}: ${quoted(text)} is not a duration; ${allowed}`);
  let ms = 0;
  for (const [, value, , unit] of t.matchAll(/(\d+(\.\d+)?)(h|ms|m|s)/g))
    ms += Number(value) * (DURATION_UNITS[unit as string] as number);
  ms = Math.round(ms);
  if (ms < min || ms > max)
    throw new PlanError(`${field}: ${formatDuration(ms)} is out of range; ${allowed}`);
  return ms;
}

/** The plan as text fields, the inverse of parsePlan. Optional fields appear only when set. */
export function planToFields(
  plan: Plan,
): Required<Pick<PlanFields, CoreField>> & Pick<PlanFields, OptionalField> {
  return {
    suites: plan.suites.join(','),
    adapters: plan.adapters.join(','),
    sizes: plan.sizes.join(','),
    iterations: String(plan.iterations),
    warmup: String(plan.warmup),
    seed: String(plan.seed),
    timeoutMs: String(plan.timeoutMs),
    fixture: plan.fixture,
    params: formatParams(plan.params),
    ...(plan.auto ? { auto: formatAuto(plan.auto) } : {}),
    ...(plan.auto && plan.budgetMs !== undefined ? { budget: formatDuration(plan.budgetMs) } : {}),
    ...(plan.worker ? { worker: '1' } : {}),
    ...(plan.cases ? { cases: plan.cases.join(',') } : {}),
    ...(plan.shard ? { shard: `${plan.shard.index}/${plan.shard.count}` } : {}),
    ...(plan.study ? { study: plan.study } : {}),
    ...(plan.cpuThrottle ? { cpuThrottle: String(plan.cpuThrottle) } : {}),
    ...(plan.ab ? { ab: formatPercent(plan.ab.thresholdPct) } : {}),
  };
}

const QUERY_KEYS: Record<keyof PlanFields, string> = {
  suites: 'suites',
  adapters: 'adapters',
  sizes: 'sizes',
  iterations: 'iterations',
  warmup: 'warmup',
  seed: 'seed',
  timeoutMs: 'timeout-ms',
  fixture: 'fixture',
  params: 'params',
  cases: 'cases',
  auto: 'auto',
  budget: 'budget',
  worker: 'worker',
  shard: 'shard',
  study: 'study',
  cpuThrottle: 'cpu-throttle',
  ab: 'ab',
};

/** The plan fields found in a URL query (`?suites=insert&sizes=100,1000&...`). */
export function planFieldsFromQuery(query: URLSearchParams): PlanFields {
  const fields: PlanFields = {};
  for (const [field, key] of Object.entries(QUERY_KEYS) as [keyof PlanFields, string][]) {
    const value = query.get(key);
    if (value !== null) fields[field] = value;
  }
  return fields;
}

/** A URL query that reproduces the plan. Empty params are left out to keep links short. */
export function planToQuery(plan: Plan): URLSearchParams {
  const fields = planToFields(plan);
  const query = new URLSearchParams();
  for (const [field, key] of Object.entries(QUERY_KEYS) as [keyof PlanFields, string][]) {
    const value = fields[field];
    if (value === undefined || (field === 'params' && value === '')) continue;
    query.set(key, value);
  }
  return query;
}

/**
 * Why the page would not run this plan as it is, or null: the plan written into a URL query
 * (planToQuery) and read back as the page reads it (planFieldsFromQuery, parsePlan) must give the
 * same plan. The sweep checks it before it builds anything, so a plan it accepts never reaches a
 * page that refuses it ("bad page URL") or runs another one.
 */
export function planQueryProblem(plan: Plan, vocab: PlanVocabulary): string | null {
  let read: Plan;
  try {
    read = parsePlan(planFieldsFromQuery(planToQuery(plan)), vocab);
  } catch (e) {
    if (!(e instanceof PlanError)) throw e;
    return `the page would refuse this plan's URL: ${e.message}`;
  }
  const keys = [...new Set([...Object.keys(plan), ...Object.keys(read)])] as (keyof Plan)[];
  const differs = keys.find((k) => canonicalJson(plan[k]) !== canonicalJson(read[k]));
  if (differs === undefined) return null;
  return `the page would read ${differs} as ${clipped(canonicalJson(read[differs]) ?? 'nothing')}, not ${clipped(canonicalJson(plan[differs]) ?? 'nothing')}`;
}

function parseNames(
  field: string,
  text: string,
  allowed: readonly string[],
  exactly?: number,
): string[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0)
    throw new PlanError(`${field}: none given; allowed: ${allowed.join(', ')}`);
  const unknown = names.filter((n) => !allowed.includes(n));
  if (unknown.length > 0) {
    throw new PlanError(
      `${field}: unknown ${clipped(unknown.map((n) => quoted(n)).join(', '), 600)}; allowed: ${allowed.join(', ')}`,
    );
  }
  if (exactly !== undefined && names.length !== exactly)
    throw new PlanError(`${field}: give exactly ${exactly}, got ${names.length}`);
  return [...new Set(names)];
}

/**
 * Registered adapter ids, and variants of them (`ADAPTER@SPEC`, variant.ts): a registered id wins
 * over parsing. A name without an `@` is checked as any other name.
 */
function parseAdapters(text: string, vocab: PlanVocabulary): string[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const withoutAt = names.filter((n) => !n.includes('@'));
  if (names.length === 0 || withoutAt.length > 0)
    parseNames('adapters', withoutAt.join(',') || text, vocab.adapters);
  const ids = names.map((name) => {
    if (vocab.adapters.includes(name)) return name;
    try {
      return parseVariant(name, vocab.adapters, vocab.wraps ?? {}).id;
    } catch (e) {
      if (e instanceof VariantError)
        throw new PlanError(`adapters: ${e.message}; registered: ${vocab.adapters.join(', ')}`);
      throw e;
    }
  });
  return [...new Set(ids)];
}

function parseInteger(field: string, text: string, min: number, max: number): number {
  const trimmed = text.trim().replace(/_/g, '');
  if (!/^\d+$/.test(trimmed))
    throw new PlanError(
      `${field}: ${quoted(text)} is not a whole number; allowed: ${min} to ${max}`,
    );
  const n = Number(trimmed);
  if (n < min || n > max)
    throw new PlanError(`${field}: ${n} is out of range; allowed: ${min} to ${max}`);
  return n;
}

function parseIntList(field: string, text: string, min: number, max: number): number[] {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (parts.length === 0)
    throw new PlanError(
      `${field}: none given; give whole numbers from ${min} to ${max}, comma-separated`,
    );
  return [...new Set(parts.map((p) => parseInteger(field, p, min, max)))];
}

/** Suite parameters as `name=value;name=1,2,3`. Values stay text-or-number; suites check them. */
function parseParams(text: string): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const pair of text
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (eq < 1 || !/^[A-Za-z][A-Za-z0-9]*$/.test(name) || value === '') {
      throw new PlanError(
        `params: ${quoted(pair)} is not name=value; write e.g. chunkSizes=1,10,100;pageSize=10`,
      );
    }
    out[name] = paramValue(value);
  }
  return out;
}

/**
 * A parameter's value: whole numbers as numbers, a list of them as a list, anything else as its
 * text. Numbers only while they are exact: 1e400 digits read as Infinity, which writes back as
 * the text "Infinity", and the page would then run another plan than the sweep's.
 */
function paramValue(value: string): ParamValue {
  const exact = (t: string) => Number.isSafeInteger(Number(t));
  if (/^\d+(,\d+)+$/.test(value) && value.split(',').every(exact))
    return value.split(',').map(Number);
  if (/^\d+$/.test(value) && exact(value)) return Number(value);
  return value;
}

export function formatParams(params: Readonly<Record<string, ParamValue>>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join(';');
}

const ON = ['1', 'on', 'true', 'yes'];
const OFF = ['0', 'off', 'false', 'no'];

function parseSwitch(field: string, text: string): boolean {
  const t = text.trim().toLowerCase();
  // A bare `?worker` in a URL arrives as ''; it reads as switching the feature on.
  if (t === '' || ON.includes(t)) return true;
  if (OFF.includes(t)) return false;
  throw new PlanError(
    `${field}: ${quoted(text)} is not on or off; allowed: ${[...ON, ...OFF].join(', ')}`,
  );
}

const AUTO_KEYS = {
  ci: 'targetRelCi',
  'min-n': 'minN',
  'max-n': 'maxN',
  'max-ms': 'maxMs',
  passes: 'passes',
  looks: 'looks',
} as const;
/** Adaptive sampling's target: PLAN_LIMITS' fractions as percentages, in hundredths of a percent. */
const CI_RANGE: PercentRange = {
  min: PLAN_LIMITS.minTargetRelCi * 100,
  max: PLAN_LIMITS.maxTargetRelCi * 100,
  decimals: 2,
};
const AUTO_EXAMPLE = 'ci:2%,min-n:6,max-n:1000,max-ms:60000,passes:12,looks:4';

/**
 * Adaptive sampling as text: `on` for the defaults, `off`, or any of `ci:2%,min-n:6,max-n:1000,max-ms:60000,passes:12,looks:4`
 * (keys left out take their defaults). `ci` is a percentage of the median; the % sign is optional.
 */
function parseAuto(text: string): AutoSampling | undefined {
  const t = text.trim();
  if (t === '' || ON.includes(t.toLowerCase())) return { ...DEFAULT_AUTO };
  if (OFF.includes(t.toLowerCase())) return undefined;
  const auto: AutoSampling = { ...DEFAULT_AUTO };
  for (const part of t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const colon = part.indexOf(':');
    const key = part.slice(0, colon).trim();
    const value = part.slice(colon + 1).trim();
    if (colon < 1 || !(key in AUTO_KEYS)) {
      throw new PlanError(
        `auto: ${quoted(part)} is not key:value with a key of ${Object.keys(AUTO_KEYS).join(', ')}; write e.g. ${AUTO_EXAMPLE}, or on, or off`,
      );
    }
    if (key === 'ci') {
      const pct = percentOrProblem('auto: ci', value, CI_RANGE, 'ci:2%', ' of the median');
      if (typeof pct === 'string') throw new PlanError(pct);
      const fraction = pct / 100;
      auto.targetRelCi = fraction;
    } else if (key === 'min-n')
      auto.minN = parseInteger('auto: min-n', value, 2, PLAN_LIMITS.maxIterations);
    else if (key === 'max-n')
      auto.maxN = parseInteger('auto: max-n', value, 2, PLAN_LIMITS.maxIterations);
    else if (key === 'looks')
      auto.looks = parseInteger('auto: looks', value, 1, PLAN_LIMITS.maxLooks);
    else if (key === 'passes')
      auto.passes = parseInteger('auto: passes', value, 1, PLAN_LIMITS.maxPasses);
    else auto.maxMs = parseInteger('auto: max-ms', value, 1, PLAN_LIMITS.maxTimeoutMs);
  }
  if (auto.maxN < auto.minN)
    throw new PlanError(
      `auto: max-n ${auto.maxN} is below min-n ${auto.minN}; allowed: max-n >= min-n`,
    );
  return auto;
}

export function formatAuto(auto: AutoSampling): string {
  // toPrecision drops the binary noise of 0.02 * 100 (2.0000000000000004) before printing.
  return `ci:${Number((auto.targetRelCi * 100).toPrecision(12))}%,min-n:${auto.minN},max-n:${auto.maxN},max-ms:${auto.maxMs},passes:${passesOf(auto)},looks:${auto.looks ?? 1}`;
}

/** Case ids as a list; whether each exists depends on the suites and their parameters (see the runner). */
function parseCaseIds(text: string): string[] {
  const ids = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (ids.length === 0)
    throw new PlanError(
      'cases: none given; give case ids, comma-separated, e.g. bulk,serial (leave the field out for every case)',
    );
  const bad = ids.filter((id) => !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(id));
  if (bad.length > 0)
    throw new PlanError(
      `cases: ${bad.map((b) => JSON.stringify(b.length > 40 ? `${b.slice(0, 40)}…` : b)).join(', ')} is not a case id; ids use letters, digits, ".", "_" and "-"`,
    );
  return ids;
}
