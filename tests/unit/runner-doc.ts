/**
 * A results document around what runPlan returned in Node, as the page would write it, for the
 * runner tests that check its rows against the schema.
 */
import type { Plan } from '../../src/core/plan.ts';
import { RESULTS_SCHEMA, type CaseResult, type RunInfo } from '../../src/core/results.ts';

export function runnerResultsDoc(id: string, plan: Plan, cases: CaseResult[], order: RunInfo['order']): unknown {
  const doc = {
    schema: RESULTS_SCHEMA,
    harness: { name: 'storebench', version: 'test', commit: 'test' },
    run: { id, startedAt: 'a', finishedAt: 'b', browser: 'node', plan, cancelled: false, order },
    environment: {
      browser: { name: 'node', version: process.version, engine: 'V8' },
      userAgent: 'node',
      os: 'Linux',
      cores: 2,
      deviceMemoryGb: null,
      crossOriginIsolated: false,
      timerStepMs: 0.001,
      storageEstimate: null,
      context: 'main',
      harness: { version: 'test', commit: 'test' },
    },
    cases,
  };
  // Through JSON, as a file would be: undefined fields vanish and numbers stay numbers.
  return JSON.parse(JSON.stringify(doc));
}
