/**
 * A plan as text fields, as the page's form, its URL query and the sweep's flags give them: the
 * parser that checks every field and fills in the defaults (defaults.ts), and its inverse. One
 * parser, so every entry point rejects bad input the same way, naming the field, the bad value and
 * what is allowed.
 */
import { formatDuration } from '../base/format.ts';
import type { ParamValue } from '../base/identity.ts';
import { formatPercent, percentOrProblem, type PercentRange } from '../base/percent.ts';
import { clipped, quoted } from '../base/shown.ts';
import {
  AB_THRESHOLD_RANGE,
  DETECT_RANGE,
  DEFAULT_AUTO,
  DEFAULT_BUDGET_MS,
  DEFAULT_CASES,
  DEFAULT_PLAN,
  DEFAULT_PLAN_PARAMS,
  DEFAULT_PLAN_SIZES,
  DEFAULT_SUITES,
  PLAN_LIMITS,
} from './defaults.ts';
import {
  MAX_CPU_THROTTLE,
  passesOf,
  PlanError,
  STUDY_TAG,
  type AutoSampling,
  type Plan,
  type PlanVocabulary,
} from './plan.ts';
import { parseShard, ShardError, type Shard } from './shard.ts';
import { DEFAULT_CURES, formatCures, parseCures, type Cure } from './cures.ts';
import { parseVariant, VariantError } from './variant.ts';

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
  | 'auto'
  | 'budget'
  | 'worker'
  | 'cases'
  | 'shard'
  | 'study'
  | 'cpuThrottle'
  | 'ab'
  | 'detect'
  | 'cures';

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
      fields.ab === undefined
        ? detectAlone(fields.detect)
        : parseAb(fields.ab, fields.detect, fields.adapters, adapters, auto),
    ),
    ...optional('cures', fields.cures === undefined ? undefined : parseCuresField(fields.cures)),
  };
}

/** The cures named, or undefined where they are the defaults (a plan records only a change). */
function parseCuresField(text: string): Cure[] | undefined {
  const cures = parseCures(text);
  if (typeof cures === 'string') throw new PlanError(`cures: ${cures}`);
  const same =
    cures.length === DEFAULT_CURES.length && cures.every((c) => DEFAULT_CURES.includes(c));
  return same ? undefined : cures;
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

/**
 * `ab`: the threshold in percent (`5` or `5%`), for a plan of exactly two adapters, A then B,
 * sampled adaptively. `adapters` are the plan's, already normalised (`idb@+05%` is `idb@+5%`), so
 * two spellings of one store are one store here as they are in the page.
 */
function parseAb(
  text: string,
  detect: string | undefined,
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
  if (detect === undefined) return { thresholdPct: pct };
  const detectPct = percentOrProblem('detect:', detect, DETECT_RANGE, '10%');
  if (typeof detectPct === 'string') throw new PlanError(detectPct);
  return { thresholdPct: pct, detectPct };
}

/** `detect` belongs to an A/B plan: without `ab` it is refused, naming what it needs. */
function detectAlone(detect: string | undefined): undefined {
  if (detect !== undefined)
    throw new PlanError(
      "detect: the slowdown an A/B run must be able to catch; it needs ab (the sweep's --ab A,B)",
    );
  return undefined;
}

/**
 * `--ab X,X`, a registered store named twice, is an A/A on one build: X against X@twin, the same
 * adapter under a second name (core/plan/variant.ts), so the sides differ only in their position.
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
    ...(plan.ab?.detectPct !== undefined ? { detect: formatPercent(plan.ab.detectPct) } : {}),
    ...(plan.cures ? { cures: formatCures(plan.cures) } : {}),
  };
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
