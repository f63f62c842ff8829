// Planned looks (src/core/stats/sequential.ts, src/core/verdicts/ab.ts): the boundaries against published
// tables, then the A/B rule simulated over whole runs, as the gate runs it.
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../../../fixtures/random.ts';
import { abDecision, pairAtLook, type AbRow } from '../../../../src/core/verdicts/ab.ts';
import { slowerPValue } from '../../../../src/core/stats/paired.ts';
import { studentTQuantile } from '../../../../src/core/stats/distributions.ts';
import {
  lookWeights,
  plannedLooks,
  repeatedInterval,
  repeatedPValue,
} from '../../../../src/core/stats/sequential.ts';

const gauss = (rng: Rng) =>
  Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

/** Student's t with 4 degrees of freedom, scaled to unit variance (its variance is 2). */
const t4 = (rng: Rng) => {
  // χ² with 4 degrees of freedom is twice the sum of two standard exponentials.
  const chi = -2 * Math.log((1 - rng.next()) * (1 - rng.next()));
  return gauss(rng) / Math.sqrt(chi / 4) / Math.SQRT2;
};

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

/** One simulated --ab run of `rows` pairs, B/A truly exp(theta) for every row: its exit code and the looks its rows settled at. */
function simulatedRun(
  rng: Rng,
  o: { rows: number; passes: number; theta: number; sigma: number; heavy: boolean },
) {
  const looks = plannedLooks(o.passes);
  const out: AbRow[] = [];
  const settledAt: number[] = [];
  for (let r = 0; r < o.rows; r++) {
    const logs: number[] = [];
    let settled = -1;
    for (const [k, n] of looks.entries()) {
      while (logs.length < n) logs.push(o.theta + o.sigma * (o.heavy ? t4(rng) : gauss(rng)));
      if (pairAtLook(logs, looks, 5, o.rows).settled) {
        settled = k;
        break;
      }
    }
    settledAt.push(settled < 0 ? looks.length : settled + 1);
    const at = pairAtLook(logs, looks, 5, o.rows);
    out.push({
      browser: 'sim',
      suite: 's',
      case: `c${r}`,
      size: 1,
      params: {},
      a: 'A',
      b: 'B',
      ratio: at.ratio,
      verdict: at.verdict,
      pSlower: slowerPValue(logs, 5, looks),
    });
  }
  return { code: abDecision(out, 5).code, meanLook: settledAt.reduce((a, b) => a + b) / o.rows };
}

describe('sequential - the A/B rule over simulated runs of 25 rows', () => {
  // Per-pass scatter of B/A as measured on identical code here: sd 0.04 of the log ratio in
  // Chromium on a quiet machine (docs/figures.md), 0.07 for Firefox and a loaded machine.
  const runs = 10_000;
  for (const heavy of [false, true]) {
    it(`calls identical code or a change at the threshold slower in ≤ 5% of ${runs} runs (${heavy ? 't₄' : 'normal'} pass effects)`, () => {
      const rng = createRng(heavy ? 41 : 40);
      let aa = 0;
      let edge = 0;
      for (let i = 0; i < runs; i++) {
        const sigma = i % 2 ? 0.04 : 0.07;
        if (simulatedRun(rng, { rows: 25, passes: 12, theta: 0, sigma, heavy }).code === 1) aa++;
        if (
          simulatedRun(rng, { rows: 25, passes: 12, theta: Math.log(1.05), sigma, heavy }).code ===
          1
        )
          edge++;
      }
      report(
        `${heavy ? 't4' : 'normal'}: exit 1 on identical code in ${aa} of ${runs} runs, at the threshold in ${edge}`,
      );
      expect(aa / runs).toBeLessThanOrEqual(0.05);
      expect(edge / runs).toBeLessThanOrEqual(0.05);
    });
  }
});

describe('sequential - power and coverage', () => {
  it('fails a run whose rows are all 10% slower in ≥ 95% of 2,000 runs, most rows settling before the last look', () => {
    const rng = createRng(43);
    const runs = 2000;
    let failed = 0;
    let looks = 0;
    for (let i = 0; i < runs; i++) {
      const sigma = i % 2 ? 0.04 : 0.07;
      const r = simulatedRun(rng, {
        rows: 25,
        passes: 12,
        theta: Math.log(1.1),
        sigma,
        heavy: false,
      });
      if (r.code === 1) failed++;
      looks += r.meanLook;
    }
    report(
      `+10%: exit 1 in ${failed} of ${runs} runs; mean look a row settled at ${(looks / runs).toFixed(2)} of 4`,
    );
    expect(failed / runs).toBeGreaterThanOrEqual(0.95);
    expect(looks / runs).toBeLessThan(4);
  });

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

  it('takes the last look the run reached with every pass, in the interval and in the p-value alike', () => {
    const logs = [0.12, 0.09, 0.11, 0.1, 0.13, 0.08, 0.1, 0.12, 0.11, 0.09];
    const looks = plannedLooks(12);
    const byCount = repeatedInterval(logs, looks);
    const byRun = repeatedInterval(logs, looks, 0.05, 12);
    expect(byCount).toMatchObject({ passes: 9, look: 2 });
    expect(byRun).toMatchObject({ passes: 10, look: 3 });
    expect(repeatedPValue(logs, looks, Math.log(1.05), 12)).toBeLessThan(
      repeatedPValue(logs, looks, Math.log(1.05)),
    );
    // A run that reached only its first look takes the first look, over the passes it has.
    expect(repeatedInterval(logs.slice(0, 4), looks, 0.05, 4)).toMatchObject({
      passes: 4,
      look: 0,
    });
  });

  it('gives a repeated p-value no larger than the one-look p-value needs', () => {
    const logs = [0.12, 0.09, 0.11, 0.1, 0.13, 0.08];
    const oneLook = slowerPValue(logs, 5, null);
    const twoLooks = slowerPValue(logs, 5, [3, 6]);
    expect(twoLooks).toBeGreaterThan(oneLook);
    expect(repeatedPValue(logs, [3, 6], Math.log(1.2))).toBe(1);
  });
});

/** Figures the simulations give, printed when STOREBENCH_REPORT is set (docs/figures.md quotes them). */
function report(line: string): void {
  if (process.env.STOREBENCH_REPORT) console.info(line);
}
