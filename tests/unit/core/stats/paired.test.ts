// B against A in one run (src/core/stats/paired.ts): exact values, then simulated runs whose launches
// carry effects every store shares, effects of one row, and effects of one store in one launch.
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../../../fixtures/random.ts';
import {
  abVerdict,
  holmRejects,
  pairedRatio,
  pairOf,
  passLogRatios,
  slowerPValue,
} from '../../../../src/core/stats/paired.ts';

const gauss = (rng: Rng) =>
  Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

describe('paired - exact values', () => {
  it('takes each pass median of B over A, skipping passes a side missed', () => {
    const a = { samples: [10, 12, 11, 20, 20, 5], samplesPerPass: [3, 2, 0, 1] };
    const b = { samples: [11, 13, 12, 22, 24, 7, 9], samplesPerPass: [3, 2, 1, 1] };
    expect(passLogRatios(a, b)).toEqual([Math.log(12 / 11), Math.log(23 / 20), Math.log(9 / 5)]);
  });

  it("gives Student's t interval over passes, and none from one pass", () => {
    const r = pairedRatio([0.1, 0.2, 0.3]);
    expect(r?.ratio).toBeCloseTo(Math.exp(0.2), 12);
    // sd 0.1, se 0.1/√3, t(2) = 4.302653
    expect(r?.lo).toBeCloseTo(Math.exp(0.2 - (4.302653 * 0.1) / Math.sqrt(3)), 6);
    expect(r?.hi).toBeCloseTo(Math.exp(0.2 + (4.302653 * 0.1) / Math.sqrt(3)), 6);
    expect(pairedRatio([0.1])).toBeNull();
    expect(
      pairOf({ samples: [1], samplesPerPass: [1] }, { samples: [2], samplesPerPass: [1] }),
    ).toBeNull();
  });

  it('says slower, faster, same or unsure by where the whole interval lies against ±threshold', () => {
    const at = (lo: number, hi: number) => ({
      ratio: Math.sqrt(lo * hi),
      lo,
      hi,
      passes: 5,
      logMean: 0,
      logSd: 0,
      look: 0,
      looks: 1,
    });
    expect(abVerdict(at(1.06, 1.2), 5)).toBe('slower');
    expect(abVerdict(at(0.8, 0.94), 5)).toBe('faster');
    expect(abVerdict(at(0.96, 1.04), 5)).toBe('same');
    expect(abVerdict(at(0.99, 1.07), 5)).toBe('unsure');
    expect(abVerdict(at(0.9, 1.1), 5)).toBe('unsure');
    expect(abVerdict(null, 5)).toBe('unsure');
  });

  it('Holm rejects in order while p ≤ α/(m − k), and stops at the first that is not', () => {
    expect(holmRejects([0.01, 0.04, 0.012, 0.5], 0.05)).toEqual([true, false, true, false]);
    expect(holmRejects([0.02, 0.02], 0.05)).toEqual([true, true]);
    expect(holmRejects([0.03, 0.03], 0.05)).toEqual([false, false]);
    expect(holmRejects([], 0.05)).toEqual([]);
  });
});

/**
 * One simulated pair over `passes` launches, `k` pairs of samples in each, B/A truly exp(delta).
 * Each launch moves every store (shared, sd 8%), this row (sd 5%) and each store of it on its own
 * (sd 3%); a sample has lognormal noise (sd 10%) and, one time in ten, a stall of up to +50%.
 */
function simulatedPair(rng: Rng, delta: number, passes = 7, k = 4) {
  const a = { samples: [] as number[], samplesPerPass: [] as number[] };
  const b = { samples: [] as number[], samplesPerPass: [] as number[] };
  for (let p = 0; p < passes; p++) {
    const launch = 0.08 * gauss(rng) + 0.05 * gauss(rng);
    const ea = launch + 0.03 * gauss(rng);
    const eb = launch + 0.03 * gauss(rng) + delta;
    const sample = (level: number) =>
      Math.exp(level + 0.1 * gauss(rng)) * (rng.next() < 0.1 ? 1 + 0.5 * rng.next() : 1);
    for (let i = 0; i < k; i++) {
      a.samples.push(10 * sample(ea));
      b.samples.push(10 * sample(eb));
    }
    a.samplesPerPass.push(k);
    b.samplesPerPass.push(k);
  }
  return passLogRatios(a, b);
}

describe('paired - simulated runs', () => {
  it('covers the true B/A about 95% of the time', () => {
    const rng = createRng(20261125);
    let covered = 0;
    const n = 4000;
    for (let s = 0; s < n; s++) {
      const delta = 0.1 * gauss(rng);
      const r = pairedRatio(simulatedPair(rng, delta));
      if (r && r.lo <= Math.exp(delta) && Math.exp(delta) <= r.hi) covered++;
    }
    expect(covered / n).toBeGreaterThan(0.93);
    expect(covered / n).toBeLessThan(0.97);
  });

  it('calls identical code slower in at most 5% of runs of 20 rows, also with every row at the threshold', () => {
    const rng = createRng(7);
    const runs = 1000;
    let aaAlarms = 0;
    let edgeAlarms = 0;
    for (let run = 0; run < runs; run++) {
      const aa = Array.from({ length: 20 }, () => slowerPValue(simulatedPair(rng, 0), 5));
      const edge = Array.from({ length: 20 }, () =>
        slowerPValue(simulatedPair(rng, Math.log(1.05)), 5),
      );
      if (holmRejects(aa).some(Boolean)) aaAlarms++;
      if (holmRejects(edge).some(Boolean)) edgeAlarms++;
    }
    expect(aaAlarms / runs).toBeLessThanOrEqual(0.05);
    expect(edgeAlarms / runs).toBeLessThanOrEqual(0.05);
  });

  it('finds a row 20% slower among 19 unchanged ones in most runs of 10 launches of 10 pairs', () => {
    const rng = createRng(11);
    let found = 0;
    const runs = 300;
    for (let run = 0; run < runs; run++) {
      const ps = [
        slowerPValue(simulatedPair(rng, Math.log(1.2), 10, 10), 5),
        ...Array.from({ length: 19 }, () => slowerPValue(simulatedPair(rng, 0, 10, 10), 5)),
      ];
      if (holmRejects(ps)[0]) found++;
    }
    expect(found / runs).toBeGreaterThan(0.5);
  });
});
