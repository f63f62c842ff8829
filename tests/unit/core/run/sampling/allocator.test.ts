import { describe, expect, it } from 'vitest';
import { Budget } from '../../../../../src/core/plan/budget.ts';
import { DEFAULT_AUTO } from '../../../../../src/core/plan/defaults.ts';
import {
  passShareUsed,
  pickRound,
  stopReason,
  type RowGauge,
} from '../../../../../src/core/run/sampling/allocator.ts';
import {
  MAX_SAMPLE_TARGET_MS,
  nextRepeats,
  sampleTargetMs,
} from '../../../../../src/core/run/sampling/repeats.ts';

const gauge = (over: Partial<RowGauge>): RowGauge => ({
  n: 10,
  precision: 0.05,
  costMs: 10,
  spentMs: 100,
  ...over,
});
const auto = { targetRelCi: 0.02, minN: 6, maxN: 100, maxMs: 1000 };

describe('allocator - which row samples next', () => {
  it('samples the widest row first when samples cost the same', () => {
    const rows = [
      gauge({ precision: 0.03 }),
      gauge({ precision: 0.09 }),
      gauge({ precision: 0.05 }),
    ];
    expect(pickRound(rows)[0]).toBe(rows[1]);
  });

  it('weighs width by what a sample costs: a cheap row a little narrower goes first', () => {
    const wideButDear = gauge({ precision: 0.1, costMs: 1000 });
    const cheap = gauge({ precision: 0.04, costMs: 10 });
    expect(pickRound([wideButDear, cheap])[0]).toBe(cheap);
  });

  it('ties go to the row with fewer samples, and no rows means none', () => {
    const a = gauge({ n: 20 });
    const b = gauge({ n: 12 });
    expect(pickRound([a, b])[0]).toBe(b);
    expect(pickRound([])[0]).toBeUndefined();
  });

  it('gives a round to every row at least half as needy as the neediest, the neediest first', () => {
    const rows = [
      gauge({ precision: 0.04 }),
      gauge({ precision: 0.1 }),
      gauge({ precision: 0.06 }),
      gauge({ precision: 0.05 }),
    ];
    expect(pickRound(rows).map((r) => r.precision)).toEqual([0.1, 0.06, 0.05]);
    // Rows without an interval yet go before, and without, any row that has one.
    const fresh = [gauge({ n: 4, precision: null }), gauge({ n: 3, precision: null })];
    expect(pickRound([...rows, ...fresh])).toEqual([fresh[1], fresh[0]]);
    expect(pickRound([])).toEqual([]);
  });

  it('a row that had its share of the pass goes only when no other row is left', () => {
    const hadShare = gauge({ precision: 0.3, passShareUsed: true });
    const other = gauge({ precision: 0.03 });
    expect(pickRound([hadShare, other])).toEqual([other]);
    expect(pickRound([hadShare])).toEqual([hadShare]);
  });
});

describe('allocator - when a row has enough', () => {
  it('stops at the target only once the row has its minimum', () => {
    expect(stopReason(gauge({ n: 6, precision: 0.019 }), auto)).toBe('ci-target');
    expect(stopReason(gauge({ n: 5, precision: 0.019 }), { ...auto, minN: 8 })).toBeUndefined();
    expect(stopReason(gauge({ n: 6, precision: 0.03 }), auto)).toBeUndefined();
  });

  it('against a baseline, stops once the change is decided, not at the precision target', () => {
    expect(stopReason(gauge({ n: 6, precision: 0.019, decided: false }), auto)).toBeUndefined();
    expect(stopReason(gauge({ n: 6, precision: 0.3, decided: true }), auto)).toBe('decided');
    expect(
      stopReason(gauge({ n: 5, precision: 0.3, decided: true }), { ...auto, minN: 8 }),
    ).toBeUndefined();
  });

  it('stops at max N, and before a sample that would pass the time cap, never below 2 samples', () => {
    expect(stopReason(gauge({ n: 100 }), auto)).toBe('iterations');
    expect(stopReason(gauge({ spentMs: 995, costMs: 10 }), auto)).toBe('time-cap');
    expect(stopReason(gauge({ n: 1, precision: null, spentMs: 5000 }), auto)).toBeUndefined();
  });

  it('a row whose passes disagree has its share of a pass at its largest earlier pass, and any row at its share of maxN', () => {
    expect(passShareUsed([40, 12, 40], true)).toBe(true);
    expect(passShareUsed([40, 12, 39], true)).toBe(false);
    expect(passShareUsed([40, 12, 400], false)).toBe(false);
    // In the first pass there is nothing to disagree with.
    expect(passShareUsed([40], true)).toBe(false);
    // Whatever its passes do, a row has its share once it has maxN·pass/passes samples (1000 over 12 passes: 83 a pass).
    expect(passShareUsed([84], false, 1000, 12)).toBe(true);
    expect(passShareUsed([82], false, 1000, 12)).toBe(false);
    expect(passShareUsed([900, 70], false, 1000, 12)).toBe(true);
    expect(passShareUsed([90, 70], false, 1000, 12)).toBe(false);
    // Having its share does not stop it: its target and its own caps do.
    expect(stopReason(gauge({ n: 92, precision: 0.2, passShareUsed: true }), auto)).toBeUndefined();
    expect(stopReason(gauge({ n: 92, precision: 0.01, passShareUsed: true }), auto)).toBe(
      'ci-target',
    );
  });
});

describe('allocator - the budget', () => {
  /** A launch's budget of `ms` on `clock`, the whole run's in one launch; `ms` undefined: fixed sampling. */
  const launchBudget = (ms: number | undefined, weight: number, clock: () => number) =>
    new Budget(ms === undefined ? {} : { auto: DEFAULT_AUTO, budgetMs: ms }).inLaunch(
      undefined,
      weight,
      clock,
    );

  it('gives each group an equal share of what is left, so time a quick group leaves flows on', () => {
    let t = 0;
    const budget = launchBudget(900, 3, () => t);
    expect(budget.nextGroupEnd()).toBe(300);
    t = 100; // the first group needed only 100 ms
    expect(budget.nextGroupEnd()).toBe(100 + 400);
    t = 500;
    expect(budget.nextGroupEnd()).toBe(500 + 400);
    t = 950; // overran: the next group gets nothing, not a negative share
    expect(budget.nextGroupEnd()).toBe(950);
  });

  it("shares in proportion to each group's rows, and the whole budget has an end", () => {
    const budget = launchBudget(900, 3 + 6, () => 0);
    expect(budget.nextGroupEnd(3)).toBe(300);
    expect(budget.nextGroupEnd(6)).toBe(900);
    expect(budget.endsAt()).toBe(900);
  });

  it("in one launch of several, the groups share the launch's budget, and the end is the whole run's", () => {
    const budget = new Budget({ auto: DEFAULT_AUTO, budgetMs: 1200 }).inLaunch(
      { budgetMs: 300, budgetLeftMs: 1200 },
      3,
      () => 0,
    );
    expect(budget.nextGroupEnd(3)).toBe(300);
    expect(budget.endsAt()).toBe(1200);
  });

  it('without a budget, a group never runs out', () => {
    expect(launchBudget(undefined, 2, () => 0).nextGroupEnd()).toBe(Infinity);
  });

  it('estimates the fraction done from the pace so far, capped by the budget left', () => {
    let t = 0;
    const budget = launchBudget(1000, 4, () => t);
    t = 100;
    expect(budget.fraction(1, 4)).toBeCloseTo(0.25, 12); // 100 ms a group, 300 left
    t = 800;
    expect(budget.fraction(1, 4)).toBeCloseTo(0.8, 12); // the pace says 2,400 more; the budget, 200
    expect(budget.fraction(4, 4)).toBe(1);
  });
});

describe('calibration - repeats per sample', () => {
  it('aims a sample at 1,000 timer steps, capped at 100 ms for a coarse timer', () => {
    expect(sampleTargetMs(0.005)).toBeCloseTo(5, 12);
    expect(sampleTargetMs(0.02)).toBeCloseTo(20, 12);
    expect(sampleTargetMs(1)).toBe(MAX_SAMPLE_TARGET_MS);
  });

  it('sizes the count from the fastest run to pass the target with headroom, keeps it once reached, and grows from 0 ms', () => {
    expect(nextRepeats(1, 0.5, 5)).toBe(13); // 5 / 0.5 × 1.25 = 12.5
    expect(nextRepeats(13, 0.5, 5)).toBe(13); // 13 runs of 0.5 ms reach 5 ms
    expect(nextRepeats(4, 0, 5)).toBe(40);
  });
});
