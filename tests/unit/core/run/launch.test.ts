// The runner's passes spread over browser launches (src/core/run/launch.ts): each launch here is a
// runPlan call of its own on the real memory store, and what it carries goes through JSON, as it
// does between the page and the sweep.
import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';
import { carriedResult } from '../../../../src/core/run/row.ts';
import {
  checkCarry,
  checkLaunchOrder,
  launchPasses,
  LaunchError,
  type Carry,
  type LaunchOrder,
} from '../../../../src/core/run/launch.ts';
import { PlanError, type Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import { validateResults } from '../../../../src/core/results/recompute.ts';
import { runPlan, type RunEvent } from '../../../../src/core/run/runner.ts';
import { defineCase, type BenchCase, type Suite } from '../../../../src/core/store/suite.ts';
import { runnerResultsDoc } from '../../helpers/runner-doc.ts';

const auto = { targetRelCi: 0.02, minN: 6, maxN: 50, maxMs: 60_000, passes: 3 };
const plan = (over: Partial<Plan> = {}): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['t'],
  adapters: ['memory'],
  sizes: [10],
  warmup: 1,
  auto,
  budgetMs: 60_000,
  ...over,
});
const suiteOf = (...cases: BenchCase[]): Suite => ({
  id: 't',
  title: 'test',
  description: 'test suite',
  cases: () => cases,
});
const memoryAs = (id: string, over: Partial<StoreAdapter> = {}): StoreAdapter => ({
  ...memoryAdapter,
  id,
  label: id,
  ...over,
});
/** As the sweep hands it on: through JSON. */
const overTheWire = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Samples of 100 ± 0.5 from a case that counts its runs: a quiet row that reaches its target at the minimum. */
const quiet = (id: string, runs: { n: number }, extra: Partial<BenchCase> = {}) =>
  defineCase<void>({
    id,
    title: id,
    needs: [],
    operations: () => 1,
    run: async () => (runs.n++, 100 + (runs.n % 2) - 0.5),
    ...(extra as object),
  });

/** Case 'c', which fails on the store 'broken' from the case's 5th run on, until healed. */
function failsOnBroken(runs: { n: number }) {
  let failing = true;
  const flaky = quiet('c', runs, {
    run: async (ctx: { adapter: StoreAdapter }) => {
      runs.n++;
      if (ctx.adapter.id === 'broken' && failing && runs.n > 4) throw new Error('disk on fire');
      return 100;
    },
  });
  return { flaky, heal: () => (failing = false) };
}

async function launch(suites: Suite[], adapters: StoreAdapter[], p: Plan, order?: LaunchOrder) {
  const events: RunEvent[] = [];
  const out = await runPlan({
    plan: p,
    suites,
    adapters,
    runId: 'launches',
    onEvent: (e) => events.push(e),
    cleanupTimeoutMs: 500,
    ...(order ? { launch: order } : {}),
  });
  return { ...out, events };
}

const okRow = (cases: CaseResult[], adapter: string) => {
  const r = cases.find((c) => c.adapter === adapter);
  if (r?.status !== 'ok')
    throw new Error(`expected an ok row for ${adapter}, got ${r?.status ?? 'none'}`);
  return r;
};

describe('launchPasses', () => {
  it('splits the passes evenly, the earlier launches taking the extra', () => {
    expect(launchPasses(12, 12).map((l) => l.last - l.first + 1)).toEqual(Array(12).fill(1));
    expect(launchPasses(12, 5)).toEqual([
      { first: 1, last: 3 },
      { first: 4, last: 6 },
      { first: 7, last: 8 },
      { first: 9, last: 10 },
      { first: 11, last: 12 },
    ]);
    expect(launchPasses(3, 8)).toHaveLength(3);
    expect(launchPasses(1, 1)).toEqual([{ first: 1, last: 1 }]);
  });
});

describe('runPlan - launches', () => {
  it('three launches end as one run of three passes', async () => {
    const runs = { n: 0 };
    const suites = [suiteOf(quiet('a', runs), quiet('b', runs))];
    const adapters = [memoryAdapter, memoryAs('other')];
    const first = await launch(suites, adapters, plan(), {
      launch: 1,
      first: 1,
      last: 1,
      budgetMs: 20_000,
      budgetLeftMs: 20_000,
      carry: null,
    });
    // Rows finish only after the last pass: the first launch emits none, and carries all four.
    expect(first.cases).toEqual([]);
    expect(first.events.filter((e) => e.type === 'case-end')).toHaveLength(0);
    const carry1 = overTheWire(first.carry as Carry);
    expect(
      checkCarry(carry1, 'launches', 1).rows.map((r) => [r.case, r.adapter, r.samplesPerPass]),
    ).toEqual([
      ['a', 'memory', [6]],
      ['a', 'other', [6]],
      ['b', 'memory', [6]],
      ['b', 'other', [6]],
    ]);

    const second = await launch(suites, adapters, plan(), {
      launch: 2,
      first: 2,
      last: 2,
      budgetMs: 20_000,
      budgetLeftMs: 20_000,
      carry: carry1,
    });
    const carry2 = overTheWire(second.carry as Carry);
    expect(carry2.passesDone).toBe(2);
    const third = await launch(suites, adapters, plan(), {
      launch: 3,
      first: 3,
      last: 3,
      budgetMs: 20_000,
      budgetLeftMs: 20_000,
      carry: carry2,
    });
    expect(third.carry).toBeUndefined();
    expect(
      third.cases.map((c) => [c.case, c.adapter, c.status, c.samplesPerPass, c.warmup.length]),
    ).toEqual([
      ['a', 'memory', 'ok', [6, 6, 6], 3],
      ['a', 'other', 'ok', [6, 6, 6], 3],
      ['b', 'memory', 'ok', [6, 6, 6], 3],
      ['b', 'other', 'ok', [6, 6, 6], 3],
    ]);
    // Every run of the case body is in some row: nothing was lost or counted twice between launches.
    expect(third.cases.reduce((sum, c) => sum + c.samples.length + c.warmup.length, 0)).toBe(
      runs.n,
    );
    // The order of every round of all three launches, in one list per group.
    const rounds = third.order.find((o) => o.case === 'a')?.rounds ?? [];
    // Every pass: a warm-up round and the 6 a row this cheap takes at the least (share.ts); 2 stores each.
    expect(rounds.flat()).toHaveLength(3 * 2 * (1 + 6));
    const doc = validateResults(
      runnerResultsDoc('launches', plan(), third.cases, third.order),
      'launches.json',
    );
    expect(doc.cases[0]?.samplesPerPass).toEqual([6, 6, 6]);
  });

  it('leaves a metric some samples lack out of the carry', async () => {
    const runs = { n: 0 };
    // A metric recorded in every other run only, as a machine reading that failed would leave it.
    const patchy = quiet('a', runs, {
      run: async (ctx: { metric(name: string, value: number): void }) => {
        runs.n++;
        if (runs.n % 2 === 0) ctx.metric('patchy', runs.n);
        ctx.metric('whole', runs.n);
        return 100 + (runs.n % 2) - 0.5;
      },
    });
    const order = { launch: 1, first: 1, last: 1, budgetMs: 20_000, budgetLeftMs: 20_000 };
    const first = await launch([suiteOf(patchy)], [memoryAdapter], plan(), {
      ...order,
      carry: null,
    });
    const carry = overTheWire(first.carry as Carry);
    const row = checkCarry(carry, 'launches', 1).rows[0];
    expect(Object.keys(row?.metrics ?? {})).toEqual(['whole']);
    const rest = await launch([suiteOf(patchy)], [memoryAdapter], plan(), {
      ...order,
      launch: 2,
      first: 2,
      last: 3,
      carry,
    });
    expect(Object.keys(okRow(rest.cases, 'memory').metrics ?? {})).toEqual(['whole']);
  });

  it("leaves a launch's spare time to the later launches", async () => {
    // Samples of 100 ± 40, which never reach ±2%: only max-n (50, so 25 by the end of pass 1 of 2) or the budget stops the row.
    let k = 0;
    const noisy = defineCase<void>({
      id: 'n',
      title: 'n',
      needs: [],
      operations: () => 1,
      run: async () => 100 + (k++ % 2 === 0 ? 40 : -40),
    });
    const p = plan({ auto: { ...auto, passes: 2 } });
    const first = await launch([suiteOf(noisy)], [memoryAdapter], p, {
      launch: 1,
      first: 1,
      last: 1,
      budgetMs: 5_000,
      budgetLeftMs: 10_000,
      carry: null,
    });
    const row = overTheWire(first.carry as Carry).rows[0]!;
    // Its share of the pass, then it stops as `budget`; it does not spend max-n in the first launch.
    expect(row.samplesPerPass).toEqual([25]);
    expect(row.state).toEqual({ kind: 'stopped', why: 'budget' });
    // The run's last case in its last launch still takes what is left, up to max-n.
    const second = await launch([suiteOf(noisy)], [memoryAdapter], p, {
      launch: 2,
      first: 2,
      last: 2,
      budgetMs: 5_000,
      budgetLeftMs: 5_000,
      carry: overTheWire(first.carry as Carry),
    });
    expect(okRow(second.cases, 'memory').samplesPerPass).toEqual([25, 25]);
  });

  it('keeps the calibrated repeats', async () => {
    const runs = { n: 0 };
    // A shared row far under the timer's step: calibration repeats its body in the first launch.
    const suites = [suiteOf(quiet('fast', runs, { db: 'shared', run: async () => void runs.n++ }))];
    // max-n out of reach, so the row stops on its target or its share of a short budget, and resumes in the next launch.
    const p = plan({ auto: { ...auto, maxN: 100_000, passes: 2 } });
    const first = await launch(suites, [memoryAdapter], p, {
      launch: 1,
      first: 1,
      last: 1,
      budgetMs: 300,
      budgetLeftMs: 300,
      carry: null,
    });
    const carry = overTheWire(first.carry as Carry);
    const repeats = carry.rows[0]?.repeats ?? 0;
    expect(repeats).toBeGreaterThan(1);
    const warmupsBefore = carry.rows[0]?.warmup.length ?? 0;
    expect(['ci-target', 'budget']).toContain(
      carry.rows[0]?.state.kind === 'stopped' ? carry.rows[0].state.why : carry.rows[0]?.state.kind,
    );
    const second = await launch(suites, [memoryAdapter], p, {
      launch: 2,
      first: 2,
      last: 2,
      budgetMs: 300,
      budgetLeftMs: 300,
      carry,
    });
    const r = okRow(second.cases, 'memory');
    // One warm-up in the later pass, none for calibration; the repeats grow only if runs got quicker.
    expect(r.warmup).toHaveLength(warmupsBefore + 1);
    expect(r.repeats).toBeGreaterThanOrEqual(repeats);
  });

  it('keeps a row that failed in an earlier launch failed', async () => {
    const runs = { n: 0 };
    const { flaky, heal } = failsOnBroken(runs);
    const adapters = [memoryAdapter, memoryAs('broken')];
    const first = await launch([suiteOf(flaky)], adapters, plan({ auto: { ...auto, passes: 2 } }), {
      launch: 1,
      first: 1,
      last: 1,
      budgetMs: 5_000,
      budgetLeftMs: 5_000,
      carry: null,
    });
    const carry = overTheWire(first.carry as Carry);
    heal(); // a later launch could sample it: it must not
    const second = await launch(
      [suiteOf(flaky)],
      adapters,
      plan({ auto: { ...auto, passes: 2 } }),
      { launch: 2, first: 2, last: 2, budgetMs: 5_000, budgetLeftMs: 5_000, carry },
    );
    const broken = second.cases.find((c) => c.adapter === 'broken');
    expect(broken?.status).toBe('error');
    expect(broken?.reason).toContain('disk on fire');
    expect(broken?.samples.length).toBe(
      carry.rows.find((r) => r.adapter === 'broken')?.samples.length,
    );
    expect(okRow(second.cases, 'memory').samplesPerPass).toEqual([6, 2]);
  });

  it("takes each row's minimum while the run's budget lasts", async () => {
    const runs = { n: 0 };
    const suites = [suiteOf(quiet('a', runs))];
    const p = plan({ auto: { ...auto, passes: 3 } });
    const first = await launch(suites, [memoryAdapter], p, {
      launch: 1,
      first: 1,
      last: 1,
      budgetMs: 5_000,
      budgetLeftMs: 5_000,
      carry: null,
    });
    const carry = overTheWire(first.carry as Carry);
    // The launches before ran over: this one's share is 0, but the run has time left for the minimum.
    const second = await launch(suites, [memoryAdapter], p, {
      launch: 2,
      first: 2,
      last: 2,
      budgetMs: 0,
      budgetLeftMs: 5_000,
      carry,
    });
    // Its pass minimum comes from the plan's share of the row, so it is the 6 a row this cheap takes.
    expect(overTheWire(second.carry as Carry).rows[0]?.samplesPerPass).toEqual([6, 6]);
    // With the run's budget spent too, the row takes nothing more.
    const spent = await launch(suites, [memoryAdapter], p, {
      launch: 2,
      first: 2,
      last: 3,
      budgetMs: 0,
      budgetLeftMs: 0,
      carry,
    });
    expect(okRow(spent.cases, 'memory').samplesPerPass).toEqual([6, 0, 0]);
  });

  it('keeps what earlier launches carried when a later one dies', async () => {
    const runs = { n: 0 };
    const { flaky } = failsOnBroken(runs);
    const adapters = [memoryAdapter, memoryAs('broken')];
    const p = plan({ auto: { ...auto, passes: 2 } });
    const first = await launch([suiteOf(flaky), suiteOf(quiet('q', runs))], adapters, p, {
      launch: 1,
      first: 1,
      last: 1,
      budgetMs: 5_000,
      budgetLeftMs: 5_000,
      carry: null,
    });
    const carry = checkCarry(overTheWire(first.carry as Carry), 'launches', 1);
    // What the sweep writes to the partial file when launch 2 crashes or is cancelled.
    const rows = carry.rows.flatMap((row) => carriedResult(row) ?? []);
    expect(rows.map((r) => [r.case, r.adapter, r.status])).toEqual([
      ['c', 'memory', 'ok'],
      ['c', 'broken', 'error'],
      ['q', 'memory', 'ok'],
      ['q', 'broken', 'ok'],
    ]);
    for (const r of rows) {
      const from = carry.rows.find((c) => c.case === r.case && c.adapter === r.adapter)!;
      expect(r.samples).toEqual(from.samples);
      expect(r).toMatchObject({
        title: r.case,
        size: 10,
        params: {},
        operations: 1,
        db: 'fresh',
        repeats: from.repeats,
      });
    }
    expect(rows[1]!.reason).toContain('disk on fire');
    // The ok rows stopped at their target in pass 1, which pass 2 would have taken back: as a
    // Cancel in one launch ends them, they stop as cancelled.
    expect(carry.rows.map((r) => r.state.kind === 'stopped' && r.state.why)).toEqual([
      'ci-target',
      false,
      'ci-target',
      'ci-target',
    ]);
    expect(rows.map((r) => r.status === 'ok' && r.stopped)).toEqual([
      'cancelled',
      false,
      'cancelled',
      'cancelled',
    ]);
    // They make a valid results document, statistics and all.
    expect(() => validateResults(runnerResultsDoc('launches', p, rows, carry.order))).not.toThrow();
  });

  it('ends the unreached rows on Cancel in a later launch', async () => {
    const runs = { n: 0 };
    const p = plan({ auto: { ...auto, passes: 2 } });
    const suites = [suiteOf(quiet('a', runs), quiet('b', runs))];
    const first = await launch(suites, [memoryAdapter], p, {
      launch: 1,
      first: 1,
      last: 1,
      budgetMs: 5_000,
      budgetLeftMs: 5_000,
      carry: null,
    });
    const carry = checkCarry(overTheWire(first.carry as Carry), 'launches', 1);
    // The sweep's Ctrl-C reaches the page during case a's warm-up in launch 2.
    const controller = new AbortController();
    const stopsInA = suiteOf(
      quiet('a', runs, { run: async () => (controller.abort(), 100) }),
      quiet('b', runs),
    );
    const events: RunEvent[] = [];
    const second = await runPlan({
      plan: p,
      suites: [stopsInA],
      adapters: [memoryAdapter],
      runId: 'launches',
      signal: controller.signal,
      onEvent: (e) => events.push(e),
      cleanupTimeoutMs: 500,
      launch: { launch: 2, first: 2, last: 2, budgetMs: 5_000, budgetLeftMs: 5_000, carry },
    });
    expect(second.cancelled).toBe(true);
    expect(events.some((e) => e.type === 'group-start' && e.case === 'b')).toBe(false);
    expect(second.cases.map((c) => [c.case, c.status === 'ok' && c.stopped, c.samples])).toEqual(
      carry.rows.map((r) => [r.case, 'cancelled', r.samples]),
    );
    expect(() =>
      validateResults(runnerResultsDoc('launches', p, second.cases, second.order)),
    ).not.toThrow();
  });

  it('refuses a launch that does not fit the plan or its rows', async () => {
    const suites = [suiteOf(quiet('a', { n: 0 }))];
    await expect(
      launch(suites, [memoryAdapter], plan(), {
        launch: 2,
        first: 2,
        last: 3,
        budgetMs: 1_000,
        budgetLeftMs: 1_000,
        carry: null,
      }),
    ).rejects.toThrow(PlanError);
    await expect(
      launch(suites, [memoryAdapter], plan(), {
        launch: 3,
        first: 3,
        last: 4,
        budgetMs: 1_000,
        budgetLeftMs: 1_000,
        carry: null,
      }),
    ).rejects.toThrow(/not within the plan's 1 to 3/);
    await expect(
      launch(
        suites,
        [memoryAdapter],
        plan({ auto: undefined, budgetMs: undefined, iterations: 3 }),
        { launch: 1, first: 1, last: 2, budgetMs: 1_000, budgetLeftMs: 1_000, carry: null },
      ),
    ).rejects.toThrow(/adaptive/);
  });
});

describe('checkLaunchOrder, checkCarry', () => {
  const carry = (over: Record<string, unknown> = {}, row: Record<string, unknown> = {}) => ({
    schema: 'storebench/carry@1',
    runId: 'r1',
    passesDone: 1,
    order: [],
    rows: [
      {
        suite: 's',
        case: 'c',
        title: 'c',
        size: 10,
        adapter: 'memory',
        params: {},
        operations: 1,
        db: 'fresh',
        state: { kind: 'stopped', why: 'budget' },
        samples: [1, 2],
        warmup: [3],
        metrics: {},
        points: [[], []],
        repeats: 1,
        samplesPerPass: [2],
        spentMs: 5,
        sampleWallMs: 4,
        ...row,
      },
    ],
    ...over,
  });

  it('takes a well-formed order and carry', () => {
    expect(
      checkLaunchOrder(
        { launch: 1, first: 1, last: 2, budgetMs: 1000, budgetLeftMs: 1000, carry: null },
        'r1',
        3,
      ),
    ).toEqual({ launch: 1, first: 1, last: 2, budgetMs: 1000, budgetLeftMs: 1000, carry: null });
    expect(
      checkLaunchOrder(
        { launch: 2, first: 2, last: 3, budgetMs: 1000, budgetLeftMs: 1000, carry: carry() },
        'r1',
        3,
      ).carry?.rows,
    ).toHaveLength(1);
  });

  it.each([
    [
      'another run',
      { launch: 2, first: 2, last: 2, budgetMs: 1, budgetLeftMs: 1, carry: carry({ runId: 'r2' }) },
      /of run r2, not of this run \(r1\)/,
    ],
    [
      'passes beyond the plan',
      { launch: 2, first: 2, last: 4, budgetMs: 1, budgetLeftMs: 1, carry: carry() },
      /not within the plan's 1 to 3/,
    ],
    [
      'a gap before it',
      { launch: 3, first: 3, last: 3, budgetMs: 1, budgetLeftMs: 1, carry: carry() },
      /been through 1 passes; this launch continues after 2/,
    ],
    ['no budget', { launch: 1, first: 1, last: 1, carry: null }, /no budget/],
    [
      'no launch number',
      { first: 1, last: 1, budgetMs: 1, budgetLeftMs: 1, carry: null },
      /launch is not a whole number from 1/,
    ],
    [
      "less left of the run's budget than its own",
      { launch: 1, first: 1, last: 1, budgetMs: 5, budgetLeftMs: 4, carry: null },
      /budget left of the run is missing or below its own/,
    ],
    [
      'a first launch with rows',
      { launch: 1, first: 1, last: 1, budgetMs: 1, budgetLeftMs: 1, carry: carry() },
      /first launch carries no rows/,
    ],
    [
      'another schema',
      { launch: 2, first: 2, last: 2, budgetMs: 1, budgetLeftMs: 1, carry: carry({ schema: 'x' }) },
      /not storebench\/carry@1/,
    ],
    [
      'samples that do not add up',
      {
        launch: 2,
        first: 2,
        last: 2,
        budgetMs: 1,
        budgetLeftMs: 1,
        carry: carry({}, { samplesPerPass: [3] }),
      },
      /rows\[0\]\.samplesPerPass: does not add up to the 2 samples/,
    ],
    [
      'a metric short of a sample',
      {
        launch: 2,
        first: 2,
        last: 2,
        budgetMs: 1,
        budgetLeftMs: 1,
        carry: carry({}, { metrics: { x: [1] } }),
      },
      /rows\[0\]\.metrics/,
    ],
    [
      'an unknown state',
      {
        launch: 2,
        first: 2,
        last: 2,
        budgetMs: 1,
        budgetLeftMs: 1,
        carry: carry({}, { state: { kind: 'asleep' } }),
      },
      /rows\[0\]\.state/,
    ],
    [
      'a size that is text',
      {
        launch: 2,
        first: 2,
        last: 2,
        budgetMs: 1,
        budgetLeftMs: 1,
        carry: carry({}, { size: '10' }),
      },
      /rows\[0\]\.size/,
    ],
    [
      'no parameters',
      {
        launch: 2,
        first: 2,
        last: 2,
        budgetMs: 1,
        budgetLeftMs: 1,
        carry: carry({}, { params: null }),
      },
      /rows\[0\]\.params: not an object/,
    ],
    [
      'no operations',
      {
        launch: 2,
        first: 2,
        last: 2,
        budgetMs: 1,
        budgetLeftMs: 1,
        carry: carry({}, { operations: 0 }),
      },
      /rows\[0\]\.operations: not a count above 0/,
    ],
    [
      'an unknown database mode',
      {
        launch: 2,
        first: 2,
        last: 2,
        budgetMs: 1,
        budgetLeftMs: 1,
        carry: carry({}, { db: 'cloud' }),
      },
      /rows\[0\]\.db: not fresh or shared/,
    ],
    [
      'a series without names',
      {
        launch: 2,
        first: 2,
        last: 2,
        budgetMs: 1,
        budgetLeftMs: 1,
        carry: carry({}, { series: { x: 1 } }),
      },
      /rows\[0\]\.series/,
    ],
  ])('refuses %s, saying what is wrong', (_what, data, message) => {
    expect(() => checkLaunchOrder(data, 'r1', 3)).toThrow(LaunchError);
    expect(() => checkLaunchOrder(data, 'r1', 3)).toThrow(message);
  });
});

describe('runPlan - pass-end events', () => {
  it('ends each pass but the last with the rows as they stand', async () => {
    const runs = { n: 0 };
    const out = await launch(
      [suiteOf(quiet('c', runs))],
      [memoryAdapter, memoryAs('other')],
      plan({ auto: { ...auto, passes: 3 }, budgetMs: 3_000 }),
    );
    const ends = out.events.flatMap((e) => (e.type === 'pass-end' ? [e.carry] : []));
    expect(ends.map((c) => c.passesDone)).toEqual([1, 2]);
    for (const carry of ends) {
      const checked = checkCarry(overTheWire(carry), 'launches', carry.passesDone);
      expect(checked.rows.map((r) => r.adapter).sort()).toEqual(['memory', 'other']);
      // Kept as a results row, each has the samples of the passes so far, and an interval from them.
      for (const row of checked.rows) {
        const kept = carriedResult(row);
        expect(kept?.status).toBe('ok');
        expect(kept?.samples.length).toBe(row.samplesPerPass.reduce((a, k) => a + k, 0));
        expect(row.samplesPerPass).toHaveLength(carry.passesDone);
      }
    }
    // The pass-end events come before the rows are emitted in the last pass.
    const lastEnd = out.events.map((e) => e.type).lastIndexOf('pass-end');
    expect(out.events.findIndex((e) => e.type === 'case-end')).toBeGreaterThan(lastEnd);
  });
});
