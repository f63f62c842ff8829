/**
 * The change-point detector (src/core/history/) on synthetic series: made up here, in the test,
 * and never committed as data. Each point is a median with a 95% interval whose half-width is
 * drawn from 3% to 10% (the ±3% to ±13% the committed runs' median rows show), and its value is
 * drawn from a normal around the true level with the standard error that interval implies.
 *
 * Trial counts: each rate is a binomial proportion. 400 series put the standard error of a rate
 * near 96% at 1 point, and 1,000 flat series give a Wilson 95% upper bound within 1.5 points of
 * a rate near 2.5%; the whole file runs in a few seconds. Every draw is seeded, so the counts are
 * the same on every run.
 */
import { describe, expect, it } from 'vitest';
import { createRng, type Rng } from '../../../../fixtures/random.ts';
import {
  DETECTOR_DEFAULTS,
  detectChanges,
  fewestPoints,
} from '../../../../src/core/history/detect.ts';
import { bestSplit } from '../../../../src/core/history/e-divisive.ts';
import { twoSampleTest, type LogPoint } from '../../../../src/core/history/weighted-test.ts';
import { wilsonInterval } from '../../../../src/core/stats/stats.ts';

const Z975 = 1.959963984540054;

function normal(rng: Rng): number {
  let u = 0;
  while (u === 0) u = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** A synthetic series of `n` points, log scale, with steps (a factor from an index on). */
function synthetic(seed: number, steps: { at: number; factor: number }[], n = 40): LogPoint[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, (_, i) => {
    const half = 0.03 + 0.07 * rng.next();
    const se = Math.log1p(half) / Z975;
    const level = steps.filter((s) => i >= s.at).reduce((y, s) => y + Math.log(s.factor), 0);
    return { y: level + se * normal(rng), se };
  });
}

/** How many of `trials` series `hit` holds for, each series and its permutations seeded by its index. */
function count(
  trials: number,
  seedBase: number,
  steps: { at: number; factor: number }[],
  hit: (changes: number[]) => boolean,
): number {
  let k = 0;
  for (let s = 0; s < trials; s++) {
    const d = detectChanges(synthetic(seedBase + s, steps), { seed: s });
    if (d.kind === 'done' && hit(d.changes.map((c) => c.index))) k++;
  }
  return k;
}

const near = (changes: number[], at: number, by: number) =>
  changes.some((c) => Math.abs(c - at) <= by);

describe('detectChanges', () => {
  it('finds a 10% step in ≥ 95% of noisy series, ±1 point', () => {
    const trials = 400;
    const k = count(trials, 1000, [{ at: 20, factor: 1.1 }], (c) => near(c, 20, 1));
    expect(k / trials).toBeGreaterThanOrEqual(0.95);
  });

  it('reports a change in ≤ 5% of flat series', () => {
    const trials = 1000;
    const k = count(trials, 5000, [], (c) => c.length > 0);
    expect(wilsonInterval(k, trials)!.hi).toBeLessThanOrEqual(0.05);
  });

  it('finds both of two 10% steps in ≥ 80% of series', () => {
    // Segments of 13 points locate a step less sharply than 20: the measured rate is 87% (2,000 series).
    const trials = 200;
    const steps = [
      { at: 13, factor: 1.1 },
      { at: 27, factor: 1.1 },
    ];
    const k = count(trials, 9000, steps, (c) => near(c, 13, 1) && near(c, 27, 1));
    expect(k / trials).toBeGreaterThanOrEqual(0.8);
  });

  it('says a series of 3 points is too short', () => {
    const d = detectChanges(synthetic(1, [], 3));
    expect(d).toEqual({ kind: 'too short', points: 3, needed: 8 });
    // 8: the permutation test's smallest p-value, 2 / C(n, n/2), first reaches 5% at 8 points.
    expect(fewestPoints(0.05)).toBe(8);
    expect(2 / 35).toBeGreaterThan(0.05);
    expect(2 / 70).toBeLessThanOrEqual(0.05);
  });

  it('gives the same changes for the same seed', () => {
    const points = synthetic(77, [{ at: 15, factor: 1.08 }]);
    const a = detectChanges(points, { seed: 3 });
    const b = detectChanges(points, { seed: 3 });
    expect(a).toEqual(b);
    expect(DETECTOR_DEFAULTS.permutations).toBe(199);
  });
});

describe('bestSplit, twoSampleTest', () => {
  it("bestSplit: q̂ is Matteson and James's energy statistic", () => {
    const x = synthetic(5, [{ at: 6, factor: 1.3 }], 14).map((p) => p.y);
    const dist = (a: number[], b: number[]) => {
      let s = 0;
      for (const u of a) for (const v of b) s += Math.abs(u - v);
      return s;
    };
    const within = (a: number[]) => {
      let s = 0;
      for (let i = 0; i < a.length; i++)
        for (let k = i + 1; k < a.length; k++) s += Math.abs(a[i]! - a[k]!);
      return s / ((a.length * (a.length - 1)) / 2);
    };
    let best = { tau: -1, q: -Infinity };
    for (let tau = 2; tau <= x.length - 2; tau++) {
      const l = x.slice(0, tau);
      const r = x.slice(tau);
      const e = (2 * dist(l, r)) / (l.length * r.length) - within(l) - within(r);
      const q = ((l.length * r.length) / x.length) * e;
      if (q > best.q) best = { tau, q };
    }
    const got = bestSplit(x, 2)!;
    expect(got.tau).toBe(best.tau);
    expect(got.q).toBeCloseTo(best.q, 12);
  });

  it("weighted test: Student's t when intervals are equal", () => {
    const a = [1, 2, 3, 4].map((y) => ({ y, se: 10 }));
    const b = [3, 4, 5, 6, 7].map((y) => ({ y, se: 10 }));
    // Student: pooled variance ((1.6667*3) + (2.5*4)) / 7, t = 2.5 / sqrt(sp2 (1/4 + 1/5)), df 7.
    const sp2 = (3 * (5 / 3) + 4 * 2.5) / 7;
    const t = twoSampleTest(a, b)!;
    expect(t.df).toBe(7);
    expect(t.diff).toBeCloseTo(2.5, 12);
    // With intervals far wider than the scatter, the scale stays at 1: the intervals' own error.
    expect(t.se).toBeCloseTo(10 * Math.sqrt(1 / 4 + 1 / 5), 9);
    const narrow = twoSampleTest(
      a.map((p) => ({ ...p, se: 1e-3 })),
      b.map((p) => ({ ...p, se: 1e-3 })),
    )!;
    expect(narrow.se).toBeCloseTo(Math.sqrt(sp2 * (1 / 4 + 1 / 5)), 9);
  });

  it('weighted test: a wide point moves the level less', () => {
    const before = [
      { y: 0, se: 0.01 },
      { y: 0, se: 0.01 },
      { y: 0.3, se: 0.2 },
    ];
    const after = [
      { y: 0.1, se: 0.01 },
      { y: 0.1, se: 0.01 },
    ];
    const t = twoSampleTest(before, after)!;
    expect(t.before.y).toBeLessThan(0.3 / 3);
    expect(t.before.y).toBeGreaterThan(0);
  });
});
