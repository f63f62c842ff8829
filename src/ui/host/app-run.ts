/**
 * One run of a plan, as a results document, in whichever context imports it: the page's main
 * thread (runInPage) or the plan Worker (plan-worker.ts). No DOM: the caller renders from the
 * events it passes in, and brings its own probes.
 */
import { curesOf } from '../../core/plan/plan.ts';
import { pageGc } from './garbage.ts';
import { collectEnvironment, describeAdapters } from '../../core/run/environment.ts';
import type { Baseline } from '../../core/verdicts/baseline.ts';
import type { Carry, LaunchOrder } from '../../core/run/launch.ts';
import type { StepWatch } from '../../core/base/step-watch.ts';
import type { SampleWatch } from '../../core/run/machine.ts';
import type { Plan } from '../../core/plan/plan.ts';
import type { ResultsFile } from '../../core/results/results.ts';
import { validateResults } from '../../core/results/recompute.ts';
import { resultsDocument } from '../../core/results/document.ts';
import {
  runPlan,
  type FootprintProbe,
  type RunEvent,
  type RunOutput,
  type PassProbe,
} from '../../core/run/runner.ts';
import { adapterById } from '../../adapters/registry.ts';
import { throttledAdapters } from '../../core/store/throttle.ts';
import { suiteById } from '../../../suites/index.ts';
import { yieldToEventLoop } from './yield.ts';

export interface AppRunInput {
  plan: Plan;
  runId: string;
  /** run.browser: the driver's label, or one derived from the user agent. */
  browser: string;
  signal?: AbortSignal;
  /** Called synchronously by the runner between samples; it must not throw or block for long. */
  onEvent?: (event: RunEvent) => void;
  /** Main-thread blocking, in each ok row's measurement pass (blocking-probe.ts). */
  probe?: PassProbe;
  /** Bytes and heap after the insert cases (footprint.ts). */
  footprint?: FootprintProbe;
  /** Around each timed run: the machine's record of the sample (machine-watch.ts). */
  sampleWatch?: SampleWatch;
  /** What the probes' metrics mean here; recorded as environment.metricNotes. */
  metricNotes?: Record<string, string>;
  /** Awaited before each sample, untimed (see RunInput.betweenSamples); one event-loop turn by default. */
  betweenSamples?: () => Promise<void>;
  /** Sample each row until its change from this baseline is decided (the sweep's --baseline). */
  baseline?: Baseline;
  /** The CPU throttling rate the driver applied to the page (the URL's `throttled`), if any. */
  throttledAt?: number | null;
  /** The passes the sweep gave this browser launch, and the rows it carries from the ones before (launch.ts). */
  launch?: LaunchOrder;
  /** Told of every step's deadline, for the page's watchdog (watchdog.ts); main thread only. */
  stepWatch?: StepWatch;
}

export interface AppRunOutput {
  results: ResultsFile;
  /** Databases the runner could not delete; the page lists them so the reader can clear them. */
  leftover: RunOutput['leftover'];
  /** The rows for the next launch, when passes are left (launch.ts). */
  carry?: Carry;
}

/** Run the plan here, in the main thread or a Worker as `context` says. */
export async function runHere(
  input: AppRunInput,
  context: 'main' | 'worker',
): Promise<AppRunOutput> {
  const { plan } = input;
  const suites = plan.suites.map(suiteById);
  const adapters = throttledAdapters(
    plan,
    input.throttledAt ?? null,
    context,
    plan.adapters.map(adapterById),
  );
  // Before the clock of the run starts: the timer probe spins for a few ms.
  const environment = await collectEnvironment(context);
  if (input.metricNotes && Object.keys(input.metricNotes).length > 0)
    environment.metricNotes = input.metricNotes;
  const gc = curesOf(plan).includes('gc') ? pageGc() : undefined;
  if (gc !== undefined) environment.forcedGc = gc?.how ?? 'none';
  const between = input.betweenSamples ?? yieldToEventLoop;
  const startedAt = new Date().toISOString();
  const output = await runPlan({
    plan,
    suites,
    adapters,
    runId: input.runId,
    signal: input.signal,
    onEvent: input.onEvent,
    // The collection first: what it leaves to finish (finalizers, a paint) settles in between().
    betweenSamples: gc ? async () => (await gc.collect(), await between()) : between,
    probe: input.probe,
    footprint: input.footprint,
    timerStepMs: environment.timerStepMs,
    baseline: input.baseline,
    launch: input.launch,
    stepWatch: input.stepWatch,
    sampleWatch: input.sampleWatch,
  });
  // After the run, when the stores know what actually ran (e.g. which SQLite VFS).
  const described = await describeAdapters(adapters);
  if (Object.keys(described).length > 0) environment.adapters = described;
  const results = resultsDocument({
    runId: input.runId,
    browser: input.browser,
    plan,
    startedAt,
    finishedAt: new Date().toISOString(),
    environment,
    output,
  });
  // The page holds itself to the schema every reader enforces: a bad file fails here, loudly.
  return {
    results: validateResults(results, 'this run'),
    leftover: output.leftover,
    ...(output.carry ? { carry: output.carry } : {}),
  };
}

/** The plan in the page's main thread. */
export function runInPage(input: AppRunInput): Promise<AppRunOutput> {
  return runHere(input, 'main');
}
