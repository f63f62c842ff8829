import { describe, expect, it } from 'vitest';
import { memoryAdapter, memoryDatabaseNames } from '../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import { validateResults } from '../../../../src/core/results/recompute.ts';
import { runnerResultsDoc } from '../../helpers/runner-doc.ts';
import { runPlan, type RunEvent } from '../../../../src/core/run/runner.ts';
import { withTimeout } from '../../../../src/core/base/errors.ts';
import { defineCase, type BenchCase, type Suite } from '../../../../src/core/store/suite.ts';
import { insertSuite as fullInsertSuite } from '../../../../suites/insert.ts';

const plan = (over: Partial<Plan> = {}): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['t'],
  adapters: ['memory'],
  sizes: [20],
  iterations: 4,
  warmup: 2,
  ...over,
});

/** The insert suite's two basic cases (serial, bulk): a real suite, small enough to count rows by hand. */
const insertSuite: Suite = {
  ...fullInsertSuite,
  cases: (p) => fullInsertSuite.cases(p).filter((c) => c.id === 'serial' || c.id === 'bulk'),
};

const suiteOf = (...cases: BenchCase[]): Suite => ({
  id: 't',
  title: 'test',
  description: 'test suite',
  cases: () => cases,
});

/** The memory store under another id, so interleaving and unsupported rows can be observed. */
const memoryAs = (id: string, over: Partial<StoreAdapter> = {}): StoreAdapter => ({
  ...memoryAdapter,
  id,
  label: id,
  ...over,
});

async function run(suites: Suite[], adapters: StoreAdapter[], p: Plan, signal?: AbortSignal) {
  const events: RunEvent[] = [];
  const out = await runPlan({
    plan: p,
    suites,
    adapters,
    runId: 'test',
    signal,
    onEvent: (e) => events.push(e),
    cleanupTimeoutMs: 500,
  });
  return { ...out, events };
}

const only = (cases: CaseResult[], adapter: string) => {
  const row = cases.find((c) => c.adapter === adapter);
  if (!row) throw new Error(`no row for ${adapter}`);
  return row;
};

describe('runner - samples', () => {
  it('takes warm-up samples, then N timed samples, each on a fresh database', async () => {
    const seen: string[] = [];
    const c = defineCase<void>({
      id: 'c',
      title: 'c',
      needs: [],
      operations: (n) => n,
      async setup(ctx) {
        expect(await ctx.handle.count()).toBe(0); // fresh: nothing from earlier samples
        seen.push(ctx.dbName);
      },
      async run(ctx) {
        await ctx.handle.bulkPut!(ctx.fixture.docs(ctx.size));
      },
    });
    const { cases, events } = await run([suiteOf(c)], [memoryAdapter], plan());
    const row = only(cases, 'memory');
    expect(row.status).toBe('ok');
    expect(row.samples).toHaveLength(4);
    expect(row.warmup).toHaveLength(2);
    expect(row.operations).toBe(20);
    expect(new Set(seen).size).toBe(6);
    const samples = events.filter((e) => e.type === 'sample');
    expect(samples.map((e) => (e.type === 'sample' ? e.warmup : null))).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
    ]);
    if (row.status === 'ok') expect(row.stats.n).toBe(4);
  });

  it('times only run: a slow setup and verify do not reach the samples', async () => {
    const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const c = defineCase<void>({
      id: 'c',
      title: 'c',
      needs: [],
      operations: () => 1,
      setup: () => sleep(200),
      run: () => sleep(5),
      verify: () => sleep(200),
      teardown: () => sleep(200),
    });
    const { cases } = await run([suiteOf(c)], [memoryAdapter], plan({ iterations: 3, warmup: 0 }));
    const row = only(cases, 'memory');
    expect(row.samples).toHaveLength(3);
    // A sample that included setup, verify or teardown would be at least 200 ms.
    for (const ms of row.samples) expect(ms).toBeLessThan(200);
  });

  it('interleaves adapters in a seeded order and records it', async () => {
    const adapters = ['a', 'b', 'c'].map((id) => memoryAs(id));
    const first = await run(
      [insertSuite],
      adapters,
      plan({ suites: ['insert'], iterations: 6, warmup: 1 }),
    );
    const second = await run(
      [insertSuite],
      adapters,
      plan({ suites: ['insert'], iterations: 6, warmup: 1 }),
    );
    const rounds = first.order[0]?.rounds ?? [];
    expect(rounds).toHaveLength(7);
    for (const r of rounds) expect(r.slice().sort()).toEqual(['a', 'b', 'c']);
    expect(new Set(rounds.map((r) => r.join())).size).toBeGreaterThan(1); // not one fixed order
    expect(second.order).toEqual(first.order); // same seed, same order
    const third = await run(
      [insertSuite],
      adapters,
      plan({ suites: ['insert'], iterations: 6, warmup: 1, seed: 7 }),
    );
    expect(third.order).not.toEqual(first.order);
  });
});

describe('runner - faults', () => {
  it('cuts off a case that never resolves, and the run goes on', async () => {
    const hang = defineCase<void>({
      id: 'hang',
      title: 'hang',
      needs: [],
      operations: () => 1,
      run: () => new Promise<void>(() => {}),
    });
    const fine = defineCase<void>({
      id: 'fine',
      title: 'fine',
      needs: [],
      operations: () => 1,
      run: async () => {},
    });
    const { cases, leftover } = await run(
      [suiteOf(hang, fine)],
      [memoryAdapter],
      plan({ timeoutMs: 150, warmup: 0 }),
    );
    const hung = cases.find((c) => c.case === 'hang');
    expect(hung?.status).toBe('timeout');
    expect(hung?.reason).toMatch(/made no progress within the 150 ms limit of one step/);
    expect(cases.find((c) => c.case === 'fine')?.status).toBe('ok');
    expect(leftover).toEqual([]);
  });

  it('records a throwing case as error with its message', async () => {
    const boom = defineCase<void>({
      id: 'boom',
      title: 'boom',
      needs: [],
      operations: () => 1,
      run: async () => {
        throw new Error('disk on fire');
      },
    });
    const { cases } = await run([suiteOf(boom)], [memoryAdapter], plan({ warmup: 0 }));
    expect(only(cases, 'memory')).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/disk on fire/),
    });
  });

  it('a verify failure is an error, so a broken store cannot look fast', async () => {
    const lossy = memoryAs('lossy', {
      async open(name) {
        const h = await memoryAdapter.open(name);
        return { ...h, bulkPut: async () => {} }; // drops every write: fast and wrong
      },
    });
    const { cases } = await run(
      [insertSuite],
      [lossy, memoryAdapter],
      plan({ suites: ['insert'], warmup: 0 }),
    );
    const bulkRows = cases.filter((c) => c.case === 'bulk');
    expect(bulkRows.find((c) => c.adapter === 'lossy')).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/verify failed: documents after insert: got 0, expected 20/),
    });
    expect(bulkRows.find((c) => c.adapter === 'memory')?.status).toBe('ok');
  });

  it('marks unsupported stores and missing capabilities with the reason, without running them', async () => {
    const absent = memoryAs('absent', { supported: () => 'this browser has no such store' });
    const nobulk = memoryAs('nobulk', { capabilities: ['count'] });
    const { cases } = await run(
      [insertSuite],
      [absent, nobulk, memoryAdapter],
      plan({ suites: ['insert'], warmup: 0, iterations: 2 }),
    );
    expect(
      cases.filter((c) => c.adapter === 'absent').map((c) => [c.case, c.status, c.reason]),
    ).toEqual([
      ['serial', 'unsupported', 'this browser has no such store'],
      ['bulk', 'unsupported', 'this browser has no such store'],
    ]);
    expect(cases.find((c) => c.adapter === 'nobulk' && c.case === 'bulk')).toMatchObject({
      status: 'unsupported',
      reason: expect.stringMatching(/needs bulkWrite/),
    });
    expect(cases.find((c) => c.adapter === 'nobulk' && c.case === 'serial')?.status).toBe('ok');
  });
});

describe('runner - cancel and cleanup', () => {
  it('honours Cancel: stops, keeps finished rows and the samples of the row in flight, deletes its databases', async () => {
    const controller = new AbortController();
    let runs = 0;
    const slow = defineCase<void>({
      id: 'slow',
      title: 'slow',
      needs: [],
      operations: () => 1,
      async run(ctx) {
        await ctx.handle.put({ _id: 'x' });
        if (++runs === 3) controller.abort();
        await new Promise((r) => setTimeout(r, 20));
      },
    });
    const quick = defineCase<void>({
      id: 'quick',
      title: 'quick',
      needs: [],
      operations: () => 1,
      run: async () => {},
    });
    const { cancelled, cases, events, leftover } = await run(
      [suiteOf(quick, slow)],
      [memoryAdapter],
      plan({ iterations: 50, warmup: 0 }),
      controller.signal,
    );
    expect(cancelled).toBe(true);
    expect(runs).toBe(3);
    expect(cases.map((c) => [c.case, c.status, c.status === 'ok' && c.stopped])).toEqual([
      ['quick', 'ok', 'iterations'],
      ['slow', 'ok', 'cancelled'],
    ]);
    expect(cases[1]?.samples).toHaveLength(2); // the third was in flight
    expect(events.at(-1)).toEqual({ type: 'run-end', cancelled: true });
    expect(leftover).toEqual([]);
    expect(memoryDatabaseNames().filter((n) => n.startsWith('storebench-test-'))).toEqual([]);
  });

  it('deletes the databases it created and only those', async () => {
    const other = await memoryAdapter.open('someone-elses-db');
    await other.put({ _id: 'keep' });
    const { leftover } = await run([insertSuite], [memoryAdapter], plan({ suites: ['insert'] }));
    expect(leftover).toEqual([]);
    expect(memoryDatabaseNames()).toEqual(['someone-elses-db']);
    expect(await (await memoryAdapter.open('someone-elses-db')).get('keep')).toEqual({
      _id: 'keep',
    });
    await memoryAdapter.destroy('someone-elses-db');
  });

  it('emits progress for every sample with a correct total', async () => {
    const { events } = await run(
      [insertSuite],
      [memoryAdapter, memoryAs('m2')],
      plan({ suites: ['insert'], sizes: [5, 10] }),
    );
    const start = events[0];
    expect(start).toEqual({ type: 'run-start', rows: 8, samples: 8 * 6 });
    const samples = events.filter((e) => e.type === 'sample');
    expect(samples).toHaveLength(48);
    const last = samples.at(-1);
    expect(last?.type === 'sample' && last.samplesDone).toBe(48);
  });
});

describe('runner - results', () => {
  it('produces rows that validate against schema v1', async () => {
    const p = plan({ suites: ['insert'] });
    const { cases, order } = await run([insertSuite], [memoryAdapter], p);
    expect(validateResults(runnerResultsDoc('test', p, cases, order)).cases).toHaveLength(2);
  });
});

describe('runner - time limit bookkeeping', () => {
  it('says the time was used up, never a negative time left', async () => {
    const never = new Promise<never>(() => {});
    await expect(withTimeout(never, -128, 'open')).rejects.toThrow(/^no time was left for open$/);
    await expect(withTimeout(never, 20, 'open')).rejects.toThrow(
      /^open did not finish within 20 ms$/,
    );
  });
});

describe('runner - plan names', () => {
  it('refuses a parameter no chosen suite takes, and a value a parameter does not allow, before running', async () => {
    const { planGroups } = await import('../../../../src/core/run/runner.ts');
    const { SUITES } = await import('../../../../suites/index.ts');
    const insert = SUITES.filter((s) => s.id === 'insert');
    const plan = { ...DEFAULT_PLAN, suites: ['insert'], adapters: ['memory'] };
    expect(() => planGroups({ ...plan, params: { chunkSize: 5 } }, insert)).toThrow(
      'params: unknown "chunkSize" for suites insert; allowed: insert: chunkSizes, orderChunk',
    );
    expect(() => planGroups({ ...plan, params: { chunkSizes: [0] } }, insert)).toThrow(
      /^params: suite insert: parameter chunkSizes: expected whole numbers >= 1/,
    );
    expect(
      planGroups({ ...plan, params: { chunkSizes: [5] } }, insert).map((g) => g.c.id),
    ).toContain('chunked-5');
  });
});
