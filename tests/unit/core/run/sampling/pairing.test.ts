// The runner with --ab (plan.ab): A's and B's rows of a case sample as one pair, on the real
// memory store under two ids, with case bodies whose times are given per store.
import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../../src/core/store/adapter.ts';
import { pairOf } from '../../../../../src/core/stats/paired.ts';
import type { Plan } from '../../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../../src/core/plan/defaults.ts';
import type { CaseResult } from '../../../../../src/core/results/results.ts';
import { runPlan, type RunEvent } from '../../../../../src/core/run/runner.ts';
import { defineCase, type BenchCase, type Suite } from '../../../../../src/core/store/suite.ts';

const auto = { targetRelCi: 0.001, minN: 6, maxN: 40, maxMs: 60_000, passes: 4 };
const plan = (over: Partial<Plan> = {}): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['t'],
  adapters: ['a', 'b'],
  sizes: [10],
  warmup: 1,
  auto,
  budgetMs: 4_000,
  ab: { thresholdPct: 5 },
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

/** A case whose sample is 10 ms on A and 12 ms on B, ±1% alternating; it may fail on B from its `failAt`-th run. */
function timed(id: string, failAt = Infinity) {
  let runsOfB = 0;
  return defineCase({
    id,
    title: id,
    needs: [],
    operations: () => 1,
    async run(ctx) {
      if (ctx.adapter.id === 'b' && ++runsOfB >= failAt) throw new Error('disk on fire');
      const base = ctx.adapter.id === 'a' ? 10 : 12;
      return base * (ctx.rng.next() < 0.5 ? 0.99 : 1.01);
    },
  });
}

async function abRun(cases: BenchCase[], p = plan()) {
  const events: RunEvent[] = [];
  const out = await runPlan({
    plan: p,
    suites: [suiteOf(...cases)],
    adapters: [memoryAs('a'), memoryAs('b')],
    runId: 'ab',
    onEvent: (e) => events.push(e),
    cleanupTimeoutMs: 500,
  });
  return { ...out, events };
}

const rowOf = (cases: CaseResult[], adapter: string) =>
  cases.find((c) => c.adapter === adapter) as CaseResult;

describe('pairing - A against B', () => {
  it('reads a second-slot penalty as no difference (balanced order)', async () => {
    // The same store on both sides (X against X@twin); whichever side goes second in a round is
    // slowed by what the first left behind. Only the order can then make A and B differ.
    let calls = 0;
    const positional = defineCase({
      id: 'p',
      title: 'p',
      needs: [],
      operations: () => 1,
      run: (ctx) =>
        Promise.resolve(
          10 * (calls++ % 2 === 1 ? 1.1 : 1) * (ctx.rng.next() < 0.5 ? 0.995 : 1.005),
        ),
    });
    const { cases, order } = await abRun([positional]);
    const a = rowOf(cases, 'a');
    const b = rowOf(cases, 'b');
    const rounds = order[0]?.rounds ?? [];
    expect(rounds.every((r) => r.length === 2)).toBe(true);
    const r = pairOf(a, b);
    expect(r).not.toBeNull();
    expect(r!.lo).toBeLessThanOrEqual(1);
    expect(r!.hi).toBeGreaterThanOrEqual(1);
    // No bias beyond its interval, and the interval itself within ±5%: the verdict is same.
    expect(r!.lo).toBeGreaterThan(0.95);
    expect(r!.hi).toBeLessThan(1.05);
  });

  it('samples A and B in adjacent, balanced slots, stopping together', async () => {
    const { cases, order } = await abRun([timed('c')]);
    const a = rowOf(cases, 'a');
    const b = rowOf(cases, 'b');
    expect(a.status).toBe('ok');
    expect(b.status).toBe('ok');
    // Every round holds both, AB or BA; each order about as often as the other.
    const rounds = order[0]?.rounds ?? [];
    expect(rounds.length).toBeGreaterThan(8);
    for (const r of rounds) expect([...r].sort()).toEqual(['a', 'b']);
    const ab = rounds.filter((r) => r[0] === 'a').length;
    expect(Math.abs(ab - (rounds.length - ab))).toBeLessThanOrEqual(1);
    // The same samples in each pass on both sides, and the same stop; an even count in every
    // pass, so each pass holds as many AB rounds as BA.
    expect(a.samplesPerPass).toEqual(b.samplesPerPass);
    expect(a.samplesPerPass).toHaveLength(4);
    expect(a.samplesPerPass?.every((k) => k % 2 === 0)).toBe(true);
    if (a.status === 'ok' && b.status === 'ok') expect(a.stopped).toBe(b.stopped);
    const r = pairOf(a, b);
    expect(r?.ratio).toBeCloseTo(1.2, 2);
    // Every pass reads exactly 1.2 here, so the interval may close on it; it must still hold it.
    expect(r?.lo).toBeLessThanOrEqual(1.2);
    expect(r?.hi).toBeGreaterThanOrEqual(1.2);
  });

  it('fails the other side when one side fails', async () => {
    const { cases } = await abRun([timed('c', 5)]);
    expect(rowOf(cases, 'b')).toMatchObject({
      status: 'error',
      reason: expect.stringContaining('disk on fire'),
    });
    expect(rowOf(cases, 'a')).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(/^not compared: the other side of the pair, b, failed/),
    });
  });

  it('fails both sides as error when one fails to load', async () => {
    // supported() is where a store's build is imported (library.ts); a build that throws as it
    // loads makes it throw. Stands in for a real broken build, which the sweep's e2e test builds.
    const broken = memoryAs('b', {
      supported: () => {
        throw new Error('boom');
      },
    });
    const out = await runPlan({
      plan: plan(),
      suites: [suiteOf(timed('c'))],
      adapters: [memoryAs('a'), broken],
      runId: 'ab',
      cleanupTimeoutMs: 500,
    });
    expect(rowOf(out.cases, 'b')).toMatchObject({
      status: 'error',
      reason: 'failed to load (supported() threw): boom',
    });
    expect(rowOf(out.cases, 'a')).toMatchObject({
      status: 'error',
      reason:
        'not compared: the other side of the pair, b, failed to load (supported() threw): boom',
    });
  });

  it('runs a row alone where the other store cannot', async () => {
    const needsBulk = defineCase({
      id: 'bulk-only',
      title: 'bulk',
      needs: ['bulkWrite'],
      operations: () => 1,
      run: async (ctx) => ctx.handle.bulkPut([]),
    });
    const out = await runPlan({
      plan: plan(),
      suites: [suiteOf(needsBulk)],
      adapters: [memoryAs('a'), memoryAs('b', { capabilities: [] })],
      runId: 'ab',
      cleanupTimeoutMs: 500,
    });
    expect(rowOf(out.cases, 'a')).toMatchObject({
      status: 'unsupported',
      reason: '--ab: b cannot run this case, so a has nothing to be compared with',
    });
    expect(rowOf(out.cases, 'b').status).toBe('unsupported');
  });
});

describe('pairing - B/A in the results file', () => {
  it("records each case's B/A, recomputed by every reader", async () => {
    const { runnerResultsDoc } = await import('../../../helpers/runner-doc.ts');
    const { validateResults } = await import('../../../../../src/core/results/recompute.ts');
    const p = plan();
    const out = await abRun([timed('c')], p);
    const doc = runnerResultsDoc(
      'ab',
      p,
      out.cases,
      out.order,
    ) as import('../../../../../src/core/results/results.ts').ResultsFile;
    expect(doc.ab?.a).toBe('a');
    expect(doc.ab?.b).toBe('b');
    expect(doc.ab?.rows).toHaveLength(1);
    const row = doc.ab?.rows[0];
    expect(row?.verdict).toBe('slower');
    expect(row?.ratio?.ratio).toBeCloseTo(1.2, 2);
    // A file that claims otherwise is read as its samples say.
    const forged = JSON.parse(JSON.stringify(doc)) as typeof doc;
    forged.ab!.rows[0]!.verdict = 'same';
    forged.ab!.rows[0]!.ratio!.ratio = 1;
    const read = validateResults(forged, 'forged.json');
    expect(read.ab?.rows[0]?.verdict).toBe('slower');
    expect(read.ab?.rows[0]?.ratio?.ratio).toBeCloseTo(1.2, 2);
  });
});
