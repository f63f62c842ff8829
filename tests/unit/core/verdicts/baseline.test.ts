import { describe, expect, it } from 'vitest';
import {
  baselineRows,
  checkBaseline,
  decided,
  matchBaseline,
} from '../../../../src/core/verdicts/baseline.ts';
import { median, medianCi, summarize } from '../../../../src/core/stats/stats.ts';
import { sampleResults } from '../../../sample-results.ts';

const BASE = [9.6, 10.2, 9.9, 10.4, 10, 9.7, 10.1, 10.3, 9.8, 10];

function baseFile() {
  const r = sampleResults();
  const row = r.cases[0]!;
  if (row.status !== 'ok') throw new Error('sample row 0 is ok');
  row.samples = BASE;
  row.stats = summarize(BASE);
  return r;
}

describe('baseline - the rows a run samples against', () => {
  it('takes the ok rows with an interval of the browser being run, and matches them like compare', () => {
    const rows = baselineRows([baseFile()], 'chromium');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      suite: 'insert',
      case: 'bulk',
      adapter: 'idb',
      size: 100,
      median: 10,
    });
    expect(baselineRows([baseFile()], 'firefox')).toEqual([]);
    const id = { suite: 'insert', case: 'bulk', adapter: 'idb', size: 100, params: {} };
    expect(matchBaseline(rows, id)).toBe(rows[0]);
    expect(matchBaseline(rows, { ...id, size: 1000 })).toBeUndefined();
  });

  it('is decided when the interval of the change is clear of the threshold, either way, and not while it straddles it', () => {
    const [row] = baselineRows([baseFile()], 'chromium');
    const now = (xs: number[]) => ({ median: median(xs), ci: medianCi(xs) });
    expect(decided(now(BASE.map((x) => x * 1.5)), row!, 5)).toBe(true); // clearly slower beyond 5%
    expect(decided(now(BASE), row!, 5)).toBe(true); // the same: the interval stays below +5%
    expect(decided(now(BASE.map((x) => x * 1.05)), row!, 5)).toBe(false); // right at the threshold
    expect(decided(now([10, 10, 10]), row!, 5)).toBe(false); // no interval yet
  });

  it('is decided net of the shift every row shares: +26% with a +20% shift is +5% and undecided, +20% is the same', () => {
    const [row] = baselineRows([baseFile()], 'chromium');
    const now = (xs: number[]) => ({ median: median(xs), ci: medianCi(xs) });
    const shift = { y: Math.log(1.2), se: 0.005 };
    expect(decided(now(BASE.map((x) => x * 1.26)), row!, 5)).toBe(true);
    expect(decided(now(BASE.map((x) => x * 1.26)), row!, 5, shift)).toBe(false);
    expect(decided(now(BASE.map((x) => x * 1.2)), row!, 5, shift)).toBe(true);
    // The shift's own uncertainty counts: a wide one leaves the same row undecided.
    expect(decided(now(BASE.map((x) => x * 1.2)), row!, 5, { ...shift, se: 0.05 })).toBe(false);
  });

  it('checks what arrives over the wire', () => {
    expect(() => checkBaseline({ thresholdPct: 5, rows: [{ suite: 'insert' }] })).toThrow(
      'baseline: rows[0]: expected {suite, case, adapter, size, params, median, ci: {lo, hi}}',
    );
    expect(() => checkBaseline(null)).toThrow('baseline: expected an object');
    expect(checkBaseline({ thresholdPct: 5, rows: [] })).toEqual({ thresholdPct: 5, rows: [] });
  });
});
