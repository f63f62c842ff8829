/**
 * Checks a message the page POSTed to the collector (src/core/run/collector.ts) before the sweep
 * believes it. 'done' carries a whole results file and gets the full schema check; the others
 * get the minimal shape check the sweep relies on. Each refusal has an HTTP status and a
 * one-line reason that the page can log.
 */
import { timingSafeEqual } from 'node:crypto';
import type { CollectorMessage } from '../../core/run/collector.ts';
import { checkCarry, LaunchError } from '../../core/run/launch.ts';
import { textFault } from '../../core/schema/bounds.ts';
import { CASE_STATUSES, ResultsError } from '../../core/results/results.ts';
import { validateResults } from '../../core/results/recompute.ts';

export type CheckOutcome =
  | { ok: true; message: CollectorMessage }
  /** `type` and `browser` are the message's own claims, when it made them and had the right token. */
  | { ok: false; status: number; reason: string; type?: string; browser?: string };

const TYPES = ['hello', 'progress', 'case', 'pass', 'done', 'fatal', 'hung', 'contract'] as const;

/**
 * Before JSON.parse: a message over a cap of a results file (src/core/schema/bounds.ts), a 'done'
 * of 31 M samples say, is refused as too large (413) without building the values it holds, which
 * can take a running sweep out of memory. Null when the text is within them. A long text (a user
 * agent, a fatal error) costs parsing only its length; a 'done' has its texts checked with the
 * rest of its results, after parsing.
 */
export function checkCollectorText(text: string): { status: number; reason: string } | null {
  const over = textFault(text, false);
  return over ? { status: 413, reason: `message: ${over.path}: ${over.what}` } : null;
}

export function checkCollectorMessage(data: unknown, token: string): CheckOutcome {
  const refuse = (
    status: number,
    reason: string,
    claims: { type?: string; browser?: string } = {},
  ): CheckOutcome => ({ ok: false, status, reason, ...claims });
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return refuse(400, 'expected a JSON object');
  const m = data as Record<string, unknown>;
  if (typeof m.token !== 'string')
    return refuse(403, 'no token; every message must carry the run token');
  if (!sameToken(m.token, token))
    return refuse(403, 'wrong token; this collector belongs to another run');
  if (!TYPES.includes(m.type as (typeof TYPES)[number]))
    return refuse(400, `type: expected one of ${TYPES.join(', ')}, got ${describe(m.type)}`);
  const type = m.type as string;
  if (typeof m.browser !== 'string' || m.browser === '')
    return refuse(400, `${type}: browser: expected the browser label, got ${describe(m.browser)}`, {
      type,
    });
  const claims = { type, browser: m.browser };
  const bad = (reason: string, status = 400) => refuse(status, `${type}: ${reason}`, claims);
  if (m.launch !== undefined && !(isCount(m.launch) && m.launch >= 1))
    return bad(`launch: expected a whole number from 1, got ${describe(m.launch)}`);

  switch (type) {
    case 'hello':
      if (typeof m.userAgent !== 'string')
        return bad(`userAgent: expected a string, got ${describe(m.userAgent)}`);
      break;
    case 'progress': {
      const event = m.event as Record<string, unknown> | null;
      if (event === null || typeof event !== 'object' || typeof event.type !== 'string')
        return bad(`event: expected a runner event object, got ${describe(m.event)}`);
      if (event.type === 'case-end' || event.type === 'pass-end')
        return bad(
          `event: ${event.type} goes in a '${event.type === 'case-end' ? 'case' : 'pass'}' message, not in progress`,
        );
      break;
    }
    case 'case': {
      const problem = caseProblem(m.result);
      if (problem) return bad(`result.${problem}`, 422);
      if (!isCount(m.rowsDone) || !isCount(m.rows) || m.rowsDone > m.rows)
        return bad(
          `rowsDone/rows: expected whole numbers with rowsDone <= rows, got ${describe(m.rowsDone)}/${describe(m.rows)}`,
        );
      break;
    }
    case 'pass':
      try {
        const carry = m.carry as { runId?: unknown } | null;
        checkCarry(m.carry, typeof carry?.runId === 'string' ? carry.runId : '');
      } catch (e) {
        if (e instanceof LaunchError) return bad(e.message, 422);
        throw e;
      }
      break;
    case 'done':
      try {
        const results = validateResults(m.results, 'results');
        if (m.carry !== undefined) checkCarry(m.carry, results.run.id);
      } catch (e) {
        if (e instanceof ResultsError || e instanceof LaunchError) return bad(e.message, 422);
        throw e;
      }
      break;
    case 'fatal':
      if (typeof m.message !== 'string')
        return bad(`message: expected a string, got ${describe(m.message)}`);
      break;
    case 'hung':
    case 'contract': {
      const problem = type === 'hung' ? hungProblem(m) : outcomesProblem(m.outcomes);
      if (problem) return bad(problem, type === 'hung' ? 400 : 422);
      break;
    }
  }
  return { ok: true, message: data as CollectorMessage };
}

/** The fields of a case row that the sweep reads (table, progress, exit code); null when fine. */
function caseProblem(row: unknown): string | null {
  if (row === null || typeof row !== 'object' || Array.isArray(row))
    return `expected a case row object, got ${describe(row)}`;
  const r = row as Record<string, unknown>;
  for (const k of ['suite', 'case', 'adapter'] as const)
    if (typeof r[k] !== 'string') return `${k}: expected a string, got ${describe(r[k])}`;
  if (!isCount(r.size) || r.size < 1)
    return `size: expected a whole number >= 1, got ${describe(r.size)}`;
  if (!CASE_STATUSES.includes(r.status as never))
    return `status: expected one of ${CASE_STATUSES.join(', ')}, got ${describe(r.status)}`;
  if (
    !Array.isArray(r.samples) ||
    !r.samples.every((s) => typeof s === 'number' && Number.isFinite(s) && s >= 0)
  )
    return 'samples: expected an array of numbers >= 0';
  if (r.status === 'ok') {
    const stats = r.stats as Record<string, unknown> | null;
    if (stats === null || typeof stats !== 'object' || typeof stats.median !== 'number')
      return 'stats: an ok row needs stats with a median';
  } else if (typeof r.reason !== 'string' || r.reason === '')
    return `reason: a ${String(r.status)} row needs a reason`;
  return null;
}

/** What is wrong with a 'hung' message's times, or null. */
function hungProblem(m: Record<string, unknown>): string | null {
  for (const k of ['limitMs', 'overdueMs'] as const)
    if (typeof m[k] !== 'number' || !Number.isFinite(m[k]) || m[k] < 0)
      return `${k}: expected a time in ms, got ${describe(m[k])}`;
  return null;
}

/** What is wrong with a contract message's outcomes (core/store/contract/report.ts), or null. */
function outcomesProblem(outcomes: unknown): string | null {
  if (!Array.isArray(outcomes)) return `outcomes: expected a list, got ${describe(outcomes)}`;
  for (const [i, o] of outcomes.entries()) {
    const x = (o ?? {}) as Record<string, unknown>;
    if (typeof x.adapter !== 'string') return `outcomes[${i}].adapter: expected a string`;
    if (x.supported !== true && typeof x.supported !== 'string')
      return `outcomes[${i}].supported: expected true or a reason`;
    if (!Array.isArray(x.failures)) return `outcomes[${i}].failures: expected a list`;
    for (const [j, f] of x.failures.entries()) {
      const y = (f ?? {}) as Record<string, unknown>;
      for (const k of ['contract', 'check', 'expected', 'actual'])
        if (typeof y[k] !== 'string')
          return `outcomes[${i}].failures[${j}].${k}: expected a string`;
    }
  }
  return null;
}

/** Constant-time comparison, so response timing says nothing about how much of a guess was right. */
function sameToken(given: string, token: string): boolean {
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function isCount(v: unknown): v is number {
  return Number.isInteger(v) && (v as number) >= 0;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return typeof v; // a function or a symbol, which no JSON holds
}
