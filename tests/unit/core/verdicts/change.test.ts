// The gate's one rule (src/core/verdicts/change.ts) on changes with a known estimate and error.
import { describe, expect, it } from 'vitest';
import {
  currentWord,
  detectableSlowdown,
  judgeChanges,
  pSlowerOf,
  meetsDetect,
  powerOf,
  powerText,
  runOutcome,
  type Change,
  type Judged,
} from '../../../../src/core/verdicts/change.ts';

/** A change of log(B/A) `log` with standard error `se` on `df` degrees of freedom, its 95% interval Student's t (or normal). */
function change(ratio: number, se: number, df = Infinity, halfWidth = 1.959963985 * se): Change {
  const log = Math.log(ratio);
  return { log, se, df, lo: log - halfWidth, hi: log + halfWidth };
}

describe('judgeChanges', () => {
  it('calls a change slower when it is beyond +T and shown slower', () => {
    const [j] = judgeChanges([change(1.2, 0.02)], 5);
    expect(j?.verdict).toBe('slower');
  });

  it('does not call a change slower that is shown slower but smaller than T', () => {
    const [j] = judgeChanges([change(1.03, 0.005)], 5);
    expect(j?.pSlower).toBeLessThan(1e-6);
    expect(j?.verdict).toBe('same');
  });

  it('does not call a change slower that is beyond +T but not shown slower', () => {
    const [j] = judgeChanges([change(1.2, 0.2)], 5);
    expect(j?.verdict).toBe('undecided');
  });

  it('holds the chance of any false slower over the family: alone slower, among 25 not', () => {
    // One-sided p of 0.004: below 5%, above 5%/25.
    const se = Math.log(1.1) / 2.652;
    const alone = judgeChanges([change(1.1, se)], 5)[0] as Judged;
    expect(alone.pSlower).toBeCloseTo(0.004, 4);
    expect(alone.verdict).toBe('slower');
    const family = judgeChanges([change(1.1, se), ...Array(24).fill(change(1, 0.01))], 5);
    expect(family[0]?.verdict).toBe('undecided');
  });

  it('calls a change faster by the mirror image of the rule', () => {
    expect(judgeChanges([change(0.8, 0.02)], 5)[0]?.verdict).toBe('faster');
    expect(judgeChanges([change(0.97, 0.005)], 5)[0]?.verdict).toBe('same');
  });

  it('calls a change same when its whole interval lies within ±T', () => {
    expect(judgeChanges([change(1.01, 0.01)], 5)[0]?.verdict).toBe('same');
    expect(judgeChanges([change(1.01, 0.03)], 5)[0]?.verdict).toBe('undecided');
  });

  it('takes the interval the change came with for same, a repeated one where it has one', () => {
    // The same estimate and error, with the wider interval of an early look: no longer within ±5%.
    const wide = change(1.01, 0.01, 11, 0.045);
    expect(judgeChanges([wide], 5)[0]?.verdict).toBe('undecided');
  });

  it('judges no change as undecided, with nothing it could have caught, and leaves it out of the family', () => {
    const se = Math.log(1.1) / 2.652;
    const [none, one] = judgeChanges([null, change(1.1, se)], 5);
    expect(none).toEqual({ verdict: 'undecided', pSlower: 1, detectable: null });
    expect(one?.verdict).toBe('slower');
  });
});

describe('pSlowerOf', () => {
  it("is Student's t one-sided p against no change, or the normal's with infinite degrees of freedom", () => {
    expect(pSlowerOf(change(Math.exp(0.1), 0.05, 11))).toBeCloseTo(0.0354, 3);
    expect(pSlowerOf(change(Math.exp(0.1), 0.05))).toBeCloseTo(0.02275, 4);
  });

  it('is 0 or 1 for a change without spread', () => {
    expect(pSlowerOf(change(1.01, 0))).toBe(0);
    expect(pSlowerOf(change(0.99, 0))).toBe(1);
  });
});

describe('detectableSlowdown', () => {
  it('is 1 + T for a change without spread', () => {
    expect(detectableSlowdown(change(1, 0), 5, 25)).toBeCloseTo(1.05, 12);
  });

  it('with a normal error: the larger of +T and the critical value, plus the power quantile, in errors', () => {
    // se 0.02, one change: ln(1.05)/0.02 = 2.44 standard errors is more than z(0.95) = 1.645, so +T binds.
    expect(Math.log(detectableSlowdown(change(1, 0.02), 5, 1))).toBeCloseTo(
      Math.log(1.05) + 0.841621 * 0.02,
      5,
    );
    // Among 25: z(1 − 0.002) = 2.878 > 2.44, so the test binds.
    expect(Math.log(detectableSlowdown(change(1, 0.02), 5, 25))).toBeCloseTo(
      (2.878162 + 0.841621) * 0.02,
      5,
    );
  });

  it('grows with the spread, the family and fewer degrees of freedom', () => {
    const d = (se: number, family: number, df: number) =>
      detectableSlowdown(change(1, se, df), 5, family);
    expect(d(0.04, 25, 11)).toBeGreaterThan(d(0.02, 25, 11));
    expect(d(0.02, 75, 11)).toBeGreaterThan(d(0.02, 25, 11));
    expect(d(0.02, 25, 5)).toBeGreaterThan(d(0.02, 25, 11));
    expect(d(0.02, 25, 11)).toBeGreaterThan(d(0.02, 25, Infinity));
  });
});

describe('runOutcome', () => {
  const j = (verdict: Judged['verdict'], detectable: number | null): Judged => ({
    verdict,
    pSlower: 0.5,
    detectable,
  });

  it('fails with any slower row', () => {
    expect(runOutcome([j('slower', null), j('same', 1.05)], null, 5)).toBe('fail');
  });

  it('passes identical code that could have caught little', () => {
    expect(runOutcome([j('undecided', 1.4), j('undecided', 1.5)], null, 5)).toBe('pass');
  });

  it('is undecided with no row, or more than a third without an interval', () => {
    expect(runOutcome([], null, 5)).toBe('undecided');
    expect(runOutcome([j('undecided', null), j('undecided', 1.1), j('same', 1.06)], null, 5)).toBe(
      'pass',
    );
    expect(runOutcome([j('undecided', null), j('undecided', null), j('same', 1.06)], null, 5)).toBe(
      'undecided',
    );
  });

  it('with --detect, is undecided when more than a third of the rows could not have caught it', () => {
    const rows = [j('undecided', 1.12), j('same', 1.08), j('same', 1.06)];
    expect(runOutcome(rows, 10, 5)).toBe('pass');
    expect(runOutcome([...rows, j('undecided', 1.2)], 10, 5)).toBe('undecided');
  });

  it('with --detect, counts a row shown same as answering it, its interval ruling out a slowdown that size', () => {
    // Settled as same at a look, over fewer passes: a detectable slowdown above ×1.10 of its own.
    const rows = [j('same', 1.15), j('same', 1.13), j('undecided', 1.2)];
    expect(runOutcome(rows, 10, 5)).toBe('pass');
    expect(runOutcome([...rows, j('undecided', 1.2)], 10, 5)).toBe('undecided');
    // A slowdown under the threshold can hide inside a same row's ±5%.
    expect(runOutcome(rows, 3, 5)).toBe('undecided');
    expect(meetsDetect(j('same', 1.15), 10, 5)).toBe(true);
    expect(meetsDetect(j('same', 1.15), 4, 5)).toBe(false);
    expect(meetsDetect(j('undecided', 1.15), 10, 5)).toBe(false);
    expect(meetsDetect(j('undecided', 1.1), 10, 5)).toBe(true);
  });
});

describe('powerText', () => {
  it('says the median detectable slowdown, the range, and with --detect how many rows reach it', () => {
    const judged: Judged[] = [1.06, 1.09, 1.2].map((d) => ({
      verdict: 'undecided',
      pSlower: 0.5,
      detectable: d,
    }));
    expect(powerText(powerOf(judged, 10, 5))).toBe(
      'this run would have caught a slowdown of ×1.09 or more at its median row (rows: ×1.06 to ×1.20); ×1.10 or more, or shown same, in 2 of 3 rows (--detect 10%)',
    );
    expect(powerText(powerOf([], null, 5))).toBe('no row had an interval to catch a slowdown with');
  });

  it('leaves out the rows shown slower, whose cells show no slowdown they could have caught', () => {
    const row = (verdict: Judged['verdict'], detectable: number): Judged => ({
      verdict,
      pSlower: verdict === 'slower' ? 0.001 : 0.5,
      detectable,
    });
    expect(
      powerText(powerOf([row('slower', 1.03), row('same', 1.08), row('undecided', 1.3)], null, 5)),
    ).toBe(
      'this run would have caught a slowdown of ×1.19 or more at its median row of the 2 rows not shown slower (rows: ×1.08 to ×1.30)',
    );
    expect(powerText(powerOf([row('slower', 1.071), row('slower', 1.072)], null, 5))).toBe(
      'every row compared is slower: each caught its slowdown',
    );
  });

  it('gives no range when its ends read the same at two decimals', () => {
    const judged: Judged[] = [1.0701, 1.0702].map((d) => ({
      verdict: 'undecided',
      pSlower: 0.5,
      detectable: d,
    }));
    expect(powerText(powerOf(judged, null, 5))).toBe(
      'this run would have caught a slowdown of ×1.07 or more at its median row',
    );
  });
});

describe('currentWord', () => {
  it("reads the older files' words for not decided, and compare's regression, as today's", () => {
    expect(
      ['unsure', 'inconclusive', 'too close to call', 'regression', 'holds'].map(currentWord),
    ).toEqual(['undecided', 'undecided', 'undecided', 'slower', 'holds']);
  });
});
