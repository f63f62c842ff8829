/**
 * The sweep's half of driven cases (src/core/run/driver-cases.ts): the rows the page left for a driver that
 * can act outside it. Each driven suite (suites/driven.ts) has its trials here: crash
 * (crash.ts) kills the browser mid-write; cold (cold.ts) reloads the page and
 * restarts the browser between writing and reading; tabs (tabs.ts) opens several tabs on
 * one store; quota (quota.ts) sets a small storage quota and fills the store until it
 * fails. Every trial runs on a profile of its own, removed after its row.
 */
import { awaitsDriver, stoppedRow } from '../../core/run/driver-cases.ts';
import type { Plan } from '../../core/plan/plan.ts';
import type { CaseResult } from '../../core/results/results.ts';
import { isDrivenSuiteId, type DrivenSuiteId } from '../../../suites/driven.ts';
import type { PlaywrightLaunch } from '../drivers/discovery.ts';
import { coldRows } from './cold.ts';
import { crashRowOf } from './crash.ts';
import { oneByOne, type DrivenRun, type DrivenTrials } from './trial.ts';
import { killProblem } from '../drivers/restartable.ts';
import { quotaRowOf } from './quota.ts';
import { tabsRowOf } from './tabs.ts';

/** Each driven suite's trials. Cold reads the same data in three states, so it takes its rows in groups. */
const DRIVEN_TRIALS: { readonly [Id in DrivenSuiteId]: DrivenTrials } = {
  crash: oneByOne(crashRowOf),
  cold: coldRows,
  tabs: oneByOne(tabsRowOf),
  quota: oneByOne(quotaRowOf),
};

type Awaiting = CaseResult & { status: 'unsupported'; reason: string };

/** What in the plan the driven trials cannot honour: they run in the page's main thread, unthrottled. */
function planProblem(plan: Plan): string | null {
  if (plan.worker)
    return 'the driven suites run in the page, and this plan runs in a Worker (--worker)';
  if (plan.cpuThrottle)
    return 'the driven suites start browsers of their own, which the CPU throttling does not reach';
  return null;
}

/** The rows of `cases`, with every row the page left for the driver measured, or given why it cannot be. */
export async function runDrivenRows(
  cases: readonly CaseResult[],
  run: Omit<DrivenRun, 'how'> & { how: PlaywrightLaunch | undefined },
): Promise<CaseResult[]> {
  const problem = killProblem(run.how) ?? planProblem(run.plan);
  const out = [...cases];
  const awaiting = cases.filter(awaitsDriver);
  const at = new Map(cases.map((row, i) => [row, i]));
  const put = (row: CaseResult, measured: CaseResult) => (out[at.get(row)!] = measured);
  const left = (row: Awaiting, why: string) =>
    put(row, { ...row, reason: `${row.reason} (${why})` });
  if (problem !== null || !run.how) {
    for (const row of awaiting) left(row, `not run: ${problem}`);
    return out;
  }
  const driven: DrivenRun = { ...run, how: run.how };
  // Suite by suite, in the order the page ran them.
  const bySuite = new Map<DrivenSuiteId, Awaiting[]>();
  for (const row of awaiting) {
    if (isDrivenSuiteId(row.suite))
      bySuite.set(row.suite, [...(bySuite.get(row.suite) ?? []), row]);
    else left(row, `not run: the sweep has no trials for suite ${row.suite}`);
  }
  for (const [suite, rows] of bySuite) {
    if (run.signal.aborted) break;
    for (const [row, measured] of await DRIVEN_TRIALS[suite](rows, driven)) put(row, measured);
  }
  for (const row of awaiting) if (out[at.get(row)!] === row) put(row, stoppedRow(row));
  return out;
}
