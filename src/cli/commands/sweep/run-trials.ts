/**
 * Phase 5 of a sweep: the rows the page left for a driver that acts outside it (crash, cold,
 * tabs, quota; src/core/run/driver-cases.ts). They run after the page's own, so the run finishes when they do.
 */
import { awaitsDriver } from '../../../core/run/driver-cases.ts';
import type { ResultsFile } from '../../../core/results/results.ts';
import { runDrivenRows } from '../../trials/rows.ts';
import { labelOf, type BrowserRun, type SweepRun } from '../../browser-runs/sweep-run.ts';

export async function withDrivenRows(
  run: SweepRun,
  b: BrowserRun,
  results: ResultsFile,
): Promise<ResultsFile> {
  if (!results.cases.some(awaitsDriver)) return results;
  const name = labelOf(b);
  const driven = {
    how: b.target.browser?.playwright,
    pageUrl: `${run.origin}/`,
    plan: run.plan,
    signal: run.stop.asking.signal,
    onProgress: (line: string) => run.view.update(`${name.padEnd(9)} ${line}`),
  };
  const measured = await runDrivenRows(results.cases, driven);
  // Ctrl-C during the trials cut the run short, as it does in the page: the file says so.
  const cancelled = results.run.cancelled || run.stop.requested;
  return {
    ...results,
    run: { ...results.run, finishedAt: new Date().toISOString(), cancelled },
    cases: measured,
  };
}
