/**
 * The plan: what to run. One shape for the page controls, the URL query and the sweep's flags,
 * parsed and checked in one place so every entry point rejects bad input the same way.
 */
import { parseShard, ShardError, type Shard } from './shard.ts';
import type { ParamValue } from './suite.ts';

export interface Plan {
  suites: string[];
  adapters: string[];
  sizes: number[];
  /** Timed samples per case. */
  iterations: number;
  /** Untimed warm-up samples per case, taken before the timed ones. */
  warmup: number;
  seed: number;
  /** Time limit of one case on one adapter at one size (all its samples), in ms. */
  timeoutMs: number;
  fixture: string;
  /** Suite parameters, e.g. `{ chunkSizes: [1, 10, 100] }`; suites fill in their defaults. */
  params: Record<string, ParamValue>;
  /**
   * Auto-sampling: instead of a fixed `iterations`, sample each case until its 95% interval is
   * narrow enough, up to a cap. Absent means off (and in every file written before it existed).
   */
  auto?: AutoSampling;
  /** Run the whole plan in a dedicated Worker instead of the page's main thread. Absent means main. */
  worker?: boolean;
  /** Only these case ids of the chosen suites (e.g. `bulk`). Absent means every case. */
  cases?: string[];
  /**
   * Only this shard's share of the case groups (src/core/shard.ts), for one plan split over
   * several jobs. Absent means the whole plan. Shards of one plan differ only here.
   */
  shard?: Shard;
}

export interface AutoSampling {
  /** Stop once the 95% CI half-width is at most this fraction of the mean (0.02 = ±2%)... */
  targetRelCi: number;
  /** ...but not before this many timed samples (a CI from 2 or 3 samples is itself noise)... */
  minN: number;
  /** ...and never take more than this many. */
  maxN: number;
  /**
   * ...nor keep sampling once the row (case, store, size) has spent this long on its own steps,
   * in ms. The cap wins over minN: a case whose samples are slow stops with fewer and says so.
   */
  maxMs: number;
}

export const DEFAULT_AUTO: Readonly<AutoSampling> = { targetRelCi: 0.02, minN: 5, maxN: 200, maxMs: 30_000 };

export const PLAN_LIMITS = {
  maxSize: 10_000_000,
  maxIterations: 10_000,
  maxWarmup: 1_000,
  maxTimeoutMs: 24 * 3600 * 1000,
  /** Auto-sampling targets, as a fraction of the mean. */
  minTargetRelCi: 0.001,
  maxTargetRelCi: 0.5,
} as const;

export const DEFAULT_PLAN: Readonly<Omit<Plan, 'suites' | 'adapters'>> = {
  sizes: [100, 1000],
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
}

export class PlanError extends Error {
  override readonly name = 'PlanError';
}

/** The fields every plan has, as text. */
type CoreField = 'suites' | 'adapters' | 'sizes' | 'iterations' | 'warmup' | 'seed' | 'timeoutMs' | 'fixture' | 'params';
/** Fields added later; absent in a plan (and its text) means off or all. */
type OptionalField = 'auto' | 'worker' | 'cases' | 'shard';

/** The fields of a plan as text, as they come from a URL query or command-line flags. */
export type PlanFields = Partial<Record<CoreField | OptionalField, string>>;

/**
 * Parse and check a plan from text fields. Omitted fields take defaults (all suites and all
 * adapters). Throws PlanError naming the field, the bad value and what is allowed.
 */
export function parsePlan(fields: PlanFields, vocab: PlanVocabulary): Plan {
  return {
    suites: fields.suites === undefined ? [...vocab.suites] : parseNames('suites', fields.suites, vocab.suites),
    adapters: fields.adapters === undefined ? [...vocab.adapters] : parseNames('adapters', fields.adapters, vocab.adapters),
    sizes: fields.sizes === undefined ? [...DEFAULT_PLAN.sizes] : parseIntList('sizes', fields.sizes, 1, PLAN_LIMITS.maxSize),
    iterations: fields.iterations === undefined ? DEFAULT_PLAN.iterations : parseInteger('iterations', fields.iterations, 1, PLAN_LIMITS.maxIterations),
    warmup: fields.warmup === undefined ? DEFAULT_PLAN.warmup : parseInteger('warmup', fields.warmup, 0, PLAN_LIMITS.maxWarmup),
    seed: fields.seed === undefined ? DEFAULT_PLAN.seed : parseInteger('seed', fields.seed, 0, 2 ** 32 - 1),
    timeoutMs: fields.timeoutMs === undefined ? DEFAULT_PLAN.timeoutMs : parseInteger('timeout-ms', fields.timeoutMs, 1, PLAN_LIMITS.maxTimeoutMs),
    fixture: fields.fixture === undefined ? DEFAULT_PLAN.fixture : parseNames('fixture', fields.fixture, vocab.fixtures, 1)[0] as string,
    params: fields.params === undefined ? {} : parseParams(fields.params),
    // Added only when on, so plans and files from before these fields read exactly as they did.
    ...optional('auto', fields.auto === undefined ? undefined : parseAuto(fields.auto)),
    ...optional('worker', fields.worker === undefined ? undefined : parseSwitch('worker', fields.worker) || undefined),
    ...optional('cases', fields.cases === undefined ? undefined : parseCaseIds(fields.cases)),
    ...optional('shard', fields.shard === undefined ? undefined : parseShardField(fields.shard)),
  };
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

function optional<K extends OptionalField, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** Check an already-structured plan (e.g. from a results file or a postMessage). */
export function checkPlan(plan: Plan, vocab: PlanVocabulary): Plan {
  return parsePlan(planToFields(plan), vocab);
}

/** The plan as text fields, the inverse of parsePlan. Optional fields appear only when set. */
export function planToFields(plan: Plan): Required<Pick<PlanFields, CoreField>> & Pick<PlanFields, OptionalField> {
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
    ...(plan.worker ? { worker: '1' } : {}),
    ...(plan.cases ? { cases: plan.cases.join(',') } : {}),
    ...(plan.shard ? { shard: `${plan.shard.index}/${plan.shard.count}` } : {}),
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
  worker: 'worker',
  shard: 'shard',
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

function parseNames(field: string, text: string, allowed: readonly string[], exactly?: number): string[] {
  const names = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new PlanError(`${field}: none given; allowed: ${allowed.join(', ')}`);
  const unknown = names.filter((n) => !allowed.includes(n));
  if (unknown.length > 0) {
    throw new PlanError(`${field}: unknown ${unknown.map((n) => `"${n}"`).join(', ')}; allowed: ${allowed.join(', ')}`);
  }
  if (exactly !== undefined && names.length !== exactly) throw new PlanError(`${field}: give exactly ${exactly}, got ${names.length}`);
  return [...new Set(names)];
}

function parseInteger(field: string, text: string, min: number, max: number): number {
  const trimmed = text.trim().replace(/_/g, '');
  if (!/^\d+$/.test(trimmed)) throw new PlanError(`${field}: "${text}" is not a whole number; allowed: ${min} to ${max}`);
  const n = Number(trimmed);
  if (n < min || n > max) throw new PlanError(`${field}: ${n} is out of range; allowed: ${min} to ${max}`);
  return n;
}

function parseIntList(field: string, text: string, min: number, max: number): number[] {
  const parts = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw new PlanError(`${field}: none given; give whole numbers from ${min} to ${max}, comma-separated`);
  return [...new Set(parts.map((p) => parseInteger(field, p, min, max)))];
}

/** Suite parameters as `name=value;name=1,2,3`. Values stay text-or-number; suites check them. */
function parseParams(text: string): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const pair of text.split(';').map((s) => s.trim()).filter(Boolean)) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (eq < 1 || !/^[A-Za-z][A-Za-z0-9]*$/.test(name) || value === '') {
      throw new PlanError(`params: "${pair}" is not name=value; write e.g. chunkSizes=1,10,100;pageSize=10`);
    }
    if (/^\d+(,\d+)+$/.test(value)) out[name] = value.split(',').map(Number);
    else if (/^\d+$/.test(value)) out[name] = Number(value);
    else out[name] = value;
  }
  return out;
}

function formatParams(params: Record<string, ParamValue>): string {
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
  throw new PlanError(`${field}: "${text}" is not on or off; allowed: ${[...ON, ...OFF].join(', ')}`);
}

const AUTO_KEYS = { ci: 'targetRelCi', 'min-n': 'minN', 'max-n': 'maxN', 'max-ms': 'maxMs' } as const;
const AUTO_EXAMPLE = 'ci:2%,min-n:5,max-n:200,max-ms:30000';

/**
 * Auto-sampling as text: `on` for the defaults, `off`, or any of `ci:2%,min-n:5,max-n:200,max-ms:30000`
 * (keys left out take their defaults). `ci` is a percentage of the mean; the % sign is optional.
 */
export function parseAuto(text: string): AutoSampling | undefined {
  const t = text.trim();
  if (t === '' || ON.includes(t.toLowerCase())) return { ...DEFAULT_AUTO };
  if (OFF.includes(t.toLowerCase())) return undefined;
  const auto: AutoSampling = { ...DEFAULT_AUTO };
  for (const part of t.split(',').map((s) => s.trim()).filter(Boolean)) {
    const colon = part.indexOf(':');
    const key = part.slice(0, colon).trim();
    const value = part.slice(colon + 1).trim();
    if (colon < 1 || !(key in AUTO_KEYS)) {
      throw new PlanError(`auto: "${part}" is not key:value with a key of ${Object.keys(AUTO_KEYS).join(', ')}; write e.g. ${AUTO_EXAMPLE}, or on, or off`);
    }
    if (key === 'ci') {
      const m = /^(\d+(?:\.\d+)?)\s*%?$/.exec(value);
      const fraction = m ? Number(m[1]) / 100 : NaN;
      if (!(fraction >= PLAN_LIMITS.minTargetRelCi && fraction <= PLAN_LIMITS.maxTargetRelCi)) {
        throw new PlanError(`auto: ci "${value}" is not a percentage of the mean from ${PLAN_LIMITS.minTargetRelCi * 100}% to ${PLAN_LIMITS.maxTargetRelCi * 100}%, e.g. ci:2%`);
      }
      auto.targetRelCi = fraction;
    } else if (key === 'min-n') auto.minN = parseInteger('auto: min-n', value, 2, PLAN_LIMITS.maxIterations);
    else if (key === 'max-n') auto.maxN = parseInteger('auto: max-n', value, 2, PLAN_LIMITS.maxIterations);
    else auto.maxMs = parseInteger('auto: max-ms', value, 1, PLAN_LIMITS.maxTimeoutMs);
  }
  if (auto.maxN < auto.minN) throw new PlanError(`auto: max-n ${auto.maxN} is below min-n ${auto.minN}; allowed: max-n >= min-n`);
  return auto;
}

export function formatAuto(auto: AutoSampling): string {
  // toPrecision drops the binary noise of 0.02 * 100 (2.0000000000000004) before printing.
  return `ci:${Number((auto.targetRelCi * 100).toPrecision(12))}%,min-n:${auto.minN},max-n:${auto.maxN},max-ms:${auto.maxMs}`;
}

/** Case ids as a list; whether each exists depends on the suites and their parameters (see the runner). */
function parseCaseIds(text: string): string[] {
  const ids = [...new Set(text.split(',').map((s) => s.trim()).filter(Boolean))];
  if (ids.length === 0) throw new PlanError('cases: none given; give case ids, comma-separated, e.g. bulk,serial (leave the field out for every case)');
  const bad = ids.filter((id) => !/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(id));
  if (bad.length > 0) throw new PlanError(`cases: ${bad.map((b) => JSON.stringify(b.length > 40 ? `${b.slice(0, 40)}…` : b)).join(', ')} is not a case id; ids use letters, digits, ".", "_" and "-"`);
  return ids;
}
