import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../src/adapters/memory.ts';
import type { StoreHandle } from '../../../src/core/store/adapter.ts';
import type { CaseIdentity } from '../../../src/core/base/identity.ts';
import { validateResults } from '../../../src/core/results/recompute.ts';
import { DEFAULT_PLAN } from '../../../src/core/plan/defaults.ts';
import { resolveSuiteParams } from '../../../src/core/store/suite.ts';
import { fixtureShape, makeDocs } from '../../../fixtures/index.ts';
import {
  checkTabs,
  describeTabs,
  SETTLE_MS,
  tabDocId,
  tabsRow,
  tabsSuite,
  tabWork,
  type TabsSample,
} from '../../../suites/tabs.ts';
import { runnerResultsDoc } from '../helpers/runner-doc.ts';

const docs = makeDocs(fixtureShape('person'), 5, 10);
const identity: CaseIdentity = {
  suite: 'tabs',
  case: 'visible-2',
  title: 't',
  adapter: 'idb',
  size: 100,
  params: { k: 2, visibility: 'visible', ops: 4 },
  operations: 8,
};

/** A clock that moves 1 ms per reading, and a wait that moves it on. */
function fakeClock() {
  let t = 0;
  return { now: () => t++, wait: async (ms: number) => void (t += ms) };
}

describe('tabs suite', () => {
  it('has visible cases for every K and hidden ones where there are other tabs', () => {
    expect(tabsSuite.cases(resolveSuiteParams(tabsSuite, {})).map((c) => c.id)).toEqual([
      'visible-1',
      'visible-2',
      'visible-4',
      'hidden-2',
      'hidden-4',
    ]);
  });

  it('a tab writes and reads in turn, every read finding the write before it', async () => {
    const handle = await memoryAdapter.open('tab-work');
    const clock = fakeClock();
    const report = await tabWork(handle, { tab: 1, ops: 5 }, docs, clock.now);
    expect(report.latencies).toHaveLength(5);
    expect(await handle.count()).toBe(3);
    expect(await handle.get(tabDocId(1, 2))).toMatchObject({ _id: 'tab-1-000002' });
  });

  it('a write another tab cannot see at once is unseen, and lost only when it never appears', async () => {
    const handle = await memoryAdapter.open('tab-check');
    for (const tab of [0, 1])
      for (let j = 0; j < 2; j++) await handle.put({ _id: tabDocId(tab, j) });
    // Tab 1's writes show up 200 ms after the check begins, as localStorage's do between tabs.
    const clock = fakeClock();
    const late: StoreHandle = {
      ...handle,
      get: async (id) =>
        id.startsWith('tab-1-') && clock.now() < 200 ? undefined : handle.get(id),
    };
    const seen = await checkTabs(late, 2, 4, clock.now, clock.wait);
    expect(seen).toMatchObject({ unseen: 2, lost: 0, extra: 0 });
    expect(seen.settleMs).toBeGreaterThanOrEqual(150);
    const never: StoreHandle = {
      ...handle,
      get: async (id) => (id === tabDocId(1, 1) ? undefined : handle.get(id)),
      count: async () => 3,
    };
    const fake = fakeClock();
    expect(await checkTabs(never, 2, 4, fake.now, fake.wait)).toEqual({
      unseen: 1,
      settleMs: SETTLE_MS,
      lost: 1,
      extra: 0,
    });
  });

  const sample = (over: Partial<TabsSample> = {}): TabsSample => ({
    tabs: [
      { startedAt: 1000, endedAt: 1010, latencies: [1, 2, 3, 4] },
      { startedAt: 1002, endedAt: 1020, latencies: [5, 6, 7, 8] },
    ],
    blocked: 0,
    versionchange: 1,
    unseen: 0,
    settleMs: 0,
    lost: 0,
    extra: 0,
    ...over,
  });

  it('a row times the wall from the first start to the last end, with latency percentiles over every tab', () => {
    const row = tabsRow(identity, [sample(), sample()]);
    expect(row).toMatchObject({
      status: 'ok',
      samples: [20, 20],
      operations: 8,
      metrics: { maxMs: [8, 8], versionchange: [1, 1], lost: [0, 0] },
    });
    expect(row.metrics?.p50Ms?.[0]).toBe(4.5);
    expect(describeTabs(row)).toMatch(
      /^median p50 4\.5 ms, p95 7\.6 ms, max 8 ms per operation; 0 blocked, 2 versionchange events$/,
    );
    expect(() =>
      validateResults(
        runnerResultsDoc('r', { ...DEFAULT_PLAN, suites: ['tabs'], adapters: ['idb'] }, [row], []),
      ),
    ).not.toThrow();
  });

  it('a lost or duplicated write makes the row an error that says so', () => {
    expect(tabsRow(identity, [sample(), sample({ lost: 3 })])).toMatchObject({
      status: 'error',
      reason:
        'sample 2: 3 writes lost (still unseen 5 s after the tabs ended) and 0 documents beyond those written, with 2 tabs',
    });
    expect(tabsRow(identity, [sample({ extra: 1 })]).status).toBe('error');
  });
});
