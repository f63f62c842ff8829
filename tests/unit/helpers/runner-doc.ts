/**
 * A results document around what runPlan returned in Node, built by the same resultsDocument()
 * as the page's, for the runner tests that check its rows against the schema.
 */
import type { Plan } from '../../../src/core/plan/plan.ts';
import { resultsDocument } from '../../../src/core/results/document.ts';
import type { CaseResult, Environment, RunInfo } from '../../../src/core/results/results.ts';

/** The environment of a run in Node, for documents the tests build. */
export function nodeEnvironment(over: Partial<Environment> = {}): Environment {
  return {
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
    ...over,
  };
}

export function runnerResultsDoc(
  id: string,
  plan: Plan,
  cases: CaseResult[],
  order: RunInfo['order'],
): unknown {
  const doc = resultsDocument({
    runId: id,
    browser: 'node',
    plan,
    startedAt: 'a',
    finishedAt: 'b',
    environment: nodeEnvironment(),
    output: { cases, order, cancelled: false },
    harness: { version: 'test', commit: 'test' },
  });
  // Through JSON, as a file would be: undefined fields vanish and numbers stay numbers.
  return JSON.parse(JSON.stringify(doc));
}
