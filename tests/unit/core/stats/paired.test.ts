// B against A in one run (src/core/stats/paired.ts): exact values, then simulated runs whose launches
// carry effects every store shares, effects of one row, and effects of one store in one launch. How
// the gate judges B/A is tests/unit/core/verdicts/change.test.ts's and ab.test.ts's.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../../fixtures/random.ts';
import {
  comparisonRatio,
  holmRejects,
  pairedRatioAtEnd,
  pairedRatioAtLook,
  pairOf,
  passLogRatios,
} from '../../../../src/core/stats/paired.ts';
import { studentTQuantile } from '../../../../src/core/stats/distributions.ts';
import { gauss, launchPassLogs } from '../../helpers/simulated-ab.ts';

describe('paired - exact values', () => {
  it('takes each pass median of B over A, skipping passes a side missed', () => {
    const a = { samples: [10, 12, 11, 20, 20, 5], samplesPerPass: [3, 2, 0, 1] };
    const b = { samples: [11, 13, 12, 22, 24, 7, 9], samplesPerPass: [3, 2, 1, 1] };
    expect(passLogRatios(a, b)).toEqual([Math.log(12 / 11), Math.log(23 / 20), Math.log(9 / 5)]);
  });

  it("gives Student's t interval over every pass at the end, and none from one pass", () => {
    const r = pairedRatioAtEnd([0.1, 0.2, 0.3]);
    expect(r?.ratio).toBeCloseTo(Math.exp(0.2), 12);
    // sd 0.1, se 0.1/√3, t(2) = 4.302653
    expect(r?.lo).toBeCloseTo(Math.exp(0.2 - (4.302653 * 0.1) / Math.sqrt(3)), 6);
    expect(r?.hi).toBeCloseTo(Math.exp(0.2 + (4.302653 * 0.1) / Math.sqrt(3)), 6);
    expect(pairedRatioAtEnd([0.1])).toBeNull();
    expect(
      pairOf({ samples: [1], samplesPerPass: [1] }, { samples: [2], samplesPerPass: [1] }),
    ).toBeNull();
  });

  it('is wider at a planned look than at the end: the look spends only its share of alpha', () => {
    const logs = [0.1, 0.2, 0.3, 0.15, 0.25, 0.2];
    const atLook = pairedRatioAtLook(logs, [3, 6]);
    const atEnd = pairedRatioAtEnd(logs);
    expect(atLook?.passes).toBe(6);
    expect(atLook?.ratio).toBeCloseTo(atEnd?.ratio as number, 12);
    expect((atLook?.hi as number) / (atLook?.lo as number)).toBeGreaterThan(
      (atEnd?.hi as number) / (atEnd?.lo as number),
    );
    // t(5) at 1 − 0.05·0.75/2, the last of two looks' share
    const sd = Math.sqrt(logs.reduce((a, x) => a + (x - 0.2) ** 2, 0) / 5);
    expect(Math.log(atLook?.hi as number)).toBeCloseTo(
      0.2 + (studentTQuantile(1 - 0.0375 / 2, 5) * sd) / Math.sqrt(6),
      9,
    );
  });

  it('reads a comparison at the end when both rows sampled to their end', () => {
    const logs = [0.1, 0.2, 0.3, 0.15, 0.25, 0.2];
    const ended = { stopped: 'budget', samplesPerPass: [1, 1, 1, 1, 1, 1] };
    expect(comparisonRatio(logs, [3, 6], ended, ended)).toEqual(pairedRatioAtEnd(logs));
  });

  it('reads a comparison at its look when a row stopped there, or is still sampling', () => {
    const logs = [0.1, 0.2, 0.3, 0.15, 0.25, 0.2];
    const ended = { stopped: 'budget', samplesPerPass: [1, 1, 1, 1, 1, 1] };
    const settled = { stopped: 'settled', samplesPerPass: [1, 1, 1] };
    const sampling = { samplesPerPass: [1, 1, 1, 1, 1, 1] };
    expect(comparisonRatio(logs.slice(0, 3), [3, 6], settled, settled)).toEqual(
      pairedRatioAtLook(logs.slice(0, 3), [3, 6]),
    );
    expect(comparisonRatio(logs, [3, 6], sampling, ended)).toEqual(
      pairedRatioAtLook(logs, [3, 6], 6),
    );
  });

  it('Holm rejects in order while p ≤ α/(m − k), and stops at the first that is not', () => {
    expect(holmRejects([0.01, 0.04, 0.012, 0.5], 0.05)).toEqual([true, false, true, false]);
    expect(holmRejects([0.02, 0.02], 0.05)).toEqual([true, true]);
    expect(holmRejects([0.03, 0.03], 0.05)).toEqual([false, false]);
    expect(holmRejects([], 0.05)).toEqual([]);
  });
});

describe('paired - simulated runs', () => {
  it('covers the true B/A about 95% of the time', () => {
    const rng = createRng(20261125);
    let covered = 0;
    const n = 4000;
    for (let s = 0; s < n; s++) {
      const delta = 0.1 * gauss(rng);
      const r = pairedRatioAtEnd(launchPassLogs(rng, delta));
      if (r && r.lo <= Math.exp(delta) && Math.exp(delta) <= r.hi) covered++;
    }
    expect(covered / n).toBeGreaterThan(0.93);
    expect(covered / n).toBeLessThan(0.97);
  });
});
