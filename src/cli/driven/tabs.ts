/**
 * The tabs suite's trials (suites/tabs.ts). For each row: start the browser on a profile of its
 * own, open K pages in its one context, and per sample start every tab's work at the same moment
 * on a fresh database, then have the first tab check that every write is there once. For the
 * `hidden` cases the first tab is brought to the front; where the others stay visible (headless
 * browsers show every tab) the row is unsupported with what the tabs reported.
 */
import { stoppedRow } from '../../core/driven.ts';
import { errorMessage, withTimeout } from '../../core/errors.ts';
import type { CaseResult } from '../../core/results.ts';
import { resolveSuiteParams } from '../../core/suite.ts';
import { tabsCaseOf, tabsRow, tabsSuite, type TabsSample } from '../../../suites/tabs.ts';
import type { DrivenRun } from './trial.ts';
import { RestartableBrowser } from '../drivers/restartable.ts';

/** Time from handing every tab its start to the start itself: enough for K evaluate calls to arrive. */
const START_LEAD_MS = 300;

export async function tabsRowOf(row: CaseResult, run: DrivenRun): Promise<CaseResult> {
  const c = tabsCaseOf(row.params);
  if (!c)
    return {
      ...row,
      samples: [],
      warmup: [],
      status: 'error',
      reason: `not the params of a tabs case: ${JSON.stringify(row.params)}`,
    };
  const { k, ops } = c;
  const rounds = Number(resolveSuiteParams(tabsSuite, run.plan.params).rounds);
  const browser = new RestartableBrowser(run.how);
  browser.stopOn(run.signal);
  const samples: TabsSample[] = [];
  const step = <T>(p: Promise<T>, what: string) => withTimeout(p, run.plan.timeoutMs, what);
  try {
    const pages = [await browser.start(run.pageUrl)];
    while (pages.length < k) pages.push(await browser.newPage(run.pageUrl));
    if (c.visibility === 'hidden') {
      await pages[0]!.bringToFront();
      const shown = await Promise.all(
        pages.slice(1).map((p) => p.evaluate(() => document.visibilityState)),
      );
      if (shown.some((v) => v !== 'hidden')) {
        return {
          ...row,
          samples: [],
          warmup: [],
          status: 'unsupported',
          reason: `the other tabs stay visible here (document.visibilityState "${shown.join('", "')}" after the first was brought to the front): a headless ${run.how.engine} shows every tab`,
        };
      }
    }
    for (let s = 0; s < rounds && !run.signal.aborted; s++) {
      run.onProgress(`tabs ${row.case} ${row.adapter}: sample ${s + 1} of ${rounds}`);
      const db = `storebench-tabs-${s}`;
      const startAt = Date.now() + START_LEAD_MS;
      const reports = await step(
        Promise.all(
          pages.map((p, tab) =>
            p.evaluate((q) => window.__storebenchTrials.tabs.work(q), {
              adapter: row.adapter,
              db,
              tab,
              ops,
              fixture: run.plan.fixture,
              seed: run.plan.seed,
              startAt,
            }),
          ),
        ),
        `${k} tabs' work`,
      );
      const check = await step(
        pages[0]!.evaluate((q) => window.__storebenchTrials.tabs.check(q), {
          adapter: row.adapter,
          db,
          k,
          ops,
        }),
        'checking the writes',
      );
      const sum = (f: (r: (typeof reports)[number]) => number) =>
        reports.reduce((a, r) => a + f(r), 0);
      samples.push({
        tabs: reports,
        blocked: sum((r) => r.blocked),
        versionchange: sum((r) => r.versionchange),
        ...check,
      });
    }
  } catch (e) {
    if (run.signal.aborted) return stoppedRow(row);
    return {
      ...row,
      samples: [],
      warmup: [],
      status: 'error',
      reason: `tabs sample ${samples.length + 1}: ${errorMessage(e)}`,
    };
  } finally {
    await browser.dispose();
  }
  return run.signal.aborted ? stoppedRow(row) : tabsRow(row, samples);
}
