/**
 * The tabs suite's trials (suites/tabs.ts). For each row: start the browser on a profile of its
 * own, open K pages in its one context, and per sample start every tab's work at the same moment
 * on a fresh database, then have the first tab check that every write is there once. For the
 * `hidden` cases the first tab is brought to the front; where the others stay visible (headless
 * browsers show every tab) the row is unsupported with what the tabs reported.
 */
import { stoppedRow } from '../../core/run/driver-cases.ts';
import { errorMessage, withTimeout } from '../../core/base/errors.ts';
import type { CaseResult } from '../../core/results/results.ts';
import { resolveSuiteParams } from '../../core/store/suite.ts';
import type { Page } from 'playwright-core';
import {
  tabsCaseOf,
  tabsRow,
  tabsSuite,
  type TabsCase,
  type TabsSample,
} from '../../../suites/tabs.ts';
import type { DrivenRun } from './trial.ts';
import { RestartableBrowser } from '../drivers/restartable.ts';

/** Time from handing every tab its start to the start itself: enough for K evaluate calls to arrive. */
const START_LEAD_MS = 300;

/** A row that ended without samples: its status and why. */
function noSamples(row: CaseResult, status: 'error' | 'unsupported', reason: string): CaseResult {
  return { ...row, samples: [], warmup: [], status, reason };
}

/**
 * For a `hidden` case, bring the first tab to the front and ask the others whether they are
 * hidden now: the reason the row is unsupported when one is not, else null.
 */
async function stillVisible(pages: readonly Page[], run: DrivenRun): Promise<string | null> {
  await pages[0]!.bringToFront();
  const shown = await Promise.all(
    pages.slice(1).map((p) => p.evaluate(() => document.visibilityState)),
  );
  if (shown.every((v) => v === 'hidden')) return null;
  return `the other tabs stay visible here (document.visibilityState "${shown.join('", "')}" after the first was brought to the front): a headless ${run.how.engine} shows every tab`;
}

/** One sample: every tab's work started at the same moment on a fresh database, then the first tab's check. */
async function tabsSample(
  pages: readonly Page[],
  row: CaseResult,
  run: DrivenRun,
  c: TabsCase,
  s: number,
): Promise<TabsSample> {
  const step = <T>(p: Promise<T>, what: string) => withTimeout(p, run.plan.timeoutMs, what);
  const db = `storebench-tabs-${s}`;
  const startAt = Date.now() + START_LEAD_MS;
  const reports = await step(
    Promise.all(
      pages.map((p, tab) =>
        p.evaluate((q) => window.__storebenchTrials.tabs.work(q), {
          adapter: row.adapter,
          db,
          tab,
          ops: c.ops,
          fixture: run.plan.fixture,
          seed: run.plan.seed,
          startAt,
        }),
      ),
    ),
    `${c.k} tabs' work`,
  );
  const check = await step(
    pages[0]!.evaluate((q) => window.__storebenchTrials.tabs.check(q), {
      adapter: row.adapter,
      db,
      k: c.k,
      ops: c.ops,
    }),
    'checking the writes',
  );
  const sum = (f: (r: (typeof reports)[number]) => number) => reports.reduce((a, r) => a + f(r), 0);
  return {
    tabs: reports,
    blocked: sum((r) => r.blocked),
    versionchange: sum((r) => r.versionchange),
    ...check,
  };
}

export async function tabsRowOf(row: CaseResult, run: DrivenRun): Promise<CaseResult> {
  const c = tabsCaseOf(row.params);
  if (!c)
    return noSamples(row, 'error', `not the params of a tabs case: ${JSON.stringify(row.params)}`);
  const rounds = Number(resolveSuiteParams(tabsSuite, run.plan.params).rounds);
  const browser = new RestartableBrowser(run.how);
  browser.stopOn(run.signal);
  const samples: TabsSample[] = [];
  try {
    const pages = [await browser.start(run.pageUrl)];
    while (pages.length < c.k) pages.push(await browser.newPage(run.pageUrl));
    const visible = c.visibility === 'hidden' ? await stillVisible(pages, run) : null;
    if (visible !== null) return noSamples(row, 'unsupported', visible);
    for (let s = 0; s < rounds && !run.signal.aborted; s++) {
      run.onProgress(`tabs ${row.case} ${row.adapter}: sample ${s + 1} of ${rounds}`);
      samples.push(await tabsSample(pages, row, run, c, s));
    }
  } catch (e) {
    if (run.signal.aborted) return stoppedRow(row);
    return noSamples(row, 'error', `tabs sample ${samples.length + 1}: ${errorMessage(e)}`);
  } finally {
    await browser.dispose();
  }
  return run.signal.aborted ? stoppedRow(row) : tabsRow(row, samples);
}
