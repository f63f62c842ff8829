// A row's least samples per pass by what it costs against its share of the budget
// (src/core/run/sampling/share.ts). The runner keeping to it, on real time budgets, is in
// share.slow.test.ts.
import { describe, expect, it } from 'vitest';
import {
  ladderPasses,
  passNeed,
  shareClass,
  shareNote,
  spreadPasses,
} from '../../../../../src/core/run/sampling/share.ts';

describe('share - the rule', () => {
  it('spreadPasses: the first, then evenly to the last', () => {
    expect(spreadPasses(1, 6)).toEqual([1]);
    expect(spreadPasses(2, 6)).toEqual([1, 6]);
    expect(spreadPasses(3, 6)).toEqual([1, 4, 6]);
    expect(spreadPasses(3, 12)).toEqual([1, 7, 12]);
    expect(spreadPasses(9, 4)).toEqual([1, 2, 3, 4]);
  });

  it('ladderPasses: rungs that nest, from the first pass', () => {
    expect(ladderPasses(3, 12)).toEqual([1, 5, 9]);
    expect(ladderPasses(4, 12)).toEqual([1, 3, 5, 7, 9, 11]);
    expect(ladderPasses(12, 12)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(ladderPasses(3, 6)).toEqual([1, 3, 5]);
    expect(ladderPasses(3, 3)).toEqual([1, 2, 3]);
    expect(ladderPasses(20, 12)).toHaveLength(12);
    // Any two rows of a comparison share every pass of the sparser one.
    for (const passes of [3, 4, 6, 7, 8, 12, 16])
      for (let a = 3; a <= passes; a++)
        for (let b = a; b <= passes; b++) {
          const sparse = ladderPasses(a, passes);
          const dense = new Set(ladderPasses(b, passes));
          expect(sparse.length).toBeGreaterThanOrEqual(Math.min(a, passes));
          expect(sparse.every((p) => dense.has(p))).toBe(true);
        }
  });

  it('shareClass: by what its minimum costs against its share', () => {
    expect(shareClass({ passes: 6, costMs: null, shareMs: 1000 })).toBe('cheap');
    expect(shareClass({ passes: 6, costMs: 50, shareMs: 1000 })).toBe('cheap'); // 6 × 3 × 50 = 900
    expect(shareClass({ passes: 6, costMs: 60, shareMs: 1000 })).toBe('costly'); // 1,080
    expect(shareClass({ passes: 6, costMs: 8000, shareMs: 1000 })).toBe('costly');
    expect(shareClass({ passes: 6, costMs: 8001, shareMs: 1000 })).toBe('too costly');
  });

  it('passNeed: a cheap, a costly and a too costly row', () => {
    const at = (pass: number, n: number, costMs: number) =>
      passNeed({ passes: 6, pass, n, costMs, shareMs: 1000 });
    // A cheap row's minimum is what half its share pays for in every pass beside a warm-up, 2 to 6.
    expect(at(1, 0, 10)).toEqual({ take: 6 });
    expect(at(1, 0, 20)).toEqual({ take: 3 }); // 500 / (6 × 20) − 1 = 3.2
    expect(at(1, 0, 50)).toEqual({ take: 2 });
    // 3 shares pay for 15 samples of 200 ms: every pass.
    for (const pass of [1, 2, 3, 4, 5, 6]) expect(at(pass, pass - 1, 200)).toEqual({ take: 1 });
    // 3 shares pay for 4 samples of 700 ms: no rung of every 2nd pass has 4, so every pass.
    expect([1, 2, 3, 4, 5, 6].map((pass) => at(pass, 0, 700))).toEqual(Array(6).fill({ take: 1 }));
    // 3 shares pay for 1 sample of 2.5 s: the least, 3 passes (1, 3, 5).
    expect([1, 2, 3, 4, 5, 6].map((pass) => at(pass, 0, 2500))).toEqual([
      { take: 1 },
      'skip',
      { take: 1 },
      'skip',
      { take: 1 },
      'skip',
    ]);
    expect(at(1, 0, 9000)).toEqual({ take: 1 });
    expect(at(3, 1, 9000)).toBe('skip');
    expect(at(6, 1, 9000)).toEqual({ take: 1 });
    expect(at(6, 2, 9000)).toBe('done');
  });

  it("passNeed: with the run's pace", () => {
    const at = (costMs: number, pace: number | undefined, pass = 2) =>
      passNeed({
        passes: 6,
        pass,
        n: 6,
        costMs,
        shareMs: 1000,
        ...(pace === undefined ? {} : { pace }),
      });
    expect(at(10, undefined)).toEqual({ take: 6 });
    expect(at(10, 1)).toEqual({ take: 6 });
    expect(at(10, 0.5)).toEqual({ take: 3 }); // 250 / (6 × 10) − 1 = 3.2
    expect(at(10, 0.2)).toEqual({ take: 2 });
    expect(at(10, 0)).toEqual({ take: 2 });
    // A pace over 1 (time left by other browsers) buys no more than on schedule.
    expect(at(20, 3)).toEqual(at(20, 1));
    // A costly row of 700 ms: every pass on schedule (3 shares pay for 4); at a tenth of the pace,
    // MIN_PASSES on the sparsest rung that has them, every 2nd pass, a subset of every pass.
    expect(at(700, 1)).toEqual({ take: 1 });
    expect(at(700, 0.1)).toBe('skip');
    expect(at(700, 0.1, 3)).toEqual({ take: 1 });
    expect(at(2500, 0.1, 2)).toBe('skip');
    expect(at(2500, 0.1, 3)).toEqual({ take: 1 });
  });
});

// "Costly rows": the note counts the passes a row sampled in, not its samples. A row with 13
// samples in a 12-pass plan read "one in each of 13 passes".
describe('shareNote', () => {
  const share = { sampleMs: 1500, shareMs: 2400 };
  it('13 samples over 12 passes are 13 samples in 12 passes', () => {
    const perPass = [2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    expect(shareNote(share, 13, perPass)).toContain('13 samples in 12 passes');
    expect(shareNote(share, 13, perPass)).not.toContain('each of 13');
  });
  it('one sample in each pass it sampled in, passes it skipped not counted', () => {
    expect(shareNote(share, 4, [1, 0, 1, 0, 1, 0, 1, 0])).toContain('one in each of 4 passes');
  });
});
