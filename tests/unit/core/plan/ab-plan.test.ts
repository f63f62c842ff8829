// What an A/B plan can decide before it runs (src/core/plan/ab-plan.ts), and the sweep's --ab flags
// that refuse a plan that never could (src/cli/commands/sweep/args.ts).
import { describe, expect, it } from 'vitest';
import { ArgsError, parseSweepArgs } from '../../../../src/cli/commands/sweep/args.ts';
import {
  abBudgetFor,
  abCasesProblem,
  abPasses,
  abPassesNeeded,
  abPassesProblem,
} from '../../../../src/core/plan/ab-plan.ts';
import { MIN_LAUNCH_MS } from '../../../../src/core/plan/budget.ts';
import { PAIRED_MIN_PASSES } from '../../../../src/core/stats/paired.ts';
import type { Plan, PlanVocabulary } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_AUTO, DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';

const vocab: PlanVocabulary = {
  suites: ['insert', 'crash'],
  adapters: ['memory', 'idb'],
  fixtures: ['person'],
  wraps: { idb: { packages: ['idb'] } },
};
const error = (...argv: string[]): string => {
  try {
    parseSweepArgs(argv, vocab, ['chromium']);
  } catch (e) {
    expect(e).toBeInstanceOf(ArgsError);
    return (e as Error).message;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
};
const abPlan = (over: Partial<Plan> = {}): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['insert'],
  adapters: ['idb', 'memory'],
  auto: { ...DEFAULT_AUTO },
  budgetMs: 240_000,
  ab: { thresholdPct: 5 },
  ...over,
});

describe('A/B plan - the passes a verdict needs', () => {
  it('needs the passes a paired interval needs, and a budget gives a launch, so a pass, per MIN_LAUNCH_MS', () => {
    expect(abPassesNeeded()).toBe(PAIRED_MIN_PASSES);
    expect(abPasses(12, MIN_LAUNCH_MS * 2 - 1000)).toBe(1);
    expect(abPasses(12, MIN_LAUNCH_MS * 2)).toBe(2);
    expect(abPasses(3, 3_600_000)).toBe(3);
  });

  it('finds the least budget for k passes by the same rule, for every k a plan may ask', () => {
    for (let k = 1; k <= 50; k++) {
      const budget = abBudgetFor(k) as number;
      expect(abPasses(k, budget), `k=${k}`).toBe(k);
      if (budget > 1000) expect(abPasses(k, budget - 1000), `k=${k}`).toBeLessThan(k);
    }
  });

  it('refuses a budget that gives one pass, naming the budget that gives enough', () => {
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

  it('refuses driven suites, and a shard with no case group, saying what would work', () => {
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

describe('cli args - --ab', () => {
  it('refuses a budget under what two passes need, at the flags, before any build', () => {
    expect(error('--ab', 'idb,memory', '--budget', '29s')).toMatch(
      /^--ab: --budget 29s runs 1 pass .* give --budget 30s or more$/,
    );
    const args = parseSweepArgs(['--ab', 'idb,memory', '--budget', '30s'], vocab, ['chromium']);
    expect(args.plan.auto?.passes).toBe(2);
  });

  it('refuses a variant in two spellings as the same store, as the page would', () => {
    expect(error('--ab', 'idb@+5%,idb@+05%')).toBe(
      '--ab: compares two different stores, A then B; "idb@+5%" and "idb@+05%" are one store, "idb@+5%" (an A/A names a registered store twice, e.g. idb,idb)',
    );
  });

  it('takes a registered store named twice as an A/A on one build, X against X@twin', () => {
    expect(parseSweepArgs(['--ab', 'idb,idb'], vocab, ['chromium']).plan.adapters).toEqual([
      'idb',
      'idb@twin',
    ]);
  });

  it('builds the other side of a variant the way the variant is built, X@installed, so only the code differs', () => {
    const sides = (pair: string) =>
      parseSweepArgs(['--ab', pair], vocab, ['chromium']).plan.adapters;
    expect(sides('idb,idb@8.0.4')).toEqual(['idb@installed', 'idb@8.0.4']);
    expect(sides('idb@file:../idb,idb')).toEqual(['idb@file:../idb', 'idb@installed']);
    // An instrument wraps the installed store itself: both sides already come the same way.
    expect(sides('idb,idb@+10%')).toEqual(['idb', 'idb@+10%']);
    // A store that wraps no package has no other way to be built.
    expect(sides('memory,idb@8.0.4')).toEqual(['memory', 'idb@8.0.4']);
  });

  it('names --threshold for a bad threshold, with the range the page reads back exactly', () => {
    expect(error('--ab', 'idb,memory', '--threshold', '0.0000001%')).toBe(
      '--threshold: "0.0000001%" is not a percentage from 0.01% to 99.99%, at most 2 decimals, e.g. 5%',
    );
    expect(error('--ab', 'idb,memory', '--threshold', 'abc')).toMatch(/^--threshold: "abc"/);
    expect(error('--ab', 'idb,memory', '--threshold', '100%')).toMatch(/^--threshold: "100%"/);
    const args = parseSweepArgs(['--ab', 'idb,memory', '--threshold', '02.50%'], vocab, [
      'chromium',
    ]);
    expect(args.plan.ab).toEqual({ thresholdPct: 2.5 });
  });

  it('names --ab, not --adapters, for its stores', () => {
    expect(error('--ab', 'idb,nosuch')).toMatch(/^--ab: unknown "nosuch"; allowed: /);
    expect(error('--ab', ',,')).toMatch(/^--ab: none given; allowed: /);
  });
});
