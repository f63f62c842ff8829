// What an A/B plan can decide before it runs (src/core/plan/ab-plan.ts). The sweep's --ab flags
// that refuse a plan that never could: cli/commands/sweep/args.test.ts.
import { describe, expect, it } from 'vitest';
import {
  abBudgetFor,
  abCasesProblem,
  abPasses,
  abPassesNeeded,
  abPassesProblem,
} from '../../../../src/core/plan/ab-plan.ts';
import { MIN_LAUNCH_MS } from '../../../../src/core/plan/budget.ts';
import { PAIRED_MIN_PASSES } from '../../../../src/core/stats/paired.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_AUTO, DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';

const abPlan = (over: Partial<Plan> = {}): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['insert'],
  adapters: ['idb', 'memory'],
  auto: { ...DEFAULT_AUTO },
  budgetMs: 240_000,
  ab: { thresholdPct: 5 },
  ...over,
});

describe('abPassesNeeded, abBudgetFor, abPassesProblem, abCasesProblem', () => {
  it('needs the passes a paired interval needs, a pass per MIN_LAUNCH_MS', () => {
    expect(abPassesNeeded()).toBe(PAIRED_MIN_PASSES);
    expect(abPasses(12, MIN_LAUNCH_MS * 2 - 1000)).toBe(1);
    expect(abPasses(12, MIN_LAUNCH_MS * 2)).toBe(2);
    expect(abPasses(3, 3_600_000)).toBe(3);
  });

  it('finds the least budget for k passes by the same rule', () => {
    for (let k = 1; k <= 50; k++) {
      const budget = abBudgetFor(k) as number;
      expect(abPasses(k, budget), `k=${k}`).toBe(k);
      if (budget > 1000) expect(abPasses(k, budget - 1000), `k=${k}`).toBeLessThan(k);
    }
  });

  it('refuses a budget of one pass, naming one that gives enough', () => {
    expect(abPassesProblem(abPlan({ budgetMs: 29_000 }))).toBe(
      "--ab: --budget 29s runs 1 pass (each pass a browser launch of its own, with at least 15 s of the budget), and B/A's 95% interval is over passes, which needs 2: give --budget 30s or more",
    );
    expect(abPassesProblem(abPlan({ budgetMs: 30_000 }))).toBeNull();
  });

  it('refuses passes:1, naming the passes that would do', () => {
    expect(abPassesProblem(abPlan({ auto: { ...DEFAULT_AUTO, passes: 1 } }))).toMatch(
      /^--ab: --auto=passes:1 runs 1 pass, and B\/A's 95% interval is over passes, which needs 2: give passes:2 or more/,
    );
  });

  it('refuses driven suites and an empty shard, saying what would work', () => {
    expect(abCasesProblem(abPlan(), { groups: 3, allGroups: 3, driven: ['crash'] })).toMatch(
      /^--ab: crash is driven by the sweep, its rows taken once per browser rather than in every pass, so B\/A never gets the 2 passes its interval needs: leave it out of --suites/,
    );
    const shard = abPlan({ shard: { index: 2, count: 2 } });
    expect(abCasesProblem(shard, { groups: 0, allGroups: 1, driven: [] })).toBe(
      "--ab: shard 2/2 holds none of this plan's 1 case group, so it has nothing to compare: give at most 1 shard (leave out --shard)",
    );
    expect(abCasesProblem(shard, { groups: 1, allGroups: 2, driven: [] })).toBeNull();
  });
});
