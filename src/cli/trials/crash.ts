/**
 * The crash suite's trials (suites/crash.ts): start the browser on a profile of its own, let the
 * page write and acknowledge, SIGKILL the browser at a seeded acknowledgement, start it again on
 * the same profile, and ask the page which acknowledged documents survived. One kill is one
 * sample; the profile is removed after the row, whatever happened.
 */
import type { Page } from 'playwright-core';
import { stoppedRow } from '../../core/run/driver-cases.ts';
import { errorMessage, withTimeout } from '../../core/base/errors.ts';
import type { Plan } from '../../core/plan/plan.ts';
import { createRng, deriveSeed } from '../../../fixtures/random.ts';
import type { CaseIdentity } from '../../core/base/identity.ts';
import type { CaseResult } from '../../core/results/results.ts';
import { resolveSuiteParams } from '../../core/store/suite.ts';
import { crashRecord, crashRow, crashSuite, type CrashTrial } from '../../../suites/crash.ts';
import type { DrivenRun } from './trial.ts';
import { RestartableBrowser } from '../drivers/restartable.ts';

/** Acknowledgements of the kill under way, as the page reports them; `reached` fires at the kill point. */
interface Acks {
  ids: string[];
  ms: number;
  killAt: number;
  reached: () => void;
}

export async function crashRowOf(row: CaseIdentity, run: DrivenRun): Promise<CaseResult> {
  const kills = Number(resolveSuiteParams(crashSuite, run.plan.params).kills);
  const acks: Acks = { ids: [], ms: 0, killAt: Infinity, reached: () => {} };
  const browser = new RestartableBrowser(run.how, {
    __storebenchAck: (...args: unknown[]) => {
      const [ids, ms] = args as [string[], number];
      acks.ids.push(...ids);
      acks.ms = ms;
      if (acks.ids.length >= acks.killAt) acks.reached();
    },
  });
  browser.stopOn(run.signal);
  const trials: CrashTrial[] = [];
  try {
    let page = await browser.start(run.pageUrl);
    for (let k = 0; k < kills && !run.signal.aborted; k++) {
      run.onProgress(`crash ${row.case} ${row.adapter} ${row.size}: kill ${k + 1} of ${kills}`);
      const db = `storebench-crash-${k}`;
      acks.ids = [];
      acks.ms = 0;
      acks.killAt =
        1 +
        createRng(
          deriveSeed(run.plan.seed, `crash/${row.adapter}/${row.case}/${row.size}/${k}`),
        ).int(row.size);
      await writeUntilKillPoint(page, row, db, run.plan, acks);
      await browser.kill();
      // Every acknowledgement that arrived before the browser died counts: the store gave it.
      const acknowledged = [...acks.ids];
      const elapsedMs = acks.ms;
      page = await browser.start(run.pageUrl);
      const seen = await withTimeout(
        page.evaluate((r) => window.__storebenchTrials.crash.survivors(r), {
          adapter: row.adapter,
          db,
          params: row.params,
          ids: acknowledged,
        }),
        run.plan.timeoutMs,
        'counting the documents after the restart',
      );
      trials.push({ acknowledged, elapsedMs, ...seen });
    }
  } catch (e) {
    if (run.signal.aborted) return stoppedRow(row);
    // The kills before keep their counts.
    return {
      ...row,
      ...crashRecord(trials),
      warmup: [],
      status: 'error',
      reason: `crash trial ${trials.length + 1}: ${errorMessage(e)}`,
    };
  } finally {
    await browser.dispose();
  }
  return run.signal.aborted ? stoppedRow(row) : crashRow(row, trials);
}

/**
 * Start the page writing and return at the kill point: the seeded acknowledgement, or the page's
 * last write (its last acknowledgement may still be on its way: 50 ms for it). The write is left
 * running for the kill to end. Throws when the page fails or passes the plan's time limit first.
 */
async function writeUntilKillPoint(
  page: Page,
  row: CaseIdentity,
  db: string,
  plan: Plan,
  acks: Acks,
): Promise<void> {
  const reached = new Promise<void>((resolve) => (acks.reached = resolve));
  const writing = page
    .evaluate((r) => window.__storebenchTrials.crash.write(r), {
      adapter: row.adapter,
      db,
      params: row.params,
      fixture: plan.fixture,
      seed: plan.seed,
      size: row.size,
    })
    .then(
      () => new Promise<void>((r) => setTimeout(r, 50)),
      (e: unknown) => {
        if (acks.ids.length < acks.killAt)
          throw new Error(`the page's writes failed: ${errorMessage(e)}`);
      },
    );
  await withTimeout(
    Promise.race([reached, writing]),
    plan.timeoutMs,
    `reaching the kill point (${acks.killAt} acknowledged writes)`,
  );
  writing.catch(() => {});
}
