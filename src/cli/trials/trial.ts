/**
 * What every driven suite's trials get and give (rows.ts runs them): the browser to start,
 * the page, the plan, and the rows the page left for them.
 */
import type { Plan } from '../../core/plan/plan.ts';
import type { CaseResult } from '../../core/results/results.ts';
import type { PlaywrightLaunch } from '../drivers/discovery.ts';

export interface DrivenRun {
  how: PlaywrightLaunch;
  /** The page's address (the sweep's server): the same origin in every start, so the same storage. */
  pageUrl: string;
  plan: Plan;
  signal: AbortSignal;
  /** A line of progress: the row and the step under way. */
  onProgress(line: string): void;
}

/**
 * A driven suite's trials: the measured row of each row given, by row. A row left out was not
 * reached (the sweep was stopped first).
 */
export type DrivenTrials = (
  rows: readonly CaseResult[],
  run: DrivenRun,
) => Promise<Map<CaseResult, CaseResult>>;

/** Trials that measure each row on its own, one after the other. */
export function oneByOne(
  rowOf: (row: CaseResult, run: DrivenRun) => Promise<CaseResult>,
): DrivenTrials {
  return async (rows, run) => {
    const out = new Map<CaseResult, CaseResult>();
    for (const row of rows) {
      if (run.signal.aborted) break;
      out.set(row, await rowOf(row, run));
    }
    return out;
  };
}
