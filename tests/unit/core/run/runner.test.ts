import { describe, expect, it } from 'vitest';
import { memoryAdapter, memoryDatabaseNames } from '../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';
import { PlanError, type Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import { validateResults } from '../../../../src/core/results/recompute.ts';
import { runnerResultsDoc } from '../../helpers/runner-doc.ts';
import {
  OUTLIER_K,
  runPlan,
  type FootprintProbe,
  type PassProbe,
  type RunEvent,
} from '../../../../src/core/run/runner.ts';
import { withTimeout } from '../../../../src/core/base/errors.ts';
import { defineCase, type BenchCase, type Suite } from '../../../../src/core/store/suite.ts';
import { insertSuite as fullInsertSuite } from '../../../../suites/insert.ts';
import {
  plan as scriptedPlan,
  row as rowOf,
  run as runScripted,
  scripted,
  sleep,
} from './scripted-run.ts';

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

describe('runPlan - samples', () => {
  it('takes warm-ups, then N timed samples, each on a fresh database', async () => {
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

  it('times only run, not setup or verify', async () => {
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

describe('runPlan - faults', () => {
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

  it('records a verify failure as error', async () => {
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

  it('marks unsupported stores and missing capabilities, unrun', async () => {
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

describe('runPlan - Cancel and cleanup', () => {
  it('honours Cancel, keeping what finished and the row in flight', async () => {
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

describe('runPlan - results', () => {
  it('produces rows that validate against schema v1', async () => {
    const p = plan({ suites: ['insert'] });
    const { cases, order } = await run([insertSuite], [memoryAdapter], p);
    expect(validateResults(runnerResultsDoc('test', p, cases, order)).cases).toHaveLength(2);
  });
});

describe('runPlan - time left', () => {
  it('says the time was used up, never a negative time left', async () => {
    const never = new Promise<never>(() => {});
    await expect(withTimeout(never, -128, 'open')).rejects.toThrow(/^no time was left for open$/);
    await expect(withTimeout(never, 20, 'open')).rejects.toThrow(
      /^open did not finish within 20 ms$/,
    );
  });
});

describe('planGroups - parameters', () => {
  it('refuses a parameter no chosen suite takes, before running', async () => {
    const { planGroups } = await import('../../../../src/core/run/runner.ts');
    const { SUITES } = await import('../../../../suites/index.ts');
    const insert = SUITES.filter((s) => s.id === 'insert');
    const plan = { ...DEFAULT_PLAN, suites: ['insert'], adapters: ['memory'] };
    expect(() => planGroups({ ...plan, params: { chunkSize: 5 } }, insert)).toThrow(
      'params: unknown "chunkSize" for suites insert; allowed: insert: chunkSizes, orderChunk',
    );
  });

  it('refuses a value a parameter does not allow, and takes one it does', async () => {
    const { planGroups } = await import('../../../../src/core/run/runner.ts');
    const { SUITES } = await import('../../../../suites/index.ts');
    const insert = SUITES.filter((s) => s.id === 'insert');
    const plan = { ...DEFAULT_PLAN, suites: ['insert'], adapters: ['memory'] };
    expect(() => planGroups({ ...plan, params: { chunkSizes: [0] } }, insert)).toThrow(
      /^params: suite insert: parameter chunkSizes: expected whole numbers >= 1/,
    );
    expect(
      planGroups({ ...plan, params: { chunkSizes: [5] } }, insert).map((g) => g.c.id),
    ).toContain('chunked-5');
  });
});

describe('runPlan - probes', () => {
  it('runs a probe only in the measurement pass', async () => {
    const log: string[] = [];
    const probe: PassProbe = {
      async start() {
        log.push('start');
        await sleep(120); // a slow probe must not reach a sample
      },
      async stop() {
        log.push('stop');
        await sleep(120);
        return { maxFrameGapMs: 16.7 };
      },
    };
    const c = defineCase<void>({
      id: 'c',
      title: 'c',
      needs: [],
      operations: () => 1,
      run: async () => void log.push('run'),
      verify: async () => void log.push('verify'),
    });
    const { cases, events } = await runScripted(
      [suiteOf(c)],
      [memoryAdapter],
      scriptedPlan({ iterations: 2, warmup: 1 }),
      { probe },
    );
    // Warm-up and two timed samples without the probe, then the pass with it.
    expect(log).toEqual([
      'run',
      'verify',
      'run',
      'verify',
      'run',
      'verify',
      'start',
      'run',
      'stop',
      'verify',
    ]);
    const r = rowOf(cases, 'memory');
    expect(r.samples).toHaveLength(2); // the pass is not a sample
    for (const ms of r.samples) expect(ms).toBeLessThan(100);
    expect(r).toHaveProperty('blocking', { maxFrameGapMs: 16.7 });
    expect(r.metrics).toBeUndefined();
    expect(events.filter((e) => e.type === 'sample')).toHaveLength(3);
  });

  it("stops a hung pass's probe; its late finish stops nothing", async () => {
    let running = 0;
    let maxRunning = 0;
    const probe: PassProbe = {
      start() {
        running++;
        maxRunning = Math.max(maxRunning, running);
      },
      stop() {
        running--;
        return { longTasks: 0 };
      },
    };
    // The pass of `h` outlives the case's time limit and finishes only during the pass of `n`,
    // which releases it; that late finish must not stop `n`'s probe.
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    let hCalls = 0;
    let nCalls = 0;
    const hangInPass = defineCase<void>({
      id: 'h',
      title: 'h',
      needs: [],
      operations: () => 1,
      run: () => (++hCalls === 3 ? gate : Promise.resolve()),
    });
    const next = defineCase<void>({
      id: 'n',
      title: 'n',
      needs: [],
      operations: () => 1,
      async run() {
        if (++nCalls === 3) release();
        await sleep(5);
      },
    });
    const { cases, events } = await runScripted(
      [suiteOf(hangInPass, next)],
      [memoryAdapter],
      scriptedPlan({ iterations: 2, timeoutMs: 150 }),
      { probe },
    );
    // The hung pass costs `h` its measurement, not its samples.
    expect(rowOf(cases, 'memory', 'h')).toMatchObject({
      status: 'ok',
      samples: [expect.any(Number), expect.any(Number)],
    });
    expect(rowOf(cases, 'memory', 'h')).not.toHaveProperty('blocking');
    expect(
      events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message),
    ).toEqual([
      expect.stringMatching(
        /^the measurement pass \(memory, h\) failed; its metrics are left out: .*150 ms/,
      ),
    ]);
    expect(rowOf(cases, 'memory', 'n')).toMatchObject({ status: 'ok', blocking: { longTasks: 0 } });
    expect(running).toBe(0);
    expect(maxRunning).toBe(1);
  });

  it('turns a failing probe into one warning', async () => {
    const probe: PassProbe = {
      start() {},
      stop() {
        throw new Error('observer gone');
      },
    };
    const { cases, events } = await runScripted(
      [suiteOf(scripted('c', {}), scripted('d', {}))],
      [memoryAdapter],
      scriptedPlan({ iterations: 3 }),
      { probe },
    );
    for (const id of ['c', 'd']) {
      const r = rowOf(cases, 'memory', id);
      expect(r.status).toBe('ok');
      expect(r).not.toHaveProperty('blocking');
    }
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      { type: 'warning', message: 'the probe failed; its metrics are left out: observer gone' },
    ]);
  });

  it('measures the footprint after verify, before teardown', async () => {
    const log: string[] = [];
    const footprint: FootprintProbe = {
      appliesTo: (_suite, caseId) => caseId === 'measured',
      async before() {
        log.push(
          `before (${memoryDatabaseNames().filter((n) => n.startsWith('storebench-auto-')).length} dbs)`,
        );
      },
      async after() {
        log.push(
          `after (${memoryDatabaseNames().filter((n) => n.startsWith('storebench-auto-')).length} dbs)`,
        );
        return { storageBytes: 1234 };
      },
    };
    const probe: PassProbe = {
      start: () => void log.push('probe start'),
      stop: () => {
        log.push('probe stop');
        return { longTasks: 1 };
      },
    };
    const steps = (id: string) =>
      defineCase<void>({
        id,
        title: id,
        needs: [],
        operations: () => 1,
        run: async () => void log.push(`run ${id}`),
        verify: async () => void log.push(`verify ${id}`),
        teardown: async () => void log.push(`teardown ${id}`),
      });
    const { cases, events } = await runScripted(
      [suiteOf(steps('measured'), steps('other'))],
      [memoryAdapter],
      scriptedPlan({ iterations: 2 }),
      { footprint, probe },
    );
    expect(log).toEqual([
      'run measured',
      'verify measured',
      'teardown measured',
      'run measured',
      'verify measured',
      'teardown measured',
      // The pass: one more run of the case, measured, after both timed samples.
      'before (0 dbs)',
      'probe start',
      'run measured',
      'probe stop',
      'verify measured',
      'after (1 dbs)',
      'teardown measured',
      'run other',
      'verify other',
      'teardown other',
      'run other',
      'verify other',
      'teardown other',
      // Its pass has the probe only: the footprint does not apply to it.
      'probe start',
      'run other',
      'probe stop',
      'verify other',
      'teardown other',
    ]);
    const measured = rowOf(cases, 'memory', 'measured');
    expect(measured).toMatchObject({
      status: 'ok',
      footprint: { storageBytes: 1234 },
      blocking: { longTasks: 1 },
    });
    expect(measured.samples).toHaveLength(2); // the pass is not a sample
    expect(measured.metrics).toBeUndefined();
    expect(rowOf(cases, 'memory', 'other')).not.toHaveProperty('footprint');
    expect(rowOf(cases, 'memory', 'other')).toMatchObject({ blocking: { longTasks: 1 } });
    expect(events.filter((e) => e.type === 'sample')).toHaveLength(4);
  });

  it('loses only the measurement when the footprint fails', async () => {
    const footprint: FootprintProbe = {
      appliesTo: () => true,
      before: async () => {},
      after: async () => {
        throw new Error('no estimate');
      },
    };
    const { cases, events } = await runScripted(
      [suiteOf(scripted('c', {}))],
      [memoryAdapter],
      scriptedPlan({ iterations: 2 }),
      { footprint },
    );
    expect(rowOf(cases, 'memory')).toMatchObject({ status: 'ok', samples: [1, 1] });
    expect(rowOf(cases, 'memory')).not.toHaveProperty('footprint');
    expect(events.filter((e) => e.type === 'warning')).toEqual([
      {
        type: 'warning',
        message: 'the measurement pass (memory, c) failed; its metrics are left out: no estimate',
      },
    ]);
  });
});

describe('runPlan - outliers', () => {
  it('flags samples beyond median ± k·MAD without removing them', async () => {
    const values = [10, 11, 10, 12, 11, 10, 11, 12, 10, 50];
    const { cases } = await runScripted(
      [suiteOf(scripted('c', { memory: values }))],
      [memoryAdapter],
      scriptedPlan({ iterations: 10 }),
    );
    const r = rowOf(cases, 'memory');
    expect(r.samples).toEqual(values);
    if (r.status !== 'ok') throw new Error(r.reason);
    expect(r.outliers).toEqual({ k: OUTLIER_K, indexes: [9] });
    // Both summaries stay: the mean feels the outlier, the median does not.
    expect(r.stats.median).toBe(11);
    expect(r.stats.mean).toBe(147 / 10);
  });
});

describe('runPlan - plan.cases', () => {
  it('runs only the named cases', async () => {
    const { cases } = await runScripted(
      [suiteOf(scripted('a', {}), scripted('b', {}), scripted('c', {}))],
      [memoryAdapter],
      scriptedPlan({ cases: ['b', 'c'] }),
    );
    expect(cases.map((c) => c.case)).toEqual(['b', 'c']);
  });

  it('refuses an unknown case before running, naming the allowed', async () => {
    const events: RunEvent[] = [];
    const p = scriptedPlan({ cases: ['a', 'nope'] });
    await expect(
      runPlan({
        plan: p,
        suites: [suiteOf(scripted('a', {}))],
        adapters: [memoryAdapter],
        runId: 'x',
        onEvent: (e) => events.push(e),
      }),
    ).rejects.toThrow(PlanError);
    await expect(
      runPlan({
        plan: p,
        suites: [suiteOf(scripted('a', {}))],
        adapters: [memoryAdapter],
        runId: 'x',
      }),
    ).rejects.toThrow('cases: unknown "nope" in suites t; allowed: a');
    expect(events).toEqual([]);
  });
});
