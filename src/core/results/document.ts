/**
 * The one place a results document is put together: the page, the plan Worker and the tests all
 * build theirs here, so every file has the same shape. Pure: the caller brings the environment,
 * the clock readings and what the runner returned. Its `findings` are the default plan's,
 * checked on its rows (default-findings.ts); readers recompute them as they do the statistics.
 */
import { abSummary } from '../verdicts/ab.ts';
import { HARNESS_COMMIT, HARNESS_VERSION } from '../base/build-info.ts';
import { runFindings } from '../verdicts/default-findings.ts';
import type { Plan } from '../plan/plan.ts';
import {
  RESULTS_SCHEMA,
  type CaseResult,
  type Environment,
  type ResultsFile,
  type RunInfo,
} from './results.ts';

export interface ResultsDocumentInput {
  runId: string;
  /** run.browser: the driver's label, or one derived from the user agent. */
  browser: string;
  plan: Plan;
  startedAt: string;
  finishedAt: string;
  environment: Environment;
  /** What runPlan returned. */
  output: { cases: CaseResult[]; order: RunInfo['order']; cancelled: boolean };
  /** The harness that ran; the build's own by default. */
  harness?: { version: string; commit: string };
}

export function resultsDocument(input: ResultsDocumentInput): ResultsFile {
  const harness = input.harness ?? { version: HARNESS_VERSION, commit: HARNESS_COMMIT };
  const doc: ResultsFile = {
    schema: RESULTS_SCHEMA,
    harness: { name: 'storebench', ...harness },
    run: {
      id: input.runId,
      startedAt: input.startedAt,
      finishedAt: input.finishedAt,
      browser: input.browser,
      plan: input.plan,
      cancelled: input.output.cancelled,
      order: input.output.order,
    },
    environment: input.environment,
    cases: input.output.cases,
  };
  const ab = abSummary(doc);
  return { ...(ab ? { ...doc, ab } : doc), findings: runFindings([doc]) };
}
