/**
 * measure - what the page records besides the time, in a real browser: main-thread blocking
 * in the measurement pass after each row's samples, the footprint of the insert cases, outliers and why sampling stopped,
 * adaptive sampling, and runs in a Worker.
 */
import { expect, test, type Page } from '@playwright/test';
import type { CaseResult, ResultsFile } from '../../src/core/results/results.ts';
import { settled } from './page-state.ts';

async function run(page: Page, query: string): Promise<ResultsFile> {
  await page.goto(`/?${query}&autorun=1`);
  const s = await settled(page, 110_000);
  expect(s.status, s.error).toBe('done');
  return s.results as ResultsFile;
}

function row(r: ResultsFile, adapter: string, caseId = 'bulk'): CaseResult {
  const found = r.cases.find((c) => c.adapter === adapter && c.case === caseId);
  if (!found) throw new Error(`no ${caseId} row for ${adapter}`);
  return found;
}

test.describe('measure - main-thread blocking', () => {
  test('a store that holds the main thread shows a long frame gap; in a Worker the page stays free', async ({
    page,
    browserName,
  }) => {
    test.setTimeout(240_000);
    // The memory store clones every document synchronously in one bulk write: 50,000 of them
    // hold the thread for well over 100 ms, however fast the average document is.
    const plan = 'suites=insert&cases=bulk&adapters=memory&sizes=50000&iterations=3&warmup=1';
    const main = await run(page, plan);
    const onMain = row(main, 'memory');
    expect(onMain.status).toBe('ok');
    expect(main.environment.context).toBe('main');
    if (onMain.status !== 'ok') throw new Error(onMain.reason);
    // Measured in the untimed pass after the samples; the timed samples ran without the probe.
    expect(onMain.metrics).toBeUndefined();
    expect(onMain.blocking?.maxFrameGapMs).toBeGreaterThan(100);
    if (browserName === 'chromium') {
      expect(onMain.blocking?.longTasks).toBeGreaterThanOrEqual(1);
      expect(onMain.blocking?.longTaskMs).toBeGreaterThan(50);
      expect(main.environment.metricNotes?.longTasks).toMatch(/longtask/);
    } else {
      expect(onMain.blocking).not.toHaveProperty('longTasks');
      expect(main.environment.metricNotes?.longTasks).toMatch(/^not recorded/);
    }

    const worker = await run(page, `${plan}&worker=1`);
    const inWorker = row(worker, 'memory');
    expect(worker.environment.context).toBe('worker');
    expect(worker.run.plan.worker).toBe(true);
    if (inWorker.status !== 'ok') throw new Error(inWorker.reason);
    // The same work off the main thread: the page kept painting. (Its own rendering can still
    // take a frame or two on a busy machine.)
    expect(inWorker.blocking?.maxFrameGapMs).toBeLessThan(onMain.blocking?.maxFrameGapMs ?? NaN);
    expect(worker.environment.metricNotes?.maxFrameGapMs).toMatch(/while the plan ran in a Worker/);
  });
});

test.describe('measure - footprint, outliers, stop reasons', () => {
  test('insert rows record the bytes stored (and the heap where it can be measured) from an untimed pass', async ({
    page,
    browserName,
  }) => {
    const r = await run(
      page,
      'suites=insert&cases=bulk&adapters=idb,memory&sizes=1000&iterations=3&warmup=0',
    );
    const idb = row(r, 'idb');
    if (idb.status !== 'ok') throw new Error(idb.reason);
    expect(idb.samples).toHaveLength(3);
    expect(idb.stopped).toBe('iterations');
    expect(idb.outliers?.k).toBe(3);
    // A thousand documents take tens of KB at least, whatever padding the estimate adds.
    expect(idb.footprint?.storageBytes).toBeGreaterThan(10_000);
    expect(r.environment.metricNotes?.storageBytes).toMatch(/Coarse/);
    if (browserName === 'chromium') {
      expect(idb.footprint?.heapBytes).toBeGreaterThan(100_000);
      expect(r.environment.metricNotes?.heapBytes).toMatch(/measureUserAgentSpecificMemory/);
    } else {
      expect(idb.footprint?.heapBytes).toBeUndefined();
      expect(r.environment.metricNotes?.heapBytes).toMatch(/^not recorded/);
    }
    const memory = row(r, 'memory');
    expect(memory.status === 'ok' && memory.footprint?.storageBytes).toBe(0);
  });

  test('adaptive sampling goes over the plan in passes and stops each row for a recorded reason', async ({
    page,
  }) => {
    const r = await run(
      page,
      'suites=insert&cases=bulk&adapters=idb,memory&sizes=200&warmup=1&auto=ci:50%25,min-n:6,max-n:1000,max-ms:20000',
    );
    expect(r.run.plan.auto).toEqual({
      targetRelCi: 0.5,
      minN: 6,
      maxN: 1000,
      maxMs: 20000,
      passes: 12,
      looks: 4,
    });
    const rounds = r.run.order[0]?.rounds ?? [];
    for (const adapter of ['idb', 'memory']) {
      const c = row(r, adapter);
      if (c.status !== 'ok') throw new Error(c.reason);
      expect(['ci-target', 'iterations', 'time-cap', 'budget']).toContain(c.stopped);
      // Each pass took samples, and a warm-up: the first at least its minimum of 6, each later
      // one at least 2 more (a row at its target samples again, judged on all its samples).
      const [first, ...later] = c.samplesPerPass ?? [];
      expect(c.samplesPerPass).toHaveLength(12);
      expect(first).toBeGreaterThanOrEqual(6);
      for (const n of later) expect(n).toBeGreaterThanOrEqual(2);
      expect(c.warmup).toHaveLength(12);
      // Recorded as run: every warm-up and timed sample of the row, in rounds of one or both rows.
      expect(rounds.flat().filter((id) => id === adapter)).toHaveLength(
        c.warmup.length + c.samples.length,
      );
    }
    expect(rounds.every((round) => round.length >= 1 && round.length <= 2)).toBe(true);
  });
});

test.describe('measure - Worker', () => {
  test('stores that need the page say so in a Worker; IndexedDB stores run there', async ({
    page,
  }) => {
    await page.goto('/');
    const listed = await page
      .locator('input[name=adapter]')
      .evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
    // Every store built on localStorage or WebSQL the registry has; none of them exists in a Worker.
    const pageOnly = [
      'localforage-localstorage',
      'localstorage',
      'websql',
      'localforage-websql',
    ].filter((id) => listed.includes(id));
    expect(pageOnly).toContain('localforage-localstorage');
    const plan = `suites=insert&cases=serial&adapters=${['idb', 'memory', ...pageOnly].join(',')}&sizes=50&iterations=2&warmup=0`;
    const worker = await run(page, `${plan}&worker=1`);
    expect(worker.environment.context).toBe('worker');
    expect(row(worker, 'idb', 'serial').status).toBe('ok');
    expect(row(worker, 'memory', 'serial').status).toBe('ok');
    for (const id of pageOnly)
      expect(row(worker, id, 'serial'), id).toMatchObject({
        status: 'unsupported',
        reason: expect.stringMatching(/localStorage|openDatabase|WebSQL/),
      });
    const main = await run(page, plan);
    expect(main.environment.context).toBe('main');
    expect(row(main, 'localforage-localstorage', 'serial').status).toBe('ok');
  });
});
