/**
 * The page's run phase: a plan in the main thread or a Worker, each runner event in the live
 * views, then the results phase, and the run handed on: to the sweep's collector, or to the
 * explorer. Everything the page does during a run happens inside the runner's onEvent, which the
 * runner calls between samples, never inside a timed `run` body.
 */
import { errorMessage } from '../../core/base/errors.ts';
import type { Plan } from '../../core/plan/plan.ts';
import { exploreRun } from '../explorer/page-explorer.ts';
import type { Page } from '../page.ts';
import { resetViews, showResults } from '../results/run-views.ts';
import { runInPage, type AppRunOutput } from './app-run.ts';
import { liveRun, prepareRun } from './run-input.ts';
import { setPageState } from './page-state.ts';
import { startWatchdog, type Watchdog } from './watchdog.ts';
import { runInWorker } from './worker-run.ts';

/** Run `plan` as run `runId`, unless a run is in flight. */
export async function startRun(page: Page, plan: Plan, runId: string): Promise<void> {
  if (page.running) return;
  const controller = new AbortController();
  page.running = controller;
  setPageState({ status: 'running' });
  setRunning(page, true);
  resetViews(page, plan);
  const live = liveRun(page);
  let watchdog: Watchdog | null = null;
  const { collector } = page;
  try {
    const { launch, ...prepared } = await prepareRun(page, plan, runId);
    const startedAt = performance.now();
    const run = plan.worker ? runInWorker : runInPage;
    // A sweep's page in the main thread is watched from a Worker, so a thread that blocks is reported at once (host/watchdog.ts).
    watchdog =
      collector && !plan.worker ? startWatchdog(collector.watchdogOrder(plan.timeoutMs)) : null;
    const stepWatch = watchdog?.watch;
    const output = await run({
      plan,
      runId,
      browser: page.query.browser,
      signal: controller.signal,
      ...live,
      ...prepared,
      throttledAt: page.query.throttled,
      launch,
      ...(stepWatch ? { stepWatch } : {}),
    });
    showResults(page, plan, output, launch, performance.now() - startedAt);
    await handOn(page, output);
    setPageState({ status: 'done', results: output.results });
  } catch (e) {
    await runFailed(page, e);
  } finally {
    watchdog?.stop();
    page.running = null;
    setRunning(page, false);
  }
}

/** Cancel, or the sweep's Ctrl-C: the run stops, and its rows so far are kept. */
export function cancelRun({ views, running }: Page): void {
  views.cancelButton.disabled = true;
  views.cancelButton.textContent = 'Cancelling…';
  running?.abort();
}

async function runFailed({ views, collector }: Page, e: unknown): Promise<void> {
  const message = errorMessage(e);
  views.progress.finish('error', `The run failed: ${message}`);
  views.banners.show('error', 'The run failed.', [message], 'run');
  console.error(e);
  if (collector) await collector.fatal(message);
  setPageState({ status: 'error', error: message });
}

function setRunning({ views, runnable }: Page, on: boolean): void {
  views.controls.setDisabled(on);
  views.runButton.disabled = on || runnable === null;
  views.cancelButton.disabled = !on;
  views.cancelButton.textContent = 'Cancel';
  document.body.classList.toggle('is-running', on);
}

/** The run to the sweep's collector, or to the explorer when there is none. */
async function handOn(page: Page, { results, carry }: AppRunOutput): Promise<void> {
  const { collector, views } = page;
  if (!collector) {
    exploreRun(page, results);
    return;
  }
  await collector.done(results, carry);
  if (collector.stats.failed > 0) {
    views.banners.show(
      'warning',
      'Some messages to the collector failed.',
      [
        `${collector.stats.failed} failed, ${collector.stats.sent} sent; last error: ${collector.stats.lastError ?? 'unknown'}`,
      ],
      'collector-failed',
    );
  }
}
