/**
 * The page's entry. It reads as its phases, each a module of a room of src/ui:
 *   1. plan (form/plan-phase.ts): the URL's plan in the form; the form's plan in the URL, and
 *      what it amounts to beside Run;
 *   2. load (status/page-load.ts): what the URL got wrong, the collector mode, each store's
 *      support (form/plan-phase.ts) and the environment;
 *   3. run (host/page-run.ts): on Run, or at once with `autorun=1`, the plan in the main thread
 *      or a Worker, each runner event in the live views (host/run-input.ts);
 *   4. results (results/run-views.ts): the finished run in every view, then handed on to the
 *      sweep's collector (in collector mode, `?collector=...&token=...`) or to the explorer;
 *   5. explorer (explorer/page-explorer.ts): the served results files, and this page's runs.
 * What they share is one Page (page.ts): what the URL asked for, the collector, the views and the
 * run in flight.
 */
import './style.css';
import {
  foldPlanForm,
  checkSupport,
  onPlanChange,
  planToRun,
  showUrlPlan,
} from './form/plan-phase.ts';
import { newRunId } from './host/page-query.ts';
import { cancelRun, startRun } from './host/page-run.ts';
import { setPageState } from './host/page-state.ts';
import { installTrials } from './host/trials.ts';
import { startExplorer } from './explorer/page-explorer.ts';
import { makePage, type Page } from './page.ts';
import { adapterLabels } from './results/run-views.ts';
import { showEnvironment, showQueryBanners } from './status/page-load.ts';

setPageState({ status: 'idle' });
installTrials();

const page = makePage(onPlanChange);
page.views.table.setAdapterLabels(adapterLabels([]));
showUrlPlan(page);
listen(page);
void load(page);

/** Run and Cancel, and the sweep's Ctrl-C, which stops the run as Cancel does. */
function listen(page: Page): void {
  page.views.runButton.addEventListener('click', () => {
    const plan = planToRun(page);
    if (plan) void startRun(page, plan, newRunId());
  });
  page.views.cancelButton.addEventListener('click', () => cancelRun(page));
  // The run's rows so far go to the sweep in 'done'.
  if (page.collector) page.collector.onStop = () => cancelRun(page);
}

async function load(page: Page): Promise<void> {
  const { query, collector } = page;
  showQueryBanners(page);
  checkSupport(page);
  await showEnvironment(page);
  // A sweep's page (collector or autorun) loads nothing more before its run, which starts at once.
  if (!collector && !query.autorun) startExplorer(page);
  const badForCollector = [...query.planErrors, ...query.queryErrors];
  if (collector && badForCollector.length > 0) {
    // The sweep is waiting for this browser: tell it why nothing will run instead of timing out.
    const message = `bad page URL: ${badForCollector.join('; ')}`;
    setPageState({ status: 'error', error: message });
    await collector.fatal(message);
    return;
  }
  if (query.autorun) await autorun(page);
}

/** The URL's plan, run at once; the explorer only after it, so none of it runs during the samples. */
async function autorun(page: Page): Promise<void> {
  const { query, collector } = page;
  if (query.planErrors.length > 0)
    setPageState({ status: 'error', error: query.planErrors.join('; ') });
  else {
    await startRun(page, query.plan, query.runId ?? newRunId());
    foldPlanForm();
  }
  if (!collector) startExplorer(page);
}
