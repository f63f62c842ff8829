// A budget sized to the question (src/core/verdicts/ab-size.ts): the passes a row's spread needs,
// the spreads read from a run's rows, the passes a run is sized to, and the words for it. Built
// spreads with known answers; the error rates of sized runs are ab-sized-simulated.slow.test.ts's.
import { describe, expect, it } from 'vitest';
import {
  pairSpreads,
  passesText,
  passesToDetect,
  rowsToReach,
  sizePasses,
  sizingGoalPct,
  sizingText,
  type SizedRow,
} from '../../../../src/core/verdicts/ab-size.ts';
import { detectableSlowdown } from '../../../../src/core/verdicts/change.ts';
import { PLAN_LIMITS } from '../../../../src/core/plan/defaults.ts';

const at = (sd: number, n: number, family: number) =>
  detectableSlowdown({ log: 0, se: sd / Math.sqrt(n), df: n - 1, lo: 0, hi: 0 }, 5, family);

describe('passesToDetect', () => {
  it('is the fewest passes at which the same spread could catch the slowdown asked for', () => {
    const k = passesToDetect(0.08, 7, 5, 10, 25) as number;
    expect(at(0.08, k, 25)).toBeLessThanOrEqual(1.1);
    expect(at(0.08, k - 1, 25)).toBeGreaterThan(1.1);
  });

  it('starts from the passes given, however few a spread needs', () => {
    expect(passesToDetect(0.001, 9, 5, 10, 25)).toBe(9);
  });

  it('is none for a slowdown no more than the threshold, which a row must pass before it fails', () => {
    expect(passesToDetect(0.08, 7, 5, 5, 25)).toBeNull();
  });
});

describe('rowsToReach and sizingGoalPct', () => {
  it('all but a third of the rows, rounded as the undecided rule counts them', () => {
    expect([1, 2, 3, 4, 25].map(rowsToReach)).toEqual([1, 2, 2, 3, 17]);
  });

  it('--detect when given, else twice the threshold', () => {
    expect(sizingGoalPct(5, 8)).toBe(8);
    expect(sizingGoalPct(5, undefined)).toBe(10);
    expect(sizingGoalPct(2.5, null)).toBe(5);
  });
});

/** A side of a pair: `pass` samples in each pass, the pass's level times `ratios[p]` for B. */
function row(adapter: string, caseName: string, levels: readonly number[]): SizedRow {
  return {
    suite: 'insert',
    case: caseName,
    size: 100,
    params: {},
    adapter,
    samples: levels.flatMap((x) => [x, x, x]),
    samplesPerPass: levels.map(() => 3),
  };
}

describe('pairSpreads', () => {
  it("is the standard deviation of each pair's per-pass log ratios, whatever order the rows come in", () => {
    const ratios = [1.1, 1.0, 0.9];
    const logs = ratios.map(Math.log);
    const mean = logs.reduce((s, x) => s + x, 0) / 3;
    const sd = Math.sqrt(logs.reduce((s, x) => s + (x - mean) ** 2, 0) / 2);
    const rows = [
      row(
        'B',
        'bulk',
        ratios.map((r) => 10 * r),
      ),
      row('other', 'bulk', [1, 2, 3]),
      row('A', 'bulk', [10, 10, 10]),
      row('A', 'serial', [5, 5, 5]),
      row('B', 'serial', [5, 5, 5]),
    ];
    const spreads = pairSpreads(rows, 'A', 'B');
    expect(spreads).toHaveLength(2);
    expect(spreads[0]).toBeCloseTo(sd, 12);
    expect(spreads[1]).toBe(0);
  });

  it('is null for a case one store lacks, or with fewer than two passes on both sides', () => {
    expect(pairSpreads([row('A', 'bulk', [1, 1, 1])], 'A', 'B')).toEqual([null]);
    expect(pairSpreads([row('A', 'bulk', [1]), row('B', 'bulk', [2])], 'A', 'B')).toEqual([null]);
  });
});

describe('sizePasses', () => {
  const o = { thresholdPct: 5, goalPct: 10, after: 3, least: 12, most: 36 };

  it('needs the passes at which the row two thirds of the way up reaches the goal', () => {
    const spreads = [0.02, 0.04, 0.06, 0.08, 0.1, 0.2];
    const each = spreads.map((sd) => passesToDetect(sd, 2, 5, 10, spreads.length) ?? Infinity);
    // Four of six must reach it: the fourth smallest of the rows' own passes.
    const s = sizePasses(spreads, o);
    expect(s.reach).toBe(4);
    expect(s.needed).toBe([...each].sort((x, y) => x - y)[3]);
    expect(s.passes).toBe(Math.min(36, Math.max(12, s.needed as number)));
  });

  it('never takes fewer passes than the least nor more than the most', () => {
    expect(sizePasses([0.001, 0.001, 0.001], o)).toMatchObject({ needed: 2, passes: 12 });
    const wide = sizePasses([0.2, 0.2, 0.2], o);
    expect(wide.needed).toBeGreaterThan(36);
    expect(wide.passes).toBe(36);
  });

  it('takes the most when no number of passes would do: a goal at the threshold, or rows without a spread', () => {
    expect(sizePasses([0.05, 0.05], { ...o, goalPct: 5 })).toMatchObject({
      needed: null,
      passes: 36,
    });
    expect(sizePasses([0.01, null, null], o)).toMatchObject({ needed: null, passes: 36 });
    expect(sizePasses([], o)).toMatchObject({ rows: 0, needed: null, passes: 36 });
  });
});

describe('sizingText and passesText', () => {
  const record = { maxMs: 720_000, budgetMs: 0 };
  const sized = (needed: number | null, passes: number) => ({
    after: 3,
    goalPct: 10,
    rows: 25,
    reach: 17,
    needed,
    passes,
    least: 12,
    most: 36,
    ...record,
    budgetMs: passes * 20_000,
  });

  it('says what the question needs and what the run was sized to, and why when it is not that', () => {
    expect(sizingText(sized(22, 22))).toBe(
      'catching ×1.10 in 17 of 25 rows needs 22 passes at the spread over the first 3 passes; sized to 22 passes, --budget 7m20s per browser (--budget auto, at most --budget-max 12m)',
    );
    expect(sizingText(sized(6, 12))).toMatch(
      /needs 6 passes .*; sized to 12 passes, the fewest --auto=passes:N sets \(--budget 4m per browser\)$/,
    );
    expect(sizingText(sized(48, 36))).toMatch(
      /needs 48 passes .*; sized to 36 passes, the most --budget-max 12m gives \(--budget 12m per browser\)$/,
    );
    expect(sizingText(sized(null, 36))).toMatch(
      new RegExp(
        `^catching ×1.10 in 17 of 25 rows would need more than ${PLAN_LIMITS.maxPasses} passes \\(the most there can be\\) .*the most --budget-max 12m gives`,
      ),
    );
  });

  it('ends a run that was not sized on the passes it needs and had, over the rows compared', () => {
    const rows = [
      { ratio: { logSd: 0.05, passes: 12 } },
      { ratio: { logSd: 0.05, passes: 12 } },
      { ratio: null, neither: true as const },
    ];
    const needed = passesToDetect(0.05, 2, 5, 10, 2);
    expect(passesText(rows, { thresholdPct: 5 }, 12)).toBe(
      `catching ×1.10 in 2 of 2 rows needs ${needed} passes at the spread over its 12 passes; this run had 12 (--budget auto sizes a run to what it needs)`,
    );
    expect(passesText(rows, { thresholdPct: 5 }, 12, sized(22, 22))).toBe(
      sizingText(sized(22, 22)),
    );
  });

  it('leaves out the rows shown slower, which caught their slowdown already', () => {
    const slower = { ratio: { logSd: 0.5, passes: 12 }, verdict: 'slower' };
    const same = { ratio: { logSd: 0.05, passes: 12 }, verdict: 'same' };
    expect(passesText([slower, same], { thresholdPct: 5 }, 12)).toBe(
      passesText([same], { thresholdPct: 5 }, 12),
    );
    expect(passesText([slower, slower], { thresholdPct: 5 }, 12)).toBe(
      'every row compared is slower: no more passes were needed to catch it; this run had 12',
    );
  });
});
