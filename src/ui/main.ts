/**
 * The page's entry: reads the plan from the URL, wires the controls, runs plans in the main
 * thread and renders what the runner reports. In collector mode (`?collector=...&token=...`)
 * it also sends the run to the sweep's collector, and with `autorun=1` starts at once.
 *
 * Everything the page does during a run happens inside the runner's onEvent, which the runner
 * calls between samples, never inside a timed `run` body.
 */
import './style.css';
import { errorMessage } from '../core/base/errors.ts';
import { collectEnvironment } from '../core/run/environment.ts';
import { formatDuration } from '../core/base/format.ts';
import { passesOf, type Plan } from '../core/plan/plan.ts';
import { Budget } from '../core/plan/budget.ts';
import { planToQuery } from '../core/plan/url.ts';
import { planGroups } from '../core/run/runner.ts';
import type { LaunchOrder } from '../core/run/launch.ts';
import type { CaseResult } from '../core/results/results.ts';
import type { RunEvent } from '../core/run/runner.ts';
import { adapterById, ADAPTERS } from '../adapters/registry.ts';
import { SUITES } from '../../suites/index.ts';
import { FIXTURE_IDS } from '../../fixtures/index.ts';
import { runInPage, type AppRunInput, type AppRunOutput } from './host/app-run.ts';
import { startWatchdog, type Watchdog } from './host/watchdog.ts';
import { Banners } from './status/banners.ts';
import { createBlockingProbe } from './host/blocking-probe.ts';
import { CompareView } from './explorer/compare-view.ts';
import { createFootprint, detectHeapSupport } from './host/footprint.ts';
import { runInWorker } from './host/worker-run.ts';
import { afterNextPaint, yieldToEventLoop } from './host/yield.ts';
import { TimedWindows } from './host/timed-windows.ts';
import { createMachineWatch } from './host/machine-watch.ts';
import { MediansChart } from './charts/chart-medians.ts';
import { CollectorClient, SETTLE_BEFORE_SAMPLE_MS } from './host/collector-client.ts';
import { Controls } from './form/controls.ts';
import { byId, h } from './dom.ts';
import { Downloads } from './results/downloads.ts';
import { FindingsList } from './results/findings-list.ts';
import { renderEnvironment } from './results/env-panel.ts';
import { newRunId, readPageQuery } from './host/page-query.ts';
import { setPageState } from './host/page-state.ts';
import { installTrials } from './host/trials.ts';
import { ProgressView } from './status/progress.ts';
import { ResultsTable } from './results/results-table.ts';
import { formatElapsed, runSummaryText } from './results/run-summary.ts';
import { WarningsView } from './status/warnings.ts';
import { AbView } from './results/ab-view.ts';
import { Explorer } from './explorer/explorer.ts';
import { withPlanQuery } from './explorer/explorer-url.ts';
import { IS_SITE, isolationLoss } from './site.ts';

setPageState({ status: 'idle' });
installTrials();

const banners = new Banners(byId('banners'));
const query = readPageQuery(location.search, location.href, navigator.userAgent);
const collector = query.collector
  ? new CollectorClient(query.collector.url, query.collector.token, query.browser)
  : null;

const progress = new ProgressView();
const warnings = new WarningsView();
const table = new ResultsTable();
const chart = new MediansChart();
const downloads = new Downloads();
const findings = new FindingsList('What this run found');
const compareView = new CompareView();
const abView = new AbView();
// Started at load: where the heap can only be measured slowly, the trial settles before a run.
const heapSupport = detectHeapSupport();
const HEAP_WAIT =
  'Waiting for the browser to finish a trial heap measurement before the first sample (Chromium answers it at its next garbage collection, within 25 s), so that it cannot land inside a timed sample…';
// The explorer's state shares the URL with the plan; each side rewrites only its own keys.
const explorer = new Explorer(byId('explorer-panel'), location.search, (search) =>
  history.replaceState(null, '', `${location.pathname}${search}`),
);
table.setAdapterLabels(adapterLabels([]));

const runButton = byId<HTMLButtonElement>('run');
const cancelButton = byId<HTMLButtonElement>('cancel');
const planStatus = byId('plan-status');
const runSummary = byId('run-summary');

let running = false;
let currentPlan: Plan | null = null;
let controller: AbortController | null = null;

const controls = new Controls({
  suites: SUITES,
  adapters: ADAPTERS,
  fixtures: FIXTURE_IDS,
  onChange: (reading) => {
    showPlan(reading.ok ? reading.plan : null);
    // The address bar always holds a link that reproduces the plan on screen.
    if (reading.ok)
      history.replaceState(
        null,
        '',
        `${location.pathname}${withPlanQuery(location.search, planToQuery(reading.plan))}`,
      );
  },
});

byId('controls').append(controls.element);
byId('progress').append(progress.element, warnings.element);
byId('downloads').append(downloads.element);
// At the top of the Results, under the run's one-line summary.
byId('run-summary').after(findings.element);
byId('chart').append(chart.element);
byId('table').append(table.element);
byId('compare').append(compareView.element);
byId('run-summary').after(abView.element);
byId('explorer').append(explorer.element);
controls.setPlan(query.plan);
showPlan(query.plan);

runButton.addEventListener('click', () => {
  const reading = controls.read();
  if (!reading.ok || !describePlan(reading.plan).ok) return;
  history.replaceState(
    null,
    '',
    `${location.pathname}${withPlanQuery(location.search, planToQuery(reading.plan))}`,
  );
  void startRun(reading.plan, newRunId());
});
cancelButton.addEventListener('click', cancelRun);
// The sweep's Ctrl-C: the run stops as Cancel stops it, and its rows go to the sweep in 'done'.
if (collector) collector.onStop = cancelRun;

function cancelRun(): void {
  cancelButton.disabled = true;
  cancelButton.textContent = 'Cancelling…';
  controller?.abort();
}

void boot();

async function boot(): Promise<void> {
  if (query.planErrors.length > 0) {
    banners.show(
      'error',
      'Some plan parameters in the URL are not valid; their defaults are used instead.',
      query.planErrors,
      'url-plan',
    );
  }
  if (query.queryErrors.length > 0)
    banners.show('warning', 'Some URL parameters are not valid.', query.queryErrors, 'url-query');
  if (collector)
    banners.show(
      'info',
      'Collector mode',
      [`Results are sent to ${collector.url} as browser "${query.browser}".`],
      'collector',
    );

  checkSupport();
  try {
    const env = await collectEnvironment('main');
    renderEnvironment(byId('env'), env, !IS_SITE);
    table.setTimerStep(env.timerStepMs);
    const lost = IS_SITE
      ? isolationLoss(env.crossOriginIsolated, env.timerStepMs, window.isSecureContext)
      : [];
    if (lost.length > 0)
      banners.show('warning', 'This page is not cross-origin isolated here.', lost, 'isolation');
  } catch (e) {
    byId('env').textContent = `Could not read the environment: ${errorMessage(e)}`;
  }

  // A sweep's page (collector or autorun) loads nothing more before its run, which starts at once.
  if (!collector && !query.autorun)
    void explorer.start(location.href).then((index) => compareView.setServed(index, location.href));

  const badForCollector = [...query.planErrors, ...query.queryErrors];
  if (collector && badForCollector.length > 0) {
    // The sweep is waiting for this browser: tell it why nothing will run instead of timing out.
    const message = `bad page URL: ${badForCollector.join('; ')}`;
    setPageState({ status: 'error', error: message });
    await collector.fatal(message);
    return;
  }
  if (query.autorun) {
    if (query.planErrors.length > 0)
      setPageState({ status: 'error', error: query.planErrors.join('; ') });
    else {
      await startRun(query.plan, query.runId ?? newRunId());
      foldPlanForm();
    }
    // Listed only now, so that none of it runs during the samples.
    if (!collector)
      void explorer
        .start(location.href)
        .then((index) => compareView.setServed(index, location.href));
  }
}

/**
 * After a run started from the URL, the form folds under one line: its plan is the URL's and the
 * status line beside Run says it, while the form's lists (every suite, every store) would put the
 * results a screen further down. Opened, it is the same form, ready to change and run again.
 */
function foldPlanForm(): void {
  const controls = byId('controls');
  const fold = h(
    'details',
    { className: 'plan-fold', attrs: { 'data-testid': 'plan-fold' } },
    h('summary', {}, "The plan's form: this run's plan came from the page's URL"),
  );
  controls.replaceWith(fold);
  fold.append(controls);
}

/** Every registered store's label, and the plan's variants' (an instrument, a version this page was built with). */
function adapterLabels(ids: readonly string[]): Map<string, string> {
  const labels = new Map(ADAPTERS.map((a) => [a.id, a.label]));
  for (const id of ids) {
    try {
      labels.set(id, adapterById(id).label);
    } catch {
      // A variant this page was built without: the run says why when it starts.
    }
  }
  return labels;
}

function checkSupport(): void {
  for (const adapter of ADAPTERS) {
    Promise.resolve()
      .then(() => adapter.supported())
      .then(
        (support) => controls.setSupport(adapter.id, support),
        (e: unknown) => controls.setSupport(adapter.id, { failed: errorMessage(e) }),
      );
  }
}

/** Clear what the last run showed, before a run of `plan`. */
function resetViews(plan: Plan): void {
  banners.remove('run');
  warnings.clear();
  runSummary.textContent = '';
  findings.render([]);
  table.setPlan(plan);
  table.setAdapterLabels(adapterLabels(plan.adapters));
  table.clear();
  chart.update([]);
  downloads.setResults(null);
  compareView.setCurrent(null);
  abView.render([]);
  progress.start();
}

/**
 * The page while a run goes: each runner event updates the progress, the table and the chart,
 * between samples, and betweenSamples lets what that changed paint before the next sample.
 */
function liveRun(): Pick<AppRunInput, 'onEvent' | 'betweenSamples'> {
  const rows: CaseResult[] = [];
  let chartStale = false;
  /** The page changed what it shows since the last sample; its paint is still to come. */
  let rendered = false;
  const windows = new TimedWindows();
  const onEvent = (event: RunEvent) => {
    windows.close(event.type === 'sample' ? `sample ${event.adapter}` : event.type);
    try {
      let changed = progress.onEvent(event);
      if (event.type === 'case-end') {
        rows.push(event.result);
        table.add(event.result);
        chartStale = true;
        changed = true;
      } else if (event.type === 'warning') {
        warnings.add(event.message);
        changed = true;
      }
      // The rows of a group finish together; redraw once per group, not once per row.
      if (chartStale && (event.type === 'group-start' || event.type === 'run-end')) {
        chart.update(rows);
        chartStale = false;
        changed = true;
      }
      if (changed) {
        settleLayout();
        rendered = true;
      }
    } catch (e) {
      console.error('storebench: rendering a run event failed', e);
    }
    collector?.onRunEvent(event);
  };
  // The paint and raster of what the page just rendered would otherwise run during the next
  // timed sample, competing with the store for the CPU: without two frames' wait after
  // rendering, a 10,000-document bulk put in this page measures 5 to 9% slower than in a bare
  // page (npm run bench:overhead). Waiting only when something was rendered (progress
  // redraws at most ten times a second) keeps runs of tiny samples fast.
  // The collector's POSTs started since the last sample settle here too, before the sample
  // rather than inside it: their responses' tasks (and the network process answering them)
  // would otherwise land in its timed section (tests/e2e/sweep-inflight.spec.ts).
  const betweenSamples = async () => {
    windows.close('betweenSamples');
    if (collector) await collector.settled(SETTLE_BEFORE_SAMPLE_MS);
    if (rendered) {
      rendered = false;
      await afterNextPaint();
    }
    await yieldToEventLoop();
    windows.open();
  };
  return { onEvent, betweenSamples };
}

/** What a run takes besides its plan: the sweep's baseline and launch, and the probes. */
async function prepareRun(plan: Plan, runId: string) {
  if (collector) await collector.hello(navigator.userAgent);
  const baseline = collector ? await collector.baseline() : undefined;
  const launch = collector ? await collector.launch(runId, passesOf(plan.auto)) : undefined;
  // The trial heap measurement may still be pending (Chromium answers it at its next garbage
  // collection): say so rather than sit on "Collecting the environment…".
  const slow = setTimeout(() => progress.waiting(HEAP_WAIT), 300);
  const heap = await heapSupport.finally(() => clearTimeout(slow));
  const probe = createBlockingProbe(plan.worker ? 'worker' : 'main');
  const footprint = createFootprint(heap.measure, heap.why);
  // The machine record needs the sweep's collector, which reads /proc; a Worker's run has none.
  const machine =
    collector && query.machine && !plan.worker
      ? createMachineWatch(() => collector.machine())
      : undefined;
  const metricNotes = { ...probe.notes(), ...footprint.notes(), ...machine?.notes() };
  return {
    baseline,
    launch,
    probe,
    footprint,
    metricNotes,
    ...(machine ? { sampleWatch: machine } : {}),
  };
}

/** The finished run in every view, and how it ended in the progress line. */
function showResults(
  plan: Plan,
  { results, leftover, carry }: AppRunOutput,
  launch: LaunchOrder | undefined,
  elapsedMs: number,
): void {
  const took = formatElapsed(elapsedMs);
  renderEnvironment(byId('env'), results.environment, !IS_SITE);
  table.setTimerStep(results.environment.timerStepMs);
  table.setAll(results.cases, plan.adapters);
  chart.update(results.cases);
  downloads.setResults(results);
  compareView.setCurrent(results);
  abView.render([results]);
  runSummary.textContent = runSummaryText(results, elapsedMs);
  findings.render([results]);
  if (results.run.cancelled)
    progress.finish(
      'cancelled',
      `Cancelled after ${took}; the ${results.cases.length} rows that finished are kept.`,
    );
  else if (carry && launch)
    progress.finish(
      'done',
      `Passes ${launch.first} to ${launch.last} done in ${took}; the sweep takes the next ones in a new browser launch.`,
    );
  else progress.finish('done', `Done: ${results.cases.length} rows in ${took}.`);
  if (leftover.length > 0) {
    banners.show(
      'warning',
      'Some databases could not be deleted; clear site data to remove them.',
      leftover.map((l) => `${l.adapter}: ${l.name}`),
      'run',
    );
  }
}

/** The run to the sweep's collector, or to the explorer when there is none. */
async function handOn({ results, carry }: AppRunOutput): Promise<void> {
  if (collector) {
    await collector.done(results, carry);
    if (collector.stats.failed > 0) {
      banners.show(
        'warning',
        'Some messages to the collector failed.',
        [
          `${collector.stats.failed} failed, ${collector.stats.sent} sent; last error: ${collector.stats.lastError ?? 'unknown'}`,
        ],
        'collector-failed',
      );
    }
    return;
  }
  // The explorer is a view: if it cannot show this run, the run itself still succeeded.
  try {
    explorer.addRun(results);
  } catch (e) {
    console.error('storebench: the explorer could not show this run', e);
  }
}

async function startRun(plan: Plan, runId: string): Promise<void> {
  if (running) return;
  running = true;
  controller = new AbortController();
  setPageState({ status: 'running' });
  setRunning(true);
  resetViews(plan);
  const live = liveRun();
  let watchdog: Watchdog | null = null;
  try {
    const { launch, ...prepared } = await prepareRun(plan, runId);
    const startedAt = performance.now();
    const run = plan.worker ? runInWorker : runInPage;
    // A sweep's page in the main thread is watched from a Worker, so a thread that blocks is reported at once (host/watchdog.ts).
    watchdog =
      collector && !plan.worker ? startWatchdog(collector.watchdogOrder(plan.timeoutMs)) : null;
    const stepWatch = watchdog?.watch;
    const output = await run({
      plan,
      runId,
      browser: query.browser,
      signal: controller.signal,
      ...live,
      ...prepared,
      throttledAt: query.throttled,
      launch,
      ...(stepWatch ? { stepWatch } : {}),
    });
    showResults(plan, output, launch, performance.now() - startedAt);
    await handOn(output);
    setPageState({ status: 'done', results: output.results });
  } catch (e) {
    const message = errorMessage(e);
    progress.finish('error', `The run failed: ${message}`);
    banners.show('error', 'The run failed.', [message], 'run');
    console.error(e);
    if (collector) await collector.fatal(message);
    setPageState({ status: 'error', error: message });
  } finally {
    watchdog?.stop();
    running = false;
    controller = null;
    setRunning(false);
  }
}

function setRunning(on: boolean): void {
  controls.setDisabled(on);
  runButton.disabled = on || currentPlan === null;
  cancelButton.disabled = !on;
  cancelButton.textContent = 'Cancel';
  document.body.classList.toggle('is-running', on);
}

/**
 * Force style and layout now, between samples, rather than at the next frame, which could fall
 * inside a timed sample. Painting happens at frame time: betweenSamples waits for that frame.
 */
function settleLayout(): void {
  void document.documentElement.offsetHeight;
}

/** What the plan amounts to, or why a suite rejects its parameters (which would fail the run). */
function describePlan(plan: Plan): { ok: boolean; text: string } {
  try {
    const rows =
      planGroups(
        plan,
        SUITES.filter((s) => plan.suites.includes(s.id)),
      ).length * plan.adapters.length;
    const a = plan.auto;
    const passes = passesOf(a) > 1 ? ` spent in ${passesOf(a)} passes` : '';
    const browserMs = new Budget(plan).browserMs;
    const budget =
      browserMs !== undefined ? `, within a ${formatDuration(browserMs)} budget${passes}` : '';
    const samples = a
      ? `adaptive: until the median's 95% interval is within ±${Number((a.targetRelCi * 100).toPrecision(6))}% of it, ${a.minN} to ${a.maxN} samples or ${a.maxMs} ms a row${budget}`
      : `${plan.iterations} timed`;
    const where = plan.worker ? ' · in a Worker' : '';
    return {
      ok: true,
      text: `${rows} row${rows === 1 ? '' : 's'} · ${samples} + ${plan.warmup} warm-up sample${plan.warmup === 1 ? '' : 's'} each${where}`,
    };
  } catch (e) {
    return { ok: false, text: errorMessage(e) };
  }
}

function showPlan(plan: Plan | null): void {
  const described = plan ? describePlan(plan) : { ok: false, text: '' };
  planStatus.textContent = described.text;
  planStatus.classList.toggle('plan-status-bad', plan !== null && !described.ok);
  currentPlan = described.ok ? plan : null;
  runButton.disabled = running || currentPlan === null;
}
