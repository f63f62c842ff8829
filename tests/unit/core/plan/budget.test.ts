// The budget as one object (src/core/plan/budget.ts): how its levels (browser, launch, pass,
// group, row) relate to one another, on clocks the test moves by hand.
import { describe, expect, it } from 'vitest';
import { Budget, defaultLaunches, type LaunchUse } from '../../../../src/core/plan/budget.ts';
import { DEFAULT_AUTO, DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';

const plan = (budgetMs: number, passes = 12): Pick<Plan, 'auto' | 'budgetMs'> => ({
  auto: { ...DEFAULT_AUTO, passes },
  budgetMs,
});
/** Room for rounding: a sum of shares may pass its whole by this little. */
const EPS = 1e-9;

/** Launch after launch of one browser, each using `use` times its share: the shares it was given. */
function launchShares(budget: Budget, use: number, others: Partial<LaunchUse> = {}): number[] {
  const shares: number[] = [];
  let usedMs = 0;
  for (let launch = 1; launch <= budget.launches; launch++) {
    const share = budget.launchShare({
      launch,
      usedMs,
      ended: 0,
      endedUsedMs: 0,
      open: 1,
      ...others,
    }).budgetMs;
    shares.push(share);
    usedMs += use * share;
  }
  return shares;
}

const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);

describe('Budget - levels', () => {
  it("spreads a browser's --budget over its launches", () => {
    const budget = new Budget(plan(180_000));
    expect(budget.browserMs).toBe(180_000);
    expect(budget.launches).toBe(defaultLaunches(12, 180_000));
    // Never more launches than passes, never fewer than one.
    expect(new Budget(plan(180_000, 3), 8).launches).toBe(3);
    expect(new Budget(plan(180_000), 0).launches).toBe(1);
    expect(new Budget(plan(180_000), 4).launches).toBe(4);
  });

  it("gives launches no more than the browser's budget in all", () => {
    const budget = new Budget(plan(180_000), 12);
    for (const use of [1, 1.5, 3]) {
      const shares = launchShares(budget, use);
      expect(sum(shares), `use ×${use}`).toBeLessThanOrEqual(180_000 * (1 + EPS));
    }
    // Used exactly, the shares are the budget, in even parts.
    const even = launchShares(budget, 1);
    expect(sum(even)).toBeCloseTo(180_000, 6);
    for (const share of even) expect(share).toBeCloseTo(15_000, 6);
  });

  it('hands a launch its share of what is left, never below its own', () => {
    const budget = new Budget(plan(120_000), 6);
    for (let launch = 1; launch <= 6; launch++) {
      const use = { launch, usedMs: (launch - 1) * 25_000, ended: 0, endedUsedMs: 0, open: 2 };
      const { budgetMs, budgetLeftMs } = budget.launchShare(use);
      expect(budgetMs).toBeGreaterThanOrEqual(0);
      expect(budgetLeftMs).toBeGreaterThanOrEqual(budgetMs);
      expect(budgetLeftMs).toBeCloseTo(budgetMs * (6 - launch + 1), 6);
    }
  });

  it('never gives a launch a negative share', () => {
    const budget = new Budget(plan(60_000), 4);
    for (const usedMs of [60_000, 90_000, 1e9]) {
      const share = budget.launchShare({ launch: 3, usedMs, ended: 0, endedUsedMs: 0, open: 1 });
      expect(share.budgetMs).toBe(0);
      expect(share.budgetLeftMs).toBe(0);
    }
  });

  it('takes at most twice an even share from ended browsers', () => {
    const budget = new Budget(plan(120_000), 12);
    const share = budget.launchShare({
      launch: 12,
      usedMs: 0,
      ended: 5,
      endedUsedMs: 0,
      open: 1,
    }).budgetMs;
    expect(share).toBe((2 * 120_000) / 12);
  });

  it('plans the passes evenly', () => {
    const budget = new Budget(plan(120_000, 12));
    expect(budget.passPlanMs(1)).toBe(120_000);
    for (let pass = 1; pass < 12; pass++)
      expect(budget.passPlanMs(pass) - budget.passPlanMs(pass + 1)).toBeCloseTo(10_000, 6);
    expect(budget.passPlanMs(12)).toBe(10_000);
  });

  it("gives the rows shares that sum to the browser's budget", () => {
    const budget = new Budget(plan(120_000));
    for (const rows of [1, 7, 144]) expect(rows * budget.rowMs(rows)).toBeCloseTo(120_000, 6);
    expect(budget.rowMs(0)).toBe(Infinity);
    // Fixed sampling spends no budget: a row's share is unbounded.
    expect(new Budget({ budgetMs: 120_000 }).rowMs(10)).toBe(Infinity);
  });

  it("gives a launch's groups shares within the launch's", () => {
    const budget = new Budget(plan(120_000), 4);
    const order = budget.launchShare({ launch: 1, usedMs: 0, ended: 0, endedUsedMs: 0, open: 1 });
    /** Groups of weight 2, 3 and 5, each using `use` times its share: their shares and ends. */
    const groups = (use: readonly number[]) => {
      const start = 1_000;
      let t = start;
      const launch = budget.inLaunch(order, 2 + 3 + 5, () => t);
      const out = [2, 3, 5].map((weight, i) => {
        const end = launch.nextGroupEnd(weight);
        const share = end - t;
        // Past the launch's budget only when the groups before ran it out: then it ends at once.
        expect(end).toBeLessThanOrEqual(Math.max(t, start + order.budgetMs));
        t += (use[i] ?? 1) * share;
        return share;
      });
      expect(launch.hasLaterShares()).toBe(false);
      return out;
    };
    // Groups that use their share are given no more than the launch's in all.
    expect(sum(groups([1, 1, 1]))).toBeCloseTo(order.budgetMs, 6);
    expect(sum(groups([1, 1.5, 1]))).toBeLessThanOrEqual(order.budgetMs * (1 + EPS));
    // Time a quick group leaves flows on, and still no group ends past the launch's budget.
    groups([0.5, 1.2, 1]);
  });

  it('never says a launch has negative time left', () => {
    const budget = new Budget(plan(60_000));
    let t = 0;
    const launch = budget.inLaunch(undefined, 3, () => t);
    expect(launch.leftMs()).toBe(60_000);
    for (const at of [30_000, 60_000, 90_000, 1e9]) {
      t = at;
      expect(launch.leftMs()).toBeGreaterThanOrEqual(0);
      expect(launch.nextGroupEnd()).toBeGreaterThanOrEqual(t);
      expect(launch.fraction(1, 3)).toBeGreaterThanOrEqual(0);
      expect(launch.fraction(1, 3)).toBeLessThanOrEqual(1);
    }
    expect(launch.leftMs()).toBe(0);
  });

  it("reckons a browser's progress across its launches in time, the launches to come at the pace of those before", () => {
    // 4 launches of a 100-s budget, each given 25 s.
    const budget = new Budget(plan(100_000), 4);
    const across = (launch: number, usedMs: number, spentMs: number, done: number) =>
      budget.doneAcross({ launch, of: 4, usedMs, spentMs, done, shareMs: 25_000 }) as number;
    // The first launch, a fifth through its 10 s so far: each launch reckoned at its 50 s.
    expect(across(1, 0, 10_000, 0.2)).toBeCloseTo(10 / 200, 10);
    // Three launches took 10 s each, half their shares; the fourth is half through its 10 s.
    expect(across(4, 30_000, 5_000, 0.5)).toBeCloseTo(35 / 40, 10);
    // The second launch, after one of 10 s: 15 s of 40, where against the shares it read 22.5%
    // ((10 + 0.5 × 25) s of 100).
    expect(across(2, 10_000, 5_000, 0.5)).toBeCloseTo(15 / 40, 10);
    expect(across(4, 30_000, 10_000, 1)).toBe(1);
    // Nothing done yet: this launch at its share.
    expect(across(1, 0, 0, 0)).toBe(0);
    for (const done of [0, 0.3, 1]) {
      const d = across(3, 40_000, 6_000, done);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(1);
      expect(budget.browserLeftMs(d)).toBeGreaterThanOrEqual(0);
      expect(budget.browserLeftMs(d)).toBeLessThanOrEqual(100_000);
    }
    expect(
      new Budget({ auto: DEFAULT_AUTO }).doneAcross({
        launch: 1,
        of: 1,
        usedMs: 1_000,
        spentMs: 1_000,
        done: 0.5,
        shareMs: 1_000,
      }),
    ).toBeUndefined();
  });

  it('has no time to hand out with fixed sampling', () => {
    const fixed = new Budget({ ...DEFAULT_PLAN, auto: undefined, budgetMs: undefined });
    const launch = fixed.inLaunch(undefined, 4, () => 0);
    expect(launch.totalMs).toBeUndefined();
    expect(launch.leftMs()).toBe(Infinity);
    expect(launch.nextGroupEnd(2)).toBe(Infinity);
    expect(launch.endsAt()).toBe(Infinity);
  });
});

describe('Budget - made from the plan', () => {
  it('answers the same for any copy of a plan', () => {
    const answers = (budget: Budget) => {
      let t = 0;
      const launch = budget.inLaunch({ budgetMs: 20_000, budgetLeftMs: 80_000 }, 6, () => t);
      const groups = [1, 2, 3].map((w) => {
        const end = launch.nextGroupEnd(w);
        t += 4_000;
        return end;
      });
      return {
        browserMs: budget.browserMs,
        launches: budget.launches,
        shares: launchShares(budget, 1.2, { ended: 1, endedUsedMs: 50_000, open: 2 }),
        passes: Array.from({ length: 12 }, (_, i) => budget.passPlanMs(i + 1)),
        rows: [1, 10, 100].map((n) => budget.rowMs(n)),
        across: budget.doneAcross({
          launch: 2,
          of: 12,
          usedMs: 30_000,
          spentMs: 5_000,
          done: 0.25,
          shareMs: 20_000,
        }),
        groups,
        pace: launch.paceIn(2),
        left: launch.leftMs(),
      };
    };
    const a = new Budget(plan(240_000));
    const b = new Budget(structuredClone(plan(240_000)));
    expect(answers(b)).toEqual(answers(a));
  });
});

/** The plan's sampling in the launch tests these came from (run/launch.test.ts): 3 passes, up to 50 samples. */
const auto = { targetRelCi: 0.02, minN: 6, maxN: 50, maxMs: 60_000, passes: 3 };

describe('Budget.launchShare', () => {
  // A browser's 120 s, spread over 12 launches.
  const budget = new Budget({ auto: { ...auto, passes: 12 }, budgetMs: 120_000 }, 12);
  /** The share of the launch with `launchesLeft` launches of its browser to come, this one among them. */
  const launchShare = ({
    launchesLeft,
    ...use
  }: Omit<LaunchUse, 'launch'> & { launchesLeft: number }) =>
    budget.launchShare({ ...use, launch: budget.launches - launchesLeft + 1 }).budgetMs;
  const base = { ended: 0, endedUsedMs: 0, open: 3 };
  it('gives a launch what its browser has left, over its launches to come', () => {
    expect(launchShare({ ...base, launchesLeft: 12, usedMs: 0 })).toBe(10_000);
    // Its first launch ran 14 s over: its later ones take less, whatever the other browsers did.
    expect(launchShare({ ...base, launchesLeft: 11, usedMs: 24_000 })).toBeCloseTo(96_000 / 11, 6);
    expect(launchShare({ ...base, launchesLeft: 2, usedMs: 130_000 })).toBe(0);
  });

  it('shares out what ended browsers left, at most twice an even share', () => {
    // One browser ended having used 40 s of its 120: its 80 s go half to each of the two open.
    expect(
      launchShare({
        ...base,
        launchesLeft: 6,
        usedMs: 60_000,
        ended: 1,
        endedUsedMs: 40_000,
        open: 2,
      }),
    ).toBeCloseTo((60_000 + 40_000) / 6, 6);
    expect(
      launchShare({ ...base, launchesLeft: 1, usedMs: 0, ended: 2, endedUsedMs: 0, open: 1 }),
    ).toBe(20_000);
  });
});

describe('defaultLaunches', () => {
  it('gives each pass a launch while each gets 15 s', () => {
    expect(defaultLaunches(12, 3.5 * 60_000)).toBe(12);
    expect(defaultLaunches(12, 75_000)).toBe(5);
    expect(defaultLaunches(12, 20_000)).toBe(1);
    expect(defaultLaunches(3, 60 * 60_000)).toBe(3);
    expect(defaultLaunches(1, 60 * 60_000)).toBe(1);
    expect(defaultLaunches(12, undefined)).toBe(1);
  });
});

describe('Budget.inLaunch - group shares', () => {
  /** A launch's budget of `ms` on `clock`, the whole run's in one launch; `ms` undefined: fixed sampling. */
  const launchBudget = (ms: number | undefined, weight: number, clock: () => number) =>
    new Budget(ms === undefined ? {} : { auto: DEFAULT_AUTO, budgetMs: ms }).inLaunch(
      undefined,
      weight,
      clock,
    );

  it('gives each group an equal share of what is left', () => {
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

  it("shares in proportion to each group's rows", () => {
    const budget = launchBudget(900, 3 + 6, () => 0);
    expect(budget.nextGroupEnd(3)).toBe(300);
    expect(budget.nextGroupEnd(6)).toBe(900);
    expect(budget.endsAt()).toBe(900);
  });

  it("shares a launch's budget among its groups", () => {
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

  it('estimates the fraction done from the pace so far', () => {
    let t = 0;
    const budget = launchBudget(1000, 4, () => t);
    t = 100;
    expect(budget.fraction(1, 4)).toBeCloseTo(0.25, 12); // 100 ms a group, 300 left
    t = 800;
    expect(budget.fraction(1, 4)).toBeCloseTo(0.8, 12); // the pace says 2,400 more; the budget, 200
    expect(budget.fraction(4, 4)).toBe(1);
  });
});
