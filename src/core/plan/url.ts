/**
 * A plan as a URL query, both ways: the link the sweep opens and the page reads
 * (`?suites=insert&sizes=100,1000&...`), with the check that a plan reads back from its URL as
 * itself, so the page never runs another plan than the sweep's.
 */
import { canonicalJson } from '../base/canonical-json.ts';
import { clipped } from '../base/shown.ts';
import { parsePlan, planToFields, type PlanFields } from './fields.ts';
import { PlanError, type Plan, type PlanVocabulary } from './plan.ts';

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
  detect: 'detect',
  cures: 'cures',
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

/**
 * The fields a field is checked with, where it means something only beside them: `ab` with its
 * pair of stores and the sampling, `detect` with `ab` and what `ab` needs.
 */
function contextOf(key: keyof PlanFields, fields: PlanFields): PlanFields {
  const sampling = { adapters: fields.adapters, auto: fields.auto, iterations: fields.iterations };
  if (key === 'ab') return sampling;
  if (key === 'detect') return { ...sampling, ab: fields.ab };
  return {};
}

/**
 * The plan the page runs from its URL's fields: each field checked alone (with its context)
 * first, so every bad one is reported, then the good ones parsed together. planQueryProblem
 * reads a sweep's plan the same way, so the sweep refuses what the page would.
 */
export function readPlanFields(
  fields: PlanFields,
  vocab: PlanVocabulary,
): { plan: Plan; errors: string[] } {
  const errors: string[] = [];
  const good: PlanFields = {};
  for (const [key, value] of Object.entries(fields) as [keyof PlanFields, string][]) {
    try {
      parsePlan({ ...contextOf(key, fields), [key]: value }, vocab);
      good[key] = value;
    } catch (e) {
      if (!(e instanceof PlanError)) throw e;
      errors.push(e.message);
    }
  }
  return { plan: parsePlan(good, vocab), errors };
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
    const page = readPlanFields(planFieldsFromQuery(planToQuery(plan)), vocab);
    if (page.errors.length > 0)
      return `the page would refuse this plan's URL: ${page.errors.join('; ')}`;
    read = page.plan;
  } catch (e) {
    if (!(e instanceof PlanError)) throw e;
    return `the page would refuse this plan's URL: ${e.message}`;
  }
  const keys = [...new Set([...Object.keys(plan), ...Object.keys(read)])] as (keyof Plan)[];
  const differs = keys.find((k) => canonicalJson(plan[k]) !== canonicalJson(read[k]));
  if (differs === undefined) return null;
  return `the page would read ${differs} as ${clipped(canonicalJson(read[differs]) ?? 'nothing')}, not ${clipped(canonicalJson(plan[differs]) ?? 'nothing')}`;
}
