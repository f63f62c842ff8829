// Planned looks (src/core/stats/sequential.ts): the boundaries and their coverage over simulated
// rows. The gate's rule over whole simulated runs is tests/unit/core/verdicts/ab.test.ts's.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../../fixtures/random.ts';
import { gauss, report } from '../../helpers/simulated-ab.ts';
import { studentTQuantile } from '../../../../src/core/stats/distributions.ts';
import {
  lookWeights,
  plannedLooks,
  repeatedInterval,
} from '../../../../src/core/stats/sequential.ts';

describe('sequential - looks', () => {
  it('spends alpha by t² over looks evenly spaced from 3 passes, the last after every pass', () => {
    expect(plannedLooks(12)).toEqual([3, 6, 9, 12]);
    expect(plannedLooks(9)).toEqual([3, 5, 7, 9]);
    expect(plannedLooks(4)).toEqual([3, 4]);
    expect(plannedLooks(12, 1)).toEqual([12]);
    const w = lookWeights([3, 6, 9, 12]);
    expect(w.map((x) => Number(x.toFixed(4)))).toEqual([0.0625, 0.1875, 0.3125, 0.4375]);
    expect(w.reduce((a, b) => a + b)).toBeCloseTo(1, 12);
    expect(lookWeights([12])).toEqual([1]);
  });

  it("is Student's t at each look's share of alpha, and none before the first look", () => {
    expect(repeatedInterval([0.1, 0.2], [3, 6])).toBeNull();
    const one = repeatedInterval([0.1, 0.2, 0.3], [3]);
    // sd 0.1, se 0.1/√3, t(2) at 97.5% = 4.302653
    expect(one?.hi).toBeCloseTo(0.2 + (4.302653 * 0.1) / Math.sqrt(3), 5);
    // At the first of looks [3, 6], which spends a quarter of 5%: t(2) at 1 − 0.00625 = 8.860
    const first = repeatedInterval([0.1, 0.2, 0.3, 0.5], [3, 6]);
    expect(first?.passes).toBe(3);
    expect(first?.hi).toBeCloseTo(
      0.2 + (studentTQuantile(1 - (0.05 * 0.25) / 2, 2) * 0.1) / Math.sqrt(3),
      9,
    );
    expect(studentTQuantile(1 - (0.05 * 0.25) / 2, 2)).toBeCloseTo(8.86, 2);
  });
});

describe('sequential - coverage', () => {
  it('covers the true ratio at every look at once in about 95% of 4,000 rows, with shared launch effects', () => {
    const rng = createRng(44);
    const looks = plannedLooks(12);
    const rows = 4000;
    let covered = 0;
    for (let i = 0; i < rows; i++) {
      const theta = 0.2 * gauss(rng);
      // Per launch: an effect both rows share (sd 8%, cancels in the ratio), one of each row (sd 4%), and the median of 4 noisy samples.
      const logs: number[] = [];
      for (let p = 0; p < 12; p++) {
        const shared = 0.08 * gauss(rng);
        const side = (extra: number) => {
          const xs = Array.from(
            { length: 4 },
            () => shared + extra + 0.04 * gauss(rng) + 0.1 * gauss(rng),
          );
          return xs.sort((a, b) => a - b)[2] as number;
        };
        logs.push(side(theta) - side(0));
      }
      const all = looks.every((n) => {
        const r = repeatedInterval(logs.slice(0, n), looks);
        return r !== null && r.lo <= theta && theta <= r.hi;
      });
      if (all) covered++;
    }
    report(`repeated intervals: all looks cover the truth in ${covered} of ${rows}`);
    expect(covered / rows).toBeGreaterThan(0.935);
    expect(covered / rows).toBeLessThan(0.99);
  });

  it("covers the true ratio at the run's last look in about 95% of 4,000 rows that skip passes for what they cost or lose the last to the budget", () => {
    const rng = createRng(45);
    const looks = plannedLooks(12);
    const rows = 4000;
    let covered = 0;
    const widths = { byRun: 0, byCount: 0 };
    for (let i = 0; i < rows; i++) {
      const theta = 0.2 * gauss(rng);
      // Passes the row has: all 12, every 2nd (a costly row), or the first 10 (the budget ran out).
      const kept = [12, 6, 10][i % 3] as number;
      const logs = Array.from({ length: kept }, () => 0.1 * gauss(rng) + theta);
      const r = repeatedInterval(logs, looks, 0.05, 12);
      if (r !== null && r.lo <= theta && theta <= r.hi) covered++;
      const byCount = repeatedInterval(logs, looks);
      widths.byRun += r ? r.hi - r.lo : Infinity;
      widths.byCount += byCount ? byCount.hi - byCount.lo : Infinity;
    }
    report(
      `the run's last look over every pass a row has: covers the truth in ${covered} of ${rows}`,
    );
    expect(covered / rows).toBeGreaterThan(0.95);
    expect(covered / rows).toBeLessThan(0.995);
    // Narrower on the whole than the look its pass count alone reaches, which spends less of alpha on fewer passes.
    report(
      `mean width ${(widths.byRun / rows).toFixed(3)} against ${(widths.byCount / rows).toFixed(3)}`,
    );
    expect(widths.byRun).toBeLessThan(0.9 * widths.byCount);
  });

  it('takes the last look the run reached with every pass', () => {
    const logs = [0.12, 0.09, 0.11, 0.1, 0.13, 0.08, 0.1, 0.12, 0.11, 0.09];
    const looks = plannedLooks(12);
    const byCount = repeatedInterval(logs, looks);
    const byRun = repeatedInterval(logs, looks, 0.05, 12);
    expect(byCount).toMatchObject({ passes: 9, look: 2 });
    expect(byRun).toMatchObject({ passes: 10, look: 3 });
    // A run that reached only its first look takes the first look, over the passes it has.
    expect(repeatedInterval(logs.slice(0, 4), looks, 0.05, 4)).toMatchObject({
      passes: 4,
      look: 0,
    });
  });
});
