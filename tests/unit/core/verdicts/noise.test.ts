// The noise figure: each row's within-pass log-sd, and a run's at its median row. Exact values
// from hand-worked samples, and the property that makes it the noise of samples, not of passes:
// a pass that shifts every one of its samples leaves it unchanged.
import { describe, expect, it } from 'vitest';
import { withinPassLogSd } from '../../../../src/core/stats/stats.ts';
import { formatNoise, runNoise } from '../../../../src/core/verdicts/precision.ts';
import type { CaseResult } from '../../../../src/core/results/results.ts';

describe('noise - a row', () => {
  it('is the standard deviation of the logs about their mean, with n - 1', () => {
    // logs 0, ln 2: mean ln2/2, squares 2·(ln2/2)², df 1 → sd ln2/√2.
    expect(withinPassLogSd([1, 2])).toBeCloseTo(Math.LN2 / Math.SQRT2, 12);
  });

  it('pools passes by their degrees of freedom, each about its own mean', () => {
    const one = withinPassLogSd([1, 2]) as number;
    // The second pass is the first ×10: same deviations, so the pooled figure is the same.
    expect(withinPassLogSd([1, 2, 10, 20], [2, 2])).toBeCloseTo(one, 12);
    // Read as one pass, the shift between them would count as noise.
    expect(withinPassLogSd([1, 2, 10, 20])).toBeGreaterThan(2 * one);
  });

  it('skips passes of one sample and is null with none of two', () => {
    expect(withinPassLogSd([5, 1, 2], [1, 2])).toBeCloseTo(Math.LN2 / Math.SQRT2, 12);
    expect(withinPassLogSd([5, 7], [1, 1])).toBeNull();
    expect(withinPassLogSd([])).toBeNull();
  });

  it('counts every sample: one slow sample in ten raises it', () => {
    const quiet = [10, 10.2, 9.9, 10.1, 10, 9.8, 10.1, 10, 10.2, 9.9];
    const tail = [...quiet.slice(0, 9), 20];
    expect(withinPassLogSd(tail) as number).toBeGreaterThan(
      10 * (withinPassLogSd(quiet) as number),
    );
  });
});

describe('noise - a run', () => {
  const ok = (samples: number[]): CaseResult =>
    ({ status: 'ok', samples, samplesPerPass: undefined }) as unknown as CaseResult;
  it('is the median over the ok rows that have one', () => {
    const rows = [ok([1, 2]), ok([1, 4]), ok([1, 8]), { status: 'error' } as CaseResult, ok([3])];
    const n = runNoise(rows);
    expect(n?.rows).toBe(3);
    expect(n?.logSd).toBeCloseTo((2 * Math.LN2) / Math.SQRT2, 12);
    expect(formatNoise({ logSd: 0.174, rows: 25 })).toBe(
      'within-pass log-sd 0.174 at the median row (of 25): about ±19% per sample',
    );
  });
});
