import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../../src/adapters/memory.ts';
import { MIN_SAMPLES_ON_TIME_CAP } from '../../../../../src/core/run/row.ts';
import { validateResults } from '../../../../../src/core/results/recompute.ts';
import { runnerResultsDoc } from '../../../helpers/runner-doc.ts';
import type { PassProbe, RunEvent } from '../../../../../src/core/run/runner.ts';
import { defineCase } from '../../../../../src/core/store/suite.ts';
import { around, memoryAs, plan, row, run, scripted, sleep, suiteOf } from '../scripted-run.ts';

describe('policy - adaptive sampling', () => {
  it('stops a quiet row at the target, saying why', async () => {
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 50, maxMs: 60_000 };
    const { cases } = await run(
      [suiteOf(scripted('c', { memory: around(1) }))],
      [memoryAdapter],
      plan({ auto }),
    );
    const r = row(cases, 'memory');
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    // ±1 around 100 is well inside ±2% from the first interval there is (6 samples).
    expect(r.samples).toHaveLength(6);
    expect(r.stopped).toBe('ci-target');
    expect(r.precision).toBeCloseTo(0.01, 12);
    expect(r.stats.medianCi).toEqual({ lo: 99, hi: 101 });
  });

  it('samples a noisy row to max N, a quiet one stops', async () => {
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 12, maxMs: 60_000 };
    const c = scripted('c', { quiet: around(0.5), noisy: around(40) });
    const { cases, order, events } = await run(
      [suiteOf(c)],
      [memoryAs('quiet'), memoryAs('noisy')],
      plan({ auto, warmup: 1 }),
    );
    const quiet = row(cases, 'quiet');
    const noisy = row(cases, 'noisy');
    expect(quiet.samples).toHaveLength(6);
    expect(noisy.samples).toHaveLength(12);
    expect(quiet.status === 'ok' && quiet.stopped).toBe('ci-target');
    expect(noisy.status === 'ok' && noisy.stopped).toBe('iterations');
    // One warm-up round and six rounds with both, then the allocator's samples, all to the noisy row.
    const rounds = order[0]?.rounds ?? [];
    expect(rounds).toHaveLength(1 + 6 + 6);
    expect(rounds.slice(0, 7).every((r) => r.length === 2)).toBe(true);
    expect(rounds.slice(7)).toEqual(Array.from({ length: 6 }, () => ['noisy']));
    expect(events[0]).toEqual({ type: 'run-start', rows: 2, samples: 2 * (1 + 6) });
    const samples = events.filter(
      (e): e is Extract<RunEvent, { type: 'sample' }> => e.type === 'sample',
    );
    expect(samples).toHaveLength(2 + 6 + 12);
    expect(samples.at(-1)).toMatchObject({ samplesDone: 20, index: 12, of: 6 });
  });

  it('stops at the time cap, before min N, when samples are slow', async () => {
    const auto = { targetRelCi: 0.02, minN: 50, maxN: 100, maxMs: 150 };
    const slow = scripted(
      'slow',
      { memory: around(30) },
      {
        setup: () => sleep(60),
      },
    );
    const { cases } = await run([suiteOf(slow)], [memoryAdapter], plan({ auto }));
    const r = row(cases, 'memory');
    expect(r.status).toBe('ok');
    expect(r.status === 'ok' && r.stopped).toBe('time-cap');
    expect(r.samples.length).toBeGreaterThanOrEqual(2);
    expect(r.samples.length).toBeLessThan(6);
  });
});

describe('policy - time cap against a hang', () => {
  it('time-caps a slow but healthy store, ok', async () => {
    // Each sample takes about 120 ms, well inside the 400 ms limit of one step; the row's own cap
    // of 500 ms ends its sampling after a few, and that is no failure.
    const auto = { targetRelCi: 0.001, minN: 50, maxN: 100, maxMs: 500 };
    const slow = scripted(
      'slow',
      { memory: around(30) },
      {
        setup: () => sleep(120),
      },
    );
    const probe: PassProbe = { start() {}, stop: () => ({ longTasks: 0 }) };
    const { cases, events } = await run(
      [suiteOf(slow)],
      [memoryAdapter],
      plan({ auto, timeoutMs: 400 }),
      { probe },
    );
    const r = row(cases, 'memory');
    expect(r.status).toBe('ok');
    expect(r.status === 'ok' && r.stopped).toBe('time-cap');
    expect(r.samples.length).toBeGreaterThanOrEqual(2);
    expect(r.samples.length).toBeLessThanOrEqual(5);
    expect(r).toHaveProperty('blocking', { longTasks: 0 });
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
  });

  it('times out a store whose third sample hangs, keeping two', async () => {
    let calls = 0;
    const stuck = defineCase<void>({
      id: 'stuck',
      title: 'stuck',
      needs: [],
      operations: () => 1,
      run: () => (++calls === 3 ? new Promise<void>(() => {}) : Promise.resolve()),
    });
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 10, maxMs: 60_000 };
    const { cases, leftover } = await run(
      [suiteOf(stuck)],
      [memoryAdapter],
      plan({ auto, timeoutMs: 150 }),
    );
    const r = row(cases, 'memory');
    expect(r.status).toBe('timeout');
    expect(r.samples).toHaveLength(2);
    expect(r.reason).toMatch(/sample 3 made no progress within the 150 ms limit of one step/);
    expect(leftover).toEqual([]);
  });

  it('keeps a plan of slow rows within its budget', async () => {
    const slowCase = (id: string) =>
      scripted(id, { memory: around(30) }, { setup: () => sleep(25) });
    const auto = { targetRelCi: 0.001, minN: 6, maxN: 1000, maxMs: 60_000 };
    const { cases } = await run(
      [suiteOf(slowCase('a'), slowCase('b'), slowCase('c'))],
      [memoryAdapter],
      plan({ auto, budgetMs: 900 }),
    );
    expect(cases.map((c) => c.status === 'ok' && c.stopped)).toEqual([
      'budget',
      'budget',
      'budget',
    ]);
    // Bounds no load can break: a busy machine only makes samples slower. Every row keeps its
    // least samples; none starts a sample once the budget is spent, and each sample sleeps at
    // least 25 ms, so all of them but each row's last fit in the 900 ms (ignoring the budget
    // would take 3 × 1000 samples).
    const taken = cases.map((c) => c.samples.length + c.warmup.length);
    for (const c of cases) expect(c.samples.length).toBeGreaterThanOrEqual(MIN_SAMPLES_ON_TIME_CAP);
    expect(taken.reduce((sum, n) => sum + (n - 1) * 25, 0)).toBeLessThanOrEqual(900);
  });

  it('takes no fill or warm-up for a row with no budget left', async () => {
    // Pass 1's minimums alone (2 rows × 7 samples of at least 25 ms) spend the 300-ms budget.
    const slow = (id: string) => scripted(id, { memory: around(30) }, { setup: () => sleep(25) });
    // Two passes: from three on, rows take their minimum pass by pass by what they cost (share.ts, tested apart).
    const auto = { targetRelCi: 0.001, minN: 6, maxN: 1000, maxMs: 60_000, passes: 2 };
    const { cases, order } = await run(
      [suiteOf(slow('a'), slow('b'))],
      [memoryAdapter],
      plan({ auto, warmup: 1, budgetMs: 300 }),
    );
    // 'a' takes its 6; 'b' stops at 2 or more, when one more would pass the end of the budget.
    expect(
      cases.map((c) => [
        c.case,
        c.warmup.length,
        c.status === 'ok' && c.stopped,
        c.samplesPerPass?.slice(1),
      ]),
    ).toEqual([
      ['a', 1, 'budget', [0]],
      ['b', 1, 'budget', [0]],
    ]);
    expect(cases[0]?.samples).toHaveLength(6);
    expect(cases[1]?.samples.length).toBeGreaterThanOrEqual(2);
    // No round in passes 2 and 3: one warm-up round and a round per timed sample, all in pass 1.
    expect(order.map((o) => o.rounds.length)).toEqual(cases.map((c) => 1 + c.samples.length));
  });
});

describe('policy - against a baseline', () => {
  it('decides each row net of the shift the rows share', async () => {
    const ids = [...Array.from({ length: 11 }, (_, i) => `s${i}`), 'edge'];
    // Every store 20% slower than its baseline row (a slower machine), 'edge' 26%: +5% net of that.
    const c = scripted(
      'c',
      Object.fromEntries(
        ids.map((id) => [id, around(1).map((v) => v * (id === 'edge' ? 1.26 : 1.2))]),
      ),
    );
    const baseline = {
      thresholdPct: 5,
      rows: ids.map((adapter) => ({
        suite: 't',
        case: 'c',
        adapter,
        size: 10,
        params: {},
        median: 100,
        ci: { lo: 99, hi: 101 },
      })),
    };
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 30, maxMs: 60_000, passes: 2 };
    const { cases } = await run(
      [suiteOf(c)],
      ids.map((id) => memoryAs(id)),
      plan({ auto, budgetMs: 60_000 }),
      { baseline },
    );
    const stopped = (id: string) => {
      const r = row(cases, id);
      return r.status === 'ok' ? [r.stopped, r.samples.length] : [r.status];
    };
    // Pass 1 has no shift yet (no row had an interval when it began), so every row stopped on its
    // raw change; from pass 2 on, net of the +20% shift, the 11 are decided the same and 'edge' straddles +5%.
    for (const id of ids.slice(0, 11)) expect(stopped(id)).toEqual(['decided', 6 + 2]);
    expect(stopped('edge')).toEqual(['iterations', 30]);
  });
});

describe('policy - fixed iterations', () => {
  it('stops every ok row at its iteration count', async () => {
    const { cases } = await run(
      [suiteOf(scripted('c', { memory: [5] }))],
      [memoryAdapter],
      plan({ iterations: 3 }),
    );
    expect(row(cases, 'memory')).toMatchObject({
      status: 'ok',
      stopped: 'iterations',
      samples: [5, 5, 5],
    });
  });

  it("gives back a failing row's samples to the progress", async () => {
    const boom = defineCase<void>({
      id: 'boom',
      title: 'boom',
      needs: [],
      operations: () => 1,
      run: async () => {
        throw new Error('nope');
      },
    });
    const { events } = await run(
      [suiteOf(boom, scripted('fine', {}))],
      [memoryAdapter],
      plan({ iterations: 3, warmup: 1 }),
    );
    const samples = events.filter(
      (e): e is Extract<RunEvent, { type: 'sample' }> => e.type === 'sample',
    );
    expect(samples.at(-1)).toMatchObject({ samplesDone: 5, samplesTotal: 5 });
  });

  it('produces rows that validate against schema v1', async () => {
    const auto = { targetRelCi: 0.02, minN: 3, maxN: 10, maxMs: 60_000 };
    const p = plan({ auto });
    const { cases, order } = await run(
      [suiteOf(scripted('c', { memory: around(1) }))],
      [memoryAdapter],
      p,
    );
    expect(validateResults(runnerResultsDoc('auto', p, cases, order)).run.plan.auto).toEqual(auto);
  });
});

describe('policy - passes', () => {
  /** A case that logs each run's case id, with samples of 100 ± 0.5. */
  const logged = (id: string, log: string[]) =>
    defineCase<void>({
      id,
      title: id,
      needs: [],
      operations: () => 1,
      run: async () => (log.push(id), 100 + (log.length % 2) - 0.5),
    });
  /** ['a', 'a', 'b'] as ['a×2', 'b×1']: who ran, in stretches. */
  const stretches = (log: readonly string[]) =>
    log
      .reduce<[string, number][]>(
        (acc, id) => (
          acc.at(-1)?.[0] === id
            ? (acc[acc.length - 1] = [id, (acc.at(-1)?.[1] ?? 0) + 1])
            : acc.push([id, 1]),
          acc
        ),
        [],
      )
      .map(([id, n]) => `${id}×${n}`);

  it('samples every row in each pass, a warm-up first', async () => {
    const log: string[] = [];
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 50, maxMs: 60_000, passes: 3 };
    const p = plan({ auto, warmup: 1, budgetMs: 60_000 });
    const { cases, events, order } = await run(
      [suiteOf(logged('a', log), logged('b', log))],
      [memoryAdapter],
      p,
    );
    // Pass 1: a warm-up and the 6 of the minimum; later passes: a warm-up and the 6 that half
    // the share of a row this cheap buys (share.ts), the most a pass minimum takes.
    expect(stretches(log)).toEqual(['a×7', 'b×7', 'a×7', 'b×7', 'a×7', 'b×7']);
    expect(
      cases.map((c) => [
        c.case,
        c.samples.length,
        c.warmup.length,
        c.status === 'ok' && c.stopped,
        c.samplesPerPass,
      ]),
    ).toEqual([
      ['a', 18, 3, 'ci-target', [6, 6, 6]],
      ['b', 18, 3, 'ci-target', [6, 6, 6]],
    ]);
    expect(
      validateResults(runnerResultsDoc('passes', p, cases, order), 'passes.json').cases[0]
        ?.samplesPerPass,
    ).toEqual([6, 6, 6]);
    const starts = events.flatMap((e) =>
      e.type === 'group-start' ? [`${e.case}${e.pass}/${e.passes}`] : [],
    );
    expect(starts).toEqual(['a1/3', 'b1/3', 'a2/3', 'b2/3', 'a3/3', 'b3/3']);
    // Rows are emitted once, after their last pass.
    expect(events.filter((e) => e.type === 'case-end')).toHaveLength(2);
  });

  it('samples a row at its target again in the next pass', async () => {
    // Quiet at 100 in pass 1, then the machine is 30% slower: the row must see that, not keep ±1%.
    const values = [...around(0.5, 6), ...around(1, 400).map((v) => v * 1.3)];
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 30, maxMs: 60_000, passes: 3 };
    const { cases } = await run(
      [suiteOf(scripted('c', { memory: values }))],
      [memoryAdapter],
      plan({ auto, budgetMs: 60_000 }),
    );
    const r = row(cases, 'memory');
    if (r.status !== 'ok') throw new Error(`expected an ok row, got ${r.status}`);
    expect(r.samples.slice(0, 6).every((v) => v < 101)).toBe(true);
    expect(r.samples).toHaveLength(30);
    expect(r.stopped).toBe('iterations');
    // Its interval covers both passes' states.
    expect(r.precision).toBeGreaterThan(0.1);
  });

  it('gives a row whose passes disagree its largest pass again', async () => {
    // 'shifted' is quiet at 100 in pass 1 and twice as slow after; 'noisy' (±10%) never reaches
    // its target. A sample costs 5 ms or more, so the group's share of each pass (about a second)
    // ends the pass. Its shift keeps 'shifted' far the neediest however the two costs come out.
    const values = {
      shifted: [...around(0.5, 7), ...around(0.5, 400).map((v) => v * 2)],
      noisy: around(10),
    };
    const c = scripted('c', values, { setup: () => sleep(5) });
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 1000, maxMs: 60_000, passes: 3 };
    const { cases } = await run(
      [suiteOf(c)],
      [memoryAs('shifted'), memoryAs('noisy')],
      plan({ auto, warmup: 1, budgetMs: 3000 }),
    );
    const shifted = row(cases, 'shifted');
    const noisy = row(cases, 'noisy');
    if (shifted.status !== 'ok' || noisy.status !== 'ok') throw new Error('expected ok rows');
    // Its 6 in pass 1 reached the target; in pass 2 the shift makes it the neediest row, yet it
    // takes 6 while its neighbour takes the pass's time.
    // (In the run's last pass no later group could use what is left, so there it may take more:
    // how much depends on the clock.)
    expect(shifted.samplesPerPass!.slice(0, 2)).toEqual([6, 6]);
    expect(noisy.samplesPerPass![1]).toBeGreaterThan(6);
    expect(shifted.stopped).toBe('budget');
  });

  it('spreads max N over the passes for a row short of its target', async () => {
    // ±40% never narrows to ±2%; a sample costs next to nothing, so only max N (60) stops it.
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 60, maxMs: 60_000, passes: 3 };
    const { cases } = await run(
      [suiteOf(scripted('c', { memory: around(40) }))],
      [memoryAdapter],
      plan({ auto, warmup: 1, budgetMs: 60_000 }),
    );
    const r = row(cases, 'memory');
    expect(r.samplesPerPass).toEqual([20, 20, 20]);
    expect(r.status === 'ok' && r.stopped).toBe('iterations');
  });

  it("takes only a row's pass minimum after a big first pass", async () => {
    // Wide at first, so the first pass samples on until the median's interval narrows.
    const values = [100, 150, 100, 150, 100, 150, ...new Array<number>(400).fill(100)];
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 100, maxMs: 60_000, passes: 3 };
    const { cases } = await run(
      [suiteOf(scripted('c', { memory: values }))],
      [memoryAdapter],
      plan({ auto, budgetMs: 60_000 }),
    );
    const r = row(cases, 'memory');
    const [first, ...later] = r.samplesPerPass ?? [];
    expect(first).toBeGreaterThan(6);
    // At its target, a row this cheap takes the 6 half its share buys, not the first pass's count.
    expect(later).toEqual([6, 6]);
    expect(r.status === 'ok' && r.stopped).toBe('ci-target');
  });

  it("keeps earlier passes' samples when cancelled later", async () => {
    const controller = new AbortController();
    const log: string[] = [];
    const stopping = defineCase<void>({
      id: 'b',
      title: 'b',
      needs: [],
      operations: () => 1,
      run: async () => {
        log.push('b');
        if (log.filter((id) => id === 'b').length === 7) controller.abort();
        return 100;
      },
    });
    const auto = { targetRelCi: 0.02, minN: 6, maxN: 50, maxMs: 60_000, passes: 3 };
    const { cases, cancelled } = await run(
      [suiteOf(logged('a', log), stopping)],
      [memoryAdapter],
      plan({ auto, budgetMs: 60_000 }),
      { signal: controller.signal },
    );
    expect(cancelled).toBe(true);
    // a finished pass 1 (6) and took pass 2's 6; b finished pass 1 and was cut off in pass 2.
    expect(
      cases.map((c) => [c.case, c.status, c.samples.length, c.status === 'ok' && c.stopped]),
    ).toEqual([
      ['a', 'ok', 12, 'cancelled'],
      ['b', 'ok', 6, 'cancelled'],
    ]);
  });
});
