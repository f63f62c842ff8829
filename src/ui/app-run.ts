/**
 * One run of a plan in the page's main thread, as a results document. No DOM: the caller
 * renders from the events it passes in.
 */
import { HARNESS_COMMIT, HARNESS_VERSION } from '../core/build-info.ts';
import { collectEnvironment } from '../core/environment.ts';
import type { Plan } from '../core/plan.ts';
import { RESULTS_SCHEMA, validateResults, type ResultsFile } from '../core/results.ts';
import { runPlan, type RunEvent, type RunOutput } from '../core/runner.ts';
import { adapterById } from '../adapters/registry.ts';
import { suiteById } from '../../suites/index.ts';
import { yieldToEventLoop } from './yield.ts';

export interface AppRunInput {
  plan: Plan;
  runId: string;
  /** run.browser: the driver's label, or one derived from the user agent. */
  browser: string;
  signal?: AbortSignal;
  /** Called synchronously by the runner between samples; it must not throw or block for long. */
  onEvent?: (event: RunEvent) => void;
}

export interface AppRunOutput {
  results: ResultsFile;
  /** Databases the runner could not delete; the page lists them so the reader can clear them. */
  leftover: RunOutput['leftover'];
}

export async function runInPage(input: AppRunInput): Promise<AppRunOutput> {
  const { plan } = input;
  const suites = plan.suites.map(suiteById);
  const adapters = plan.adapters.map(adapterById);
  // Before the clock of the run starts: the timer probe spins for a few ms.
  const environment = await collectEnvironment('main');
  const startedAt = new Date().toISOString();
  const output = await runPlan({
    plan,
    suites,
    adapters,
    runId: input.runId,
    signal: input.signal,
    onEvent: input.onEvent,
    betweenSamples: yieldToEventLoop,
  });
  const results: ResultsFile = {
    schema: RESULTS_SCHEMA,
    harness: { name: 'storebench', version: HARNESS_VERSION, commit: HARNESS_COMMIT },
    run: {
      id: input.runId,
      startedAt,
      finishedAt: new Date().toISOString(),
      browser: input.browser,
      plan,
      cancelled: output.cancelled,
      order: output.order,
    },
    environment,
    cases: output.cases,
  };
  // The page holds itself to the schema every reader enforces: a bad file fails here, loudly.
  return { results: validateResults(results, 'this run'), leftover: output.leftover };
}
