/**
 * The cold suite's trials (suites/cold.ts). For each store, read and size: start the browser on a
 * profile of its own; then per sample fill a fresh database in the page, read it in that tab
 * (warm), reload the page and read it, close the browser and start it again on the profile and
 * read it (restart), and delete the database. So the three states of one sample read the same
 * data. The profile is removed after the group, whatever happened.
 */
import { stoppedRow } from '../../core/run/driver-cases.ts';
import { errorMessage, withTimeout } from '../../core/base/errors.ts';
import type { CaseResult } from '../../core/results/results.ts';
import { resolveSuiteParams } from '../../core/store/suite.ts';
import {
  coldOpOf,
  coldRow,
  coldSuite,
  type ColdSample,
  type ColdState,
} from '../../../suites/cold.ts';
import type { DrivenRun } from './trial.ts';
import { RestartableBrowser } from '../drivers/restartable.ts';

/** Measured rows for the cold rows given, by row; rows of a group the sweep stopped before are left out. */
export async function coldRows(
  rows: readonly CaseResult[],
  run: DrivenRun,
): Promise<Map<CaseResult, CaseResult>> {
  const groups = new Map<string, CaseResult[]>();
  for (const row of rows) {
    const key = `${row.adapter}\u0000${coldOpOf(row.params).op}\u0000${row.size}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const out = new Map<CaseResult, CaseResult>();
  for (const group of groups.values()) {
    if (run.signal.aborted) break;
    for (const [row, measured] of await coldGroup(group, run)) out.set(row, measured);
  }
  return out;
}

async function coldGroup(
  rows: readonly CaseResult[],
  run: DrivenRun,
): Promise<Map<CaseResult, CaseResult>> {
  const first = rows[0]!;
  const states = new Set(rows.map((r) => coldOpOf(r.params).state));
  const n = Number(resolveSuiteParams(coldSuite, run.plan.params).restarts);
  const samples: Record<ColdState, ColdSample[]> = { warm: [], reload: [], restart: [] };
  const browser = new RestartableBrowser(run.how);
  browser.stopOn(run.signal);
  const request = (db: string) => ({
    adapter: first.adapter,
    db,
    params: first.params as Record<string, unknown>,
    fixture: run.plan.fixture,
    seed: run.plan.seed,
    size: first.size,
  });
  const step = <T>(p: Promise<T>, what: string) => withTimeout(p, run.plan.timeoutMs, what);
  let failure: string | null = null;
  try {
    let page = await browser.start(run.pageUrl);
    for (let s = 0; s < n && !run.signal.aborted; s++) {
      const op = coldOpOf(first.params).op;
      run.onProgress(`cold ${op} ${first.adapter} ${first.size}: sample ${s + 1} of ${n}`);
      const r = request(`storebench-cold-${s}`);
      const read = () =>
        step(
          page.evaluate((q) => window.__storebenchTrials.cold.read(q), r),
          'the read',
        );
      await step(
        page.evaluate((q) => window.__storebenchTrials.cold.fill(q), r),
        'filling the store',
      );
      samples.warm.push(await read());
      if (states.has('reload')) {
        await page.reload({ waitUntil: 'load' });
        samples.reload.push(await read());
      }
      if (states.has('restart')) {
        await browser.close();
        page = await browser.start(run.pageUrl);
        samples.restart.push(await read());
      }
      await step(
        page.evaluate((q) => window.__storebenchTrials.destroy(q), r),
        'deleting the store',
      );
    }
  } catch (e) {
    failure = errorMessage(e);
  } finally {
    await browser.dispose();
  }
  const out = new Map<CaseResult, CaseResult>();
  for (const row of rows) {
    if (run.signal.aborted) {
      out.set(row, stoppedRow(row));
      continue;
    }
    const taken = samples[coldOpOf(row.params).state];
    if (failure !== null)
      out.set(row, {
        ...row,
        samples: taken.map((t) => t.openMs + t.readMs),
        warmup: [],
        status: 'error',
        reason: `cold sample ${taken.length + 1}: ${failure}`,
      });
    else if (taken.length > 0) out.set(row, coldRow(row, taken));
  }
  return out;
}
