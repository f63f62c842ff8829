/**
 * The quota suite's trials (suites/quota.ts). For each store: start the browser on a profile of
 * its own with a small storage quota (Firefox: the preference
 * dom.quotaManager.temporaryStorage.fixedLimit, set before the start; Chromium: DevTools'
 * Storage.overrideQuotaForOrigin on the page's origin), then per sample let the page fill a fresh
 * database until a write fails. The profile is removed after the row, whatever happened.
 */
import type { Page } from 'playwright-core';
import { stoppedRow } from '../../core/run/driver-cases.ts';
import { errorMessage, TimeoutError, withTimeout } from '../../core/base/errors.ts';
import type { CaseResult } from '../../core/results/results.ts';
import { resolveSuiteParams } from '../../core/store/suite.ts';
import { quotaRecord, quotaRow, quotaSuite, type QuotaSample } from '../../../suites/quota.ts';
import type { DrivenRun } from './trial.ts';
import { RestartableBrowser } from '../drivers/restartable.ts';

export async function quotaRowOf(row: CaseResult, run: DrivenRun): Promise<CaseResult> {
  const quotaBytes = Number(row.params.quotaMb) * 1024 * 1024;
  const fills = Number(resolveSuiteParams(quotaSuite, run.plan.params).fills);
  if (run.how.engine === 'webkit')
    return {
      ...row,
      samples: [],
      warmup: [],
      status: 'unsupported',
      reason: "Playwright's WebKit has no way to set a storage quota",
    };
  const browser = new RestartableBrowser(
    run.how,
    {},
    { 'dom.quotaManager.temporaryStorage.fixedLimit': Math.round(quotaBytes / 1024) },
  );
  browser.stopOn(run.signal);
  const samples: QuotaSample[] = [];
  try {
    // Chromium's quota goes on before the page exists, so nothing of the origin's storage opens
    // under the default quota first; the DevTools session stays open on the blank tab, as the
    // override ends with it.
    const blank = await browser.start('about:blank');
    if (run.how.engine === 'chromium') await overrideQuota(browser, blank, run.pageUrl, quotaBytes);
    const page = await browser.newPage(run.pageUrl);
    for (let s = 0; s < fills && !run.signal.aborted; s++) {
      run.onProgress(`quota ${row.adapter}: fill ${s + 1} of ${fills}`);
      const request = {
        adapter: row.adapter,
        db: `storebench-quota-${s}`,
        fixture: run.plan.fixture,
        seed: run.plan.seed,
        maxDocs: Number(row.params.maxDocs),
        timeoutMs: run.plan.timeoutMs,
        // Firefox asks the user whether to persist; a headless browser shows no one the prompt.
        askPersist: run.how.engine === 'chromium',
      };
      samples.push(
        await withTimeout(
          page.evaluate((q) => window.__storebenchTrials.quota.fill(q), request),
          run.plan.timeoutMs + 30_000,
          'filling the store',
        ),
      );
    }
  } catch (e) {
    if (run.signal.aborted) return stoppedRow(row);
    // The fills before keep their findings: a store that hangs once it was full is a finding too.
    const status = e instanceof TimeoutError ? 'timeout' : 'error';
    return {
      ...row,
      samples: samples.map((s) => s.ms),
      warmup: [],
      ...quotaRecord(samples),
      status,
      reason: `quota fill ${samples.length + 1}: ${errorMessage(e)}`,
    };
  } finally {
    await browser.dispose();
  }
  return run.signal.aborted ? stoppedRow(row) : quotaRow(row, samples);
}

/** Chromium's quota for the page's origin, checked: a fill under the default quota finds nothing. */
async function overrideQuota(
  browser: RestartableBrowser,
  tab: Page,
  pageUrl: string,
  quotaBytes: number,
): Promise<void> {
  const devtools = await browser.devtools(tab);
  const origin = new URL(pageUrl).origin;
  await devtools.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: quotaBytes });
  const { overrideActive, quota } = await devtools.send('Storage.getUsageAndQuota', { origin });
  if (!overrideActive || quota !== quotaBytes)
    throw new Error(
      `Chromium did not take the quota of ${quotaBytes} bytes for ${origin}: it reports ${quota}`,
    );
}
