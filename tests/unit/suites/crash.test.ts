import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../src/adapters/memory.ts';
import type { StoreAdapter, StoreHandle } from '../../../src/core/store/adapter.ts';
import { awaitsDriver, DRIVER_NEEDED } from '../../../src/core/run/driver-cases.ts';
import type { Plan } from '../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../src/core/plan/defaults.ts';
import type { CaseIdentity } from '../../../src/core/base/identity.ts';
import { validateResults } from '../../../src/core/results/recompute.ts';
import { runPlan } from '../../../src/core/run/runner.ts';
import { runDrivenRows } from '../../../src/cli/trials/rows.ts';
import {
  crashRow,
  crashSuite,
  describeLost,
  survivors,
  writeAcknowledged,
} from '../../../suites/crash.ts';
import { makeDocs, fixtureShape } from '../../../fixtures/index.ts';
import { runnerResultsDoc } from '../helpers/runner-doc.ts';

const plan = (over: Partial<Plan> = {}): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['crash'],
  adapters: ['memory', 'disk'],
  sizes: [50],
  iterations: 6,
  warmup: 1,
  ...over,
});

/** The memory store as if it kept its data on disk: the runner cannot tell, which is the point. */
const disk: StoreAdapter = { ...memoryAdapter, id: 'disk', backend: 'indexeddb' };

const identity: CaseIdentity = {
  suite: 'crash',
  case: 'serial-default',
  title: 't',
  adapter: 'idb',
  size: 100,
  params: { durability: 'default', chunkSize: 1 },
  operations: 1,
};

describe('crash suite - in the page', () => {
  it('leaves every row of a store that persists to the driver, and says why a memory store has none', async () => {
    const out = await runPlan({
      plan: plan(),
      suites: [crashSuite],
      adapters: [memoryAdapter, disk],
      runId: 'crash',
      timerStepMs: 0.005,
    });
    const byAdapter = (id: string) => out.cases.filter((c) => c.adapter === id);
    // Serial and bulk at 'default' need nothing the memory store lacks; relaxed and strict need durability.
    expect(
      byAdapter('disk')
        .filter(awaitsDriver)
        .map((c) => c.case),
    ).toEqual(['serial-default', 'bulk-default']);
    for (const row of byAdapter('disk').filter(awaitsDriver))
      expect(row.reason).toMatch(
        new RegExp(
          `^${DRIVER_NEEDED}: kill the browser and restart it on the same profile; run it with npm run sweep in Chromium or Firefox$`,
        ),
      );
    expect(byAdapter('memory').filter(awaitsDriver)).toEqual([]);
    expect(byAdapter('memory').find((c) => c.case === 'serial-default')).toMatchObject({
      status: 'unsupported',
      reason: expect.stringContaining('keeps nothing across a browser restart'),
    });
    expect(out.cases.every((c) => c.status === 'unsupported' && c.samples.length === 0)).toBe(true);
    expect(out.leftover).toEqual([]);
  });

  it('a --worker or throttled plan keeps the rows and says why: the trials run in the main thread, unthrottled', async () => {
    const out = await runPlan({
      plan: plan({ adapters: ['disk'] }),
      suites: [crashSuite],
      adapters: [disk],
      runId: 'crash',
      timerStepMs: 0.005,
    });
    const how = { engine: 'chromium' as const, args: [] };
    for (const [over, why] of [
      [
        { worker: true },
        /\(not run: the driven suites run in the page, and this plan runs in a Worker \(--worker\)\)$/,
      ],
      [{ cpuThrottle: 4 }, /which the CPU throttling does not reach\)$/],
    ] as const) {
      const rows = await runDrivenRows(out.cases, {
        how,
        pageUrl: 'http://127.0.0.1:1/',
        plan: plan(over),
        signal: new AbortController().signal,
        onProgress: () => {},
      });
      for (const row of rows.filter(awaitsDriver)) expect(row.reason).toMatch(why);
    }
  });

  it('without a Playwright browser the sweep keeps the rows and adds why', async () => {
    const out = await runPlan({
      plan: plan({ adapters: ['disk'] }),
      suites: [crashSuite],
      adapters: [disk],
      runId: 'crash',
      timerStepMs: 0.005,
    });
    const rows = await runDrivenRows(out.cases, {
      how: undefined,
      pageUrl: 'http://127.0.0.1:1/',
      plan: plan(),
      signal: new AbortController().signal,
      onProgress: () => {},
    });
    const left = rows.filter(awaitsDriver);
    expect(left).toHaveLength(2);
    for (const row of left)
      expect(row.reason).toMatch(/\(not run: this browser is not driven with Playwright\)$/);
  });
});

describe('crash suite - the page writes and counts', () => {
  it('acknowledges each chunk after the store took it, in order, with the time so far', async () => {
    const handle = await memoryAdapter.open('crash-write');
    const docs = makeDocs(fixtureShape('person'), 1, 25);
    const acks: [string[], number][] = [];
    let clock = 0;
    await writeAcknowledged(
      handle,
      docs,
      { durability: 'default', chunkSize: 10 },
      (ids, ms) => acks.push([ids, ms]),
      () => (clock += 1),
    );
    expect(acks.map(([ids]) => ids.length)).toEqual([10, 10, 5]);
    expect(acks.flatMap(([ids]) => ids)).toEqual(docs.map((d) => d._id));
    expect(acks.map(([, ms]) => ms)).toEqual([1, 2, 3]);
    // Each acknowledgement came after its chunk was in the store.
    expect(await handle.count()).toBe(25);
    expect(await survivors(handle, [docs[0]!._id, 'never-written', docs[24]!._id])).toEqual({
      present: [docs[0]!._id, docs[24]!._id],
      count: 25,
    });
  });

  it('refuses to write in bulk to a handle without bulkPut, before the first write', async () => {
    const noBulk: StoreHandle = { ...(await memoryAdapter.open('crash-no-bulk')) };
    delete noBulk.bulkPut;
    const acks: string[][] = [];
    const docs = makeDocs(fixtureShape('person'), 1, 5);
    await expect(
      writeAcknowledged(
        noBulk,
        docs,
        { durability: 'default', chunkSize: 10 },
        (ids) => acks.push(ids),
        () => 0,
      ),
    ).rejects.toThrow(/has no bulkPut\(\)/);
    expect(acks).toEqual([]);
    expect(await noBulk.count()).toBe(0);
  });
});

describe('crash suite - the row', () => {
  it('counts lost writes per kill, and the writes that landed unacknowledged', () => {
    const row = crashRow(identity, [
      { acknowledged: ['a', 'b', 'c', 'd'], elapsedMs: 8, present: ['a', 'b', 'c', 'd'], count: 6 },
      { acknowledged: ['a', 'b'], elapsedMs: 2, present: ['a'], count: 1 },
    ]);
    expect(row).toMatchObject({
      status: 'ok',
      samples: [2, 1],
      metrics: { acknowledged: [4, 2], lost: [0, 1], unacknowledged: [2, 0] },
    });
    expect(describeLost(row)).toBe(
      'lost 1 of 6 acknowledged writes; 1 of 2 kills lost some (95% CI 9–91% of kills)',
    );
    // It is a valid row of a results file.
    expect(() => validateResults(runnerResultsDoc('r', plan(), [row], []))).not.toThrow();
  });

  it('is an error when no kill came after an acknowledged write', () => {
    expect(
      crashRow(identity, [{ acknowledged: [], elapsedMs: 0, present: [], count: 0 }]),
    ).toMatchObject({ status: 'error', reason: 'no write was acknowledged before any kill' });
  });

  it('has no lost-writes text for rows of other suites', () => {
    expect(
      describeLost({
        ...identity,
        suite: 'insert',
        samples: [1],
        warmup: [],
        status: 'error',
        reason: 'x',
      }),
    ).toBeNull();
  });
});
