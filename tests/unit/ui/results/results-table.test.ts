import { describe, expect, it } from 'vitest';
import { geometricMeans } from '../../../../src/ui/results/results-table.ts';

describe('results table - factor summary', () => {
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
