import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import { summarize } from '../../../../src/core/stats/stats.ts';
import {
  factorToFastest,
  factorWhy,
  fastestByGroup,
  formatFactor,
  formatMeans,
  geometricMeans,
  groupKey,
  rowKey,
} from '../../../../src/core/verdicts/fastest.ts';

type OkRow = Extract<CaseResult, { status: 'ok' }>;

/** An ok row of `samples`, one pass, of insert/bulk at 100 documents unless `kase` says otherwise. */
function ok(adapter: string, samples: number[], kase = 'bulk'): OkRow {
  return {
    suite: 'insert',
    case: kase,
    title: kase,
    adapter,
    size: 100,
    params: {},
    operations: 100,
    status: 'ok',
    reason: null,
    samples,
    warmup: [],
    stats: summarize(samples),
  };
}

const steady = (ms: number) => Array.from({ length: 12 }, (_, i) => ms * (1 + 0.01 * (i % 3)));

describe('fastest - keys', () => {
  it('group rows of one case at one size, whatever their store', () => {
    expect(groupKey(ok('idb', [1]))).toBe(groupKey(ok('memory', [2])));
    expect(groupKey(ok('idb', [1]))).not.toBe(groupKey(ok('idb', [1], 'serial')));
  });

  it('cannot be made alike by names that hold a slash', () => {
    const a = { suite: 'a/b', case: 'c', size: 1 };
    const b = { suite: 'a', case: 'b/c', size: 1 };
    expect(groupKey(a)).not.toBe(groupKey(b));
  });

  it('tell one row of a group by its store', () => {
    expect(rowKey(ok('idb', [1]))).not.toBe(rowKey(ok('memory', [1])));
    expect(rowKey(ok('idb', [1])).startsWith(groupKey(ok('idb', [1])))).toBe(true);
  });
});

describe('fastest - fastestByGroup', () => {
  it('takes the least median of each group', () => {
    const rows = [ok('idb', steady(4)), ok('memory', steady(1)), ok('dexie', steady(3), 'serial')];
    const best = fastestByGroup(rows);
    expect(best.get(groupKey(rows[0]!))?.adapter).toBe('memory');
    expect(best.get(groupKey(rows[2]!))?.adapter).toBe('dexie');
  });

  it('passes over a 0 ms median, which no time can be compared with', () => {
    const best = fastestByGroup([ok('memory', [0, 0, 0]), ok('idb', steady(2))]);
    expect([...best.values()].map((r) => r.adapter)).toEqual(['idb']);
  });
});

describe('fastest - factorToFastest', () => {
  it('is ×1.00 for the fastest row itself, with no interval', () => {
    const memory = ok('memory', steady(1));
    expect(formatFactor(factorToFastest(memory, memory, null))).toBe('×1.00');
    expect(factorWhy(factorToFastest(memory, memory, null))).toBe('the fastest store');
  });

  it("takes an interval from each median's own where the rows share no passes", () => {
    const f = factorToFastest(ok('idb', steady(4)), ok('memory', steady(1)), null);
    expect(f.method).toBe('unpaired');
    expect(f.value).toBeCloseTo(4, 12);
    expect(f.interval!.lo).toBeLessThan(4);
    expect(f.interval!.hi).toBeGreaterThan(4);
  });

  it('is the ratio of the medians alone where a median has no interval (too few samples)', () => {
    const f = factorToFastest(ok('idb', [4, 4, 4]), ok('memory', steady(1)), null);
    expect(f).toEqual({
      value: 4 / ok('memory', steady(1)).stats.median,
      interval: null,
      method: 'medians',
    });
    expect(factorWhy(f)).toBe('the ratio of the two medians; no interval (too few samples)');
  });
});

describe('fastest - formatFactor', () => {
  it('rounds to two decimals under 10, one under 100, none above', () => {
    const at = (value: number, lo: number, hi: number) =>
      formatFactor({ value, interval: { lo, hi }, method: 'unpaired' });
    expect(at(3.416, 3.1, 3.804)).toBe('×3.42 [3.10, 3.80]');
    expect(at(11.54, 9.99, 13.2)).toBe('×11.5 [9.99, 13.2]');
    expect(at(115.4, 98.21, 131.4)).toBe('×115 [98.2, 131]');
  });

  it('says ×- where there is no number', () => {
    expect(formatFactor({ value: NaN, interval: null, method: 'medians' })).toBe('×-');
  });

  it('lists geometric means rounded as a factor is', () => {
    expect(formatMeans([{ adapter: 'idb', factor: 11.54, cases: 2 }])).toBe('idb ×11.5 (2)');
  });
});

describe('fastest - geometricMeans', () => {
  it('averages each store’s factor to the fastest as a geometric mean, over the cases it ran, fastest store first', () => {
    const medians = new Map([
      [
        'insert/bulk/100',
        new Map([
          ['memory', 1],
          ['idb', 4],
          ['dexie', 2],
        ]),
      ],
      [
        'read/all/100',
        new Map([
          ['memory', 2],
          ['idb', 2],
        ]),
      ],
    ]);
    const means = geometricMeans(medians);
    expect(means.map((m) => m.adapter)).toEqual(['memory', 'idb', 'dexie']);
    expect(means[0]).toEqual({ adapter: 'memory', factor: 1, cases: 2 });
    // idb: ×4 and ×1 → √4 = ×2, where an arithmetic mean would say ×2.5.
    expect(means[1]!.factor).toBeCloseTo(2, 12);
    expect(means[2]).toEqual({ adapter: 'dexie', factor: 2, cases: 1 });
  });

  it('against a reference store instead, over the cases it ran, leaving it out (the IndexedDB floor)', () => {
    const medians = new Map([
      [
        'insert/bulk/100',
        new Map([
          ['indexeddb-raw', 2],
          ['idb', 2.2],
          ['pouchdb-idb', 8],
        ]),
      ],
      [
        'read/all/100',
        new Map([
          ['indexeddb-raw', 1],
          ['idb', 1.1],
          ['pouchdb-idb', 2],
        ]),
      ],
      ['views/temp/100', new Map([['pouchdb-idb', 50]])],
    ]);
    const means = geometricMeans(medians, 'indexeddb-raw');
    expect(means.map((m) => [m.adapter, m.cases])).toEqual([
      ['idb', 2],
      ['pouchdb-idb', 2],
    ]);
    expect(means[0]!.factor).toBeCloseTo(1.1, 12);
    expect(means[1]!.factor).toBeCloseTo(Math.sqrt(8), 12);
    expect(geometricMeans(new Map([['a/b/1', new Map([['idb', 1]])]]), 'indexeddb-raw')).toEqual(
      [],
    );
  });
});
