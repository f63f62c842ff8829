import { describe, expect, it } from 'vitest';
import {
  formatPassDifference,
  passDifference,
  precisionSummary,
} from '../../../../src/core/verdicts/precision.ts';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import { passSpread, summarize } from '../../../../src/core/stats/stats.ts';

/** An ok row whose samples are `passes`, pass by pass. */
function row(adapter: string, passes: number[][]): CaseResult {
  const samples = passes.flat();
  return {
    suite: 'read',
    case: 'get-serial',
    title: 'get',
    adapter,
    size: 100,
    params: {},
    operations: 100,
    status: 'ok',
    reason: null,
    samples,
    warmup: [],
    samplesPerPass: passes.map((p) => p.length),
    stats: summarize(samples),
  };
}

/** Eight samples around `level`, the same spread in every pass. */
const pass = (level: number) => [0.97, 0.98, 0.99, 1, 1, 1.01, 1.02, 1.03].map((f) => level * f);

describe('how far passes differ (precision.passDifference)', () => {
  // passSpread's noise comes from the samples dealt afresh over the passes, so it takes in part of
  // the passes' own effect: passes at ±10% with tight samples read about 7.5%, not 10% (docs/precision.md, "Precise numbers in minutes").
  it('reads passes that move the median by ±10% as a τ of several percent, and passes that agree as 0', () => {
    const moving = row(
      'idb',
      [0.9, 1.1, 0.9, 1.1, 0.9, 1.1].map((f) => pass(10 * f)),
    );
    const steady = row(
      'memory',
      [1, 1, 1, 1, 1, 1].map((f) => pass(10 * f)),
    );
    const moved = passDifference([moving])!;
    expect(moved.tau).toBeGreaterThan(0.06);
    expect(moved.tau).toBeLessThan(0.11);
    expect(passDifference([steady])!.tau).toBe(0);
  });

  it("gives the interval's part from τ alone, 1.96·τ·√w, which shrinks as 1/√passes", () => {
    const six = passDifference([
      row(
        'idb',
        [0.9, 1.1, 0.9, 1.1, 0.9, 1.1].map((f) => pass(10 * f)),
      ),
    ])!;
    const spread = passSpread(
      ...samplesOf(
        row(
          'idb',
          [0.9, 1.1, 0.9, 1.1, 0.9, 1.1].map((f) => pass(10 * f)),
        ),
      ),
    )!;
    expect(six.part).toBeCloseTo(Math.expm1(1.959964 * spread.tau * Math.sqrt(1 / 6)), 6);
    const many = passDifference([
      row(
        'idb',
        Array.from({ length: 24 }, (_, i) => pass(10 * (i % 2 === 0 ? 0.9 : 1.1))),
      ),
    ])!;
    expect(Math.log1p(many.part) / Math.log1p(six.part)).toBeCloseTo(
      (many.tau / six.tau) * Math.sqrt(6 / 24),
      6,
    );
  });

  it('takes the median over rows with passes, and is absent where no row has two', () => {
    const rows = [
      row('a', [pass(10), pass(10)]),
      row('b', [pass(9), pass(11)]),
      row('c', [pass(8), pass(12)]),
    ];
    const d = passDifference(rows)!;
    expect(d.rows).toBe(3);
    expect(d.tau).toBe(passSpread(...samplesOf(rows[1]!))!.tau);
    const onePass = { ...row('d', [pass(10)]), samplesPerPass: undefined };
    expect(passDifference([onePass])).toBeNull();
    expect(precisionSummary([onePass]).passes).toBeNull();
  });

  it('says what τ is, what it makes of the interval, and what narrows it', () => {
    expect(formatPassDifference({ tau: 0.0761, part: 0.0449, rows: 94 })).toBe(
      'passes differ by τ 7.6% (median over rows, a standard deviation): ±4.5% of an interval, which only more passes narrow',
    );
    expect(formatPassDifference({ tau: 0, part: 0, rows: 94 })).toBe(
      "passes differ by no more than their samples' noise (τ 0 at the median over rows): more samples narrow an interval",
    );
  });
});

function samplesOf(r: CaseResult): [number[], number[]] {
  return [r.samples, r.samplesPerPass!];
}
