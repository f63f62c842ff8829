/**
 * The page's results phase: the views cleared before a run, and the finished run in every one of
 * them (environment, table, chart, downloads, comparison, A/B, summary, findings), with how it
 * ended in the progress line.
 */
import type { Plan } from '../../core/plan/plan.ts';
import type { LaunchOrder } from '../../core/run/launch.ts';
import { adapterById, ADAPTERS } from '../../adapters/registry.ts';
import type { AppRunOutput } from '../host/app-run.ts';
import type { Page } from '../page.ts';
import { IS_SITE } from '../site.ts';
import { renderEnvironment } from './env-panel.ts';
import { formatElapsed, runSummaryText } from './run-summary.ts';

/** Every registered store's label, and the plan's variants' (an instrument, a version this page was built with). */
export function adapterLabels(ids: readonly string[]): Map<string, string> {
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

/** Clear what the last run showed, before a run of `plan`. */
export function resetViews({ views: v }: Page, plan: Plan): void {
  v.banners.remove('run');
  v.warnings.clear();
  v.runSummary.textContent = '';
  v.findings.render([]);
  v.table.setPlan(plan);
  v.table.setAdapterLabels(adapterLabels(plan.adapters));
  v.table.clear();
  v.chart.update([]);
  v.downloads.setResults(null);
  v.compare.setCurrent(null);
  v.ab.render([]);
  v.progress.start();
}

/** The finished run in every view, and how it ended in the progress line. */
export function showResults(
  { views: v }: Page,
  plan: Plan,
  { results, leftover, carry }: AppRunOutput,
  launch: LaunchOrder | undefined,
  elapsedMs: number,
): void {
  const took = formatElapsed(elapsedMs);
  renderEnvironment(v.env, results.environment, !IS_SITE);
  v.table.setTimerStep(results.environment.timerStepMs);
  v.table.setAll(results.cases, plan.adapters);
  v.chart.update(results.cases);
  v.downloads.setResults(results);
  v.compare.setCurrent(results);
  v.ab.render([results]);
  v.runSummary.textContent = runSummaryText(results, elapsedMs);
  v.findings.render([results]);
  if (results.run.cancelled)
    v.progress.finish(
      'cancelled',
      `Cancelled after ${took}; the ${results.cases.length} rows that finished are kept.`,
    );
  else if (carry && launch)
    v.progress.finish(
      'done',
      `Passes ${launch.first} to ${launch.last} done in ${took}; the sweep takes the next ones in a new browser launch.`,
    );
  else v.progress.finish('done', `Done: ${results.cases.length} rows in ${took}.`);
  if (leftover.length > 0) {
    v.banners.show(
      'warning',
      'Some databases could not be deleted; clear site data to remove them.',
      leftover.map((l) => `${l.adapter}: ${l.name}`),
      'run',
    );
  }
}
