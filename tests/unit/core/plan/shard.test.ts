import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../src/adapters/memory.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import { parsePlan } from '../../../../src/core/plan/fields.ts';
import { planFieldsFromQuery, planToQuery } from '../../../../src/core/plan/url.ts';
import { validateResults } from '../../../../src/core/results/recompute.ts';
import { runPlan } from '../../../../src/core/run/runner.ts';
import {
  formatShard,
  parseShard,
  selectShard,
  ShardError,
  type Shard,
} from '../../../../src/core/plan/shard.ts';
import { insertSuite } from '../../../../suites/insert.ts';
import { sampleResults } from '../../../sample-results.ts';

const vocab = { suites: ['insert'], adapters: ['memory'], fixtures: ['person'] };

/** Groups as the runner builds them: suite → case → size, sizes in plan order. */
const groups = (cases: string[], sizes: number[]) =>
  cases.flatMap((c) => sizes.map((size) => ({ c, size })));
const key = (g: { c: string; size: number }) => `${g.c}@${g.size}`;
const shards = (count: number): Shard[] =>
  Array.from({ length: count }, (_, i) => ({ index: i + 1, count }));

describe('parseShard', () => {
  it('reads i/n, 1-based, with spaces allowed', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(formatShard({ index: 3, count: 8 })).toBe('3/8');
  });

  it('refuses what is not a shard, saying what is allowed', () => {
    expect(() => parseShard('0/4')).toThrow(ShardError);
    expect(() => parseShard('0/4')).toThrow(
      '"0/4": shard 0 does not exist; allowed: 1 to 4 (shards count from 1)',
    );
    expect(() => parseShard('5/4')).toThrow('shard 5 does not exist; allowed: 1 to 4');
    expect(() => parseShard('1/0')).toThrow(
      'the shard count 0 is out of range; allowed: 1 to 1000',
    );
    expect(() => parseShard('1/1001')).toThrow('the shard count 1001 is out of range');
    expect(() => parseShard('2')).toThrow(
      '"2" is not i/n; write e.g. 2/4 for the second of four shards',
    );
    expect(() => parseShard('-1/4')).toThrow('is not i/n');
  });
});

describe('selectShard', () => {
  const all = groups(
    ['serial', 'bulk', 'chunked-10', 'order-random', 'order-ascending'],
    [100, 1000, 10],
  );

  it('puts every group in exactly one shard', () => {
    for (let count = 1; count <= all.length + 2; count++) {
      const picked = shards(count).flatMap((s) => selectShard(all, s, (g) => g.size).map(key));
      expect(picked.sort(), `count ${count}`).toEqual(all.map(key).sort());
    }
  });

  it("keeps the plan's order inside a shard", () => {
    const a = selectShard(all, { index: 2, count: 3 }, (g) => g.size);
    const b = selectShard([...all], { index: 2, count: 3 }, (g) => g.size);
    expect(a).toEqual(b);
    const positions = a.map((g) => all.indexOf(g));
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
  });

  it('deals each size round-robin', () => {
    const two = groups(['serial', 'bulk', 'chunked-10', 'order-random'], [100, 1000]);
    for (const s of shards(2)) {
      const mine = selectShard(two, s, (g) => g.size);
      expect(mine.filter((g) => g.size === 100)).toHaveLength(2);
      expect(mine.filter((g) => g.size === 1000)).toHaveLength(2);
    }
    // Exactly: the canonical order is size 10, then 100, then 1000, plan order within each size.
    expect(selectShard(all, { index: 1, count: 4 }, (g) => g.size).map(key)).toEqual([
      'serial@10',
      'chunked-10@1000',
      'order-random@100',
      'order-ascending@10',
    ]);
  });

  it('gives an empty shard when there are more shards than groups', () => {
    expect(selectShard(all.slice(0, 2), { index: 3, count: 3 }, (g) => g.size)).toEqual([]);
  });

  it('gives the whole list without a shard, or with 1/1', () => {
    expect(selectShard(all, undefined, (g) => g.size)).toEqual(all);
    expect(selectShard(all, { index: 1, count: 1 }, (g) => g.size)).toEqual(all);
  });
});

describe('shard - in the plan and the results', () => {
  it('travels in the plan and its URL query', () => {
    const plan = parsePlan({ suites: 'insert', shard: '3/4' }, vocab);
    expect(plan.shard).toEqual({ index: 3, count: 4 });
    const query = planToQuery(plan);
    expect(query.get('shard')).toBe('3/4');
    expect(parsePlan(planFieldsFromQuery(new URLSearchParams(query.toString())), vocab)).toEqual(
      plan,
    );
  });

  it('reads 1/1 as no shard, and refuses a shard past the count', () => {
    expect(parsePlan({ shard: '1/1' }, vocab)).not.toHaveProperty('shard');
    expect(() => parsePlan({ shard: '4/3' }, vocab)).toThrow(
      'shard: "4/3": shard 4 does not exist; allowed: 1 to 3',
    );
  });

  it('is checked in a results file', () => {
    const doc = sampleResults();
    doc.run.plan.shard = { index: 2, count: 2 };
    expect(validateResults(doc).run.plan.shard).toEqual({ index: 2, count: 2 });
    doc.run.plan.shard = { index: 3, count: 2 };
    expect(() => validateResults(doc, 'x.json')).toThrow(
      'x.json: $.run.plan.shard.index: is 3, beyond the shard count 2',
    );
    (doc.run.plan as { shard: unknown }).shard = { index: 0, count: 2 };
    expect(() => validateResults(doc, 'x.json')).toThrow(
      'x.json: $.run.plan.shard.index: expected a whole number >= 1, got number 0',
    );
  });

  it('runs only its rows; the shards together run the plan', async () => {
    const plan: Plan = {
      ...DEFAULT_PLAN,
      suites: ['insert'],
      adapters: ['memory'],
      sizes: [5, 10],
      iterations: 1,
      warmup: 0,
      params: { chunkSizes: [1, 5] },
    };
    const rowKey = (r: { case: string; size: number }) => `${r.case}@${r.size}`;
    const whole = await runPlan({
      plan,
      suites: [insertSuite],
      adapters: [memoryAdapter],
      runId: 'shard-whole',
    });
    const parts = [];
    for (const shard of shards(3)) {
      const rowsTotal: number[] = [];
      const out = await runPlan({
        plan: { ...plan, shard },
        suites: [insertSuite],
        adapters: [memoryAdapter],
        runId: `shard-${shard.index}`,
        onEvent: (e) => e.type === 'run-start' && rowsTotal.push(e.rows),
      });
      expect(rowsTotal).toEqual([out.cases.length]);
      parts.push(out.cases.map(rowKey));
    }
    expect(parts.every((p) => p.length > 0)).toBe(true);
    expect(parts.flat().sort()).toEqual(whole.cases.map(rowKey).sort());
    expect(new Set(parts.flat()).size).toBe(whole.cases.length);
  });
});
