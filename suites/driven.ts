/**
 * The driven suites (src/core/run/driver-cases.ts): the suites whose rows a driver outside the page
 * measures. A driven suite is one record in its own file in suites/, here listed by id; its parts
 * that need Node or the DOM are registered under the same id on their side of the page/CLI line:
 *
 *   suites/<id>.ts                its DrivenSuite (page cases, finding, whether a sample is a
 *                                 timed section); its page steps' types (DrivenSteps below) and
 *                                 the work they do; the row its trials' samples make
 *   src/cli/trials/<id>.ts         its trials: the browsers the driver starts, kills, reloads
 *                                 (registered in src/cli/trials/rows.ts, DRIVEN_TRIALS)
 *   src/ui/host/trials.ts         its page steps, which the trials call (PAGE_STEPS)
 *   src/ui/charts/chart-<id>.ts   its chart, or null when the generic charts say it all
 *                                 (src/ui/charts/driven-charts.ts, DRIVEN_CHARTS)
 *
 * Every one of those registries is a mapped type over DrivenSuiteId, so a driven suite added
 * here without its trials, page steps or chart (null on purpose) does not compile. The split
 * keeps each bundle clean: the page must not load Playwright, nor the CLI Chart.js.
 */
import type { CaseResult } from '../src/core/results/results.ts';
import type { DrivenSuite, StoreRequest } from '../src/core/run/driver-cases.ts';
import { coldDriven, type ColdSteps } from './cold.ts';
import { crashDriven, type CrashSteps } from './crash.ts';
import { quotaDriven, type QuotaSteps } from './quota.ts';
import { tabsDriven, type TabsSteps } from './tabs.ts';

/**
 * What the page answers for each driven suite (window.__storebenchTrials[id]): like lib.dom's
 * HTMLElementTagNameMap, its keys are the ids.
 */
export interface DrivenSteps {
  crash: CrashSteps;
  cold: ColdSteps;
  tabs: TabsSteps;
  quota: QuotaSteps;
}

export type DrivenSuiteId = keyof DrivenSteps;

/** Every driven suite, in the order the sweep prints their findings. */
export const DRIVEN_SUITES: { readonly [Id in DrivenSuiteId]: DrivenSuite<Id> } = {
  crash: crashDriven,
  cold: coldDriven,
  tabs: tabsDriven,
  quota: quotaDriven,
};

export const DRIVEN_SUITE_IDS = Object.keys(DRIVEN_SUITES) as DrivenSuiteId[];

export function isDrivenSuiteId(id: string): id is DrivenSuiteId {
  return Object.hasOwn(DRIVEN_SUITES, id);
}

/** The driven suite a row belongs to, or null for a row of any other suite. */
function drivenSuiteOf(row: Pick<CaseResult, 'suite'>): DrivenSuite | null {
  return isDrivenSuiteId(row.suite) ? DRIVEN_SUITES[row.suite] : null;
}

/**
 * What a driven row found besides its time, in words (lost writes for crash, latencies and
 * events for tabs, what fit for quota); null for every other row. The sweep prints it under its
 * table; the page's results table puts it in the row's notes.
 */
export function drivenFinding(row: CaseResult): string | null {
  return drivenSuiteOf(row)?.finding?.describe(row) ?? null;
}

/** Whether a row's sample is one timed section, which can be too short for the timer: every row but those of a driven suite that says otherwise. */
export function isTimedSection(row: Pick<CaseResult, 'suite'>): boolean {
  return drivenSuiteOf(row)?.timedSection ?? true;
}

/** `window.__storebenchTrials`: each driven suite's page steps, and one to delete a database. */
export type StorebenchTrials = { readonly [Id in DrivenSuiteId]: DrivenSteps[Id] } & {
  destroy(request: StoreRequest): Promise<'destroyed'>;
};

declare global {
  interface Window {
    __storebenchTrials: StorebenchTrials;
    /** The binding the crash suite's driver exposes: the page reports each acknowledged write to it. */
    __storebenchAck?: (ids: string[], ms: number) => void;
  }
}
