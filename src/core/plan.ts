/**
 * The plan: what to run. One shape for the page controls, the URL query and the sweep's flags,
 * parsed and checked in one place so every entry point rejects bad input the same way.
 */
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
}

export const PLAN_LIMITS = {
  maxSize: 10_000_000,
  maxIterations: 10_000,
  maxWarmup: 1_000,
  maxTimeoutMs: 24 * 3600 * 1000,
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

/** The fields of a plan as text, as they come from a URL query or command-line flags. */
export type PlanFields = Partial<Record<'suites' | 'adapters' | 'sizes' | 'iterations' | 'warmup' | 'seed' | 'timeoutMs' | 'fixture' | 'params', string>>;

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
  };
}

/** Check an already-structured plan (e.g. from a results file or a postMessage). */
export function checkPlan(plan: Plan, vocab: PlanVocabulary): Plan {
  return parsePlan(planToFields(plan), vocab);
}

/** The plan as text fields, the inverse of parsePlan. */
export function planToFields(plan: Plan): Required<PlanFields> {
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
    if (field === 'params' && fields.params === '') continue;
    query.set(key, fields[field]);
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
