/**
 * What the page's URL asks for: the plan (src/core/plan/url.ts, read by fields.ts) and the collector settings
 * (src/core/run/collector.ts). Bad values never stop the page: each bad plan field is reported and
 * falls back to its default, so the rest of a link still applies.
 */
import { PAGE_QUERY } from '../../core/run/collector.ts';
import { detectBrowser } from '../../core/run/environment.ts';
import type { Plan, PlanVocabulary } from '../../core/plan/plan.ts';
import { planFieldsFromQuery, readPlanFields } from '../../core/plan/url.ts';
import { ADAPTER_IDS, ADAPTER_WRAPS } from '../../adapters/registry.ts';
import { SUITE_IDS } from '../../../suites/index.ts';
import { FIXTURE_IDS } from '../../../fixtures/index.ts';

export const PLAN_VOCABULARY: PlanVocabulary = {
  suites: SUITE_IDS,
  adapters: ADAPTER_IDS,
  fixtures: FIXTURE_IDS,
  wraps: ADAPTER_WRAPS,
};

/** Run ids and browser labels end up in database and file names, so they stay filename-safe. */
const SAFE_LABEL = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export interface PageQuery {
  /** The plan to show (and run, with autorun): the URL's, with defaults where it was bad. */
  plan: Plan;
  /** One message per bad plan field, e.g. `adapters: unknown "nope"; allowed: memory`. */
  planErrors: string[];
  /** Problems with the non-plan keys (collector, token, run, browser). */
  queryErrors: string[];
  collector: { url: string; token: string } | null;
  /** The label for run.browser: the driver's, or one derived from the user agent. */
  browser: string;
  runId: string | null;
  autorun: boolean;
  /** The CPU throttling rate the driver applied to this page, or null (none, or no driver). */
  throttled: number | null;
  /** Whether the sweep asks for each sample's machine record (core/run/machine.ts). */
  machine: boolean;
}

export function readPageQuery(search: string, baseUrl: string, userAgent: string): PageQuery {
  const query = new URLSearchParams(search);
  const { plan, errors: planErrors } = readPlanFields(planFieldsFromQuery(query), PLAN_VOCABULARY);
  const queryErrors: string[] = [];

  const browserParam = query.get(PAGE_QUERY.browser);
  let browser = detectBrowser(userAgent).name.toLowerCase();
  if (browserParam !== null) {
    if (SAFE_LABEL.test(browserParam)) browser = browserParam;
    else
      queryErrors.push(
        `browser: "${browserParam}" is not a label; use letters, digits, ".", "_" and "-" (up to 100)`,
      );
  }

  const runParam = query.get(PAGE_QUERY.runId);
  let runId: string | null = null;
  if (runParam !== null) {
    if (SAFE_LABEL.test(runParam)) runId = runParam;
    else
      queryErrors.push(
        `run: "${runParam}" is not a run id; use letters, digits, ".", "_" and "-" (up to 100)`,
      );
  }

  const collectorParam = query.get(PAGE_QUERY.collector);
  const token = query.get(PAGE_QUERY.token);
  let collector: PageQuery['collector'] = null;
  if (collectorParam !== null || token !== null) {
    if (collectorParam === null || collectorParam === '' || token === null || token === '') {
      queryErrors.push(
        `collector mode needs both "${PAGE_QUERY.collector}" and "${PAGE_QUERY.token}"; results will not be sent`,
      );
    } else {
      try {
        const url = new URL(collectorParam, baseUrl);
        if (url.protocol !== 'http:' && url.protocol !== 'https:')
          throw new Error(`${url.protocol} is not http or https`);
        collector = { url: url.href, token };
      } catch (e) {
        queryErrors.push(
          `collector: "${collectorParam}" is not a usable URL (${(e as Error).message}); results will not be sent`,
        );
      }
    }
  }

  const throttled = Number(query.get(PAGE_QUERY.throttled) ?? NaN);
  return {
    plan,
    planErrors,
    queryErrors,
    collector,
    browser,
    runId,
    autorun: query.get(PAGE_QUERY.autorun) === '1',
    throttled: throttled >= 1 ? throttled : null,
    machine: query.get(PAGE_QUERY.machine) === '1',
  };
}

/** Sortable, filename-safe and unique enough: `YYYY-MM-DDTHH-MM-SSZ-ab12`. */
export function newRunId(date: Date = new Date()): string {
  const stamp = date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-');
  const bytes = crypto.getRandomValues(new Uint8Array(2));
  return `${stamp}-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}
