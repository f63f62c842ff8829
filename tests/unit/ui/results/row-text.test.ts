import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import type { Interval } from '../../../../src/core/stats/stats.ts';
import {
  describeMean,
  describeMedian,
  formatMedianInterval,
  precisionNotes,
  samplingNotes,
  shortMedianInterval,
  stopNote,
} from '../../../../src/ui/results/row-text.ts';

type OkRow = Extract<CaseResult, { status: 'ok' }>;

/**
 * The mean (6 ± 1) is far from the median on purpose: text that mixes them up fails. `absent`:
 * a file from before the median's interval was recorded.
 */
function row(
  extra: Partial<OkRow> = {},
  medianCi: Interval | null | 'absent' = { lo: 3.9, hi: 4.1 },
): OkRow {
  return {
    suite: 'read',
    case: 'get',
    title: 'get',
    adapter: 'idb',
    size: 100,
    params: {},
    operations: 100,
    status: 'ok',
    reason: null,
    samples: [],
    warmup: [],
    stats: {
      n: 20,
      min: 3,
      max: 30,
      mean: 6,
      median: 4,
      stddev: 2,
      ci95: 1,
      ...(medianCi === 'absent' ? {} : { medianCi }),
    },
    ...extra,
  };
}

describe('row text - the median with its own interval', () => {
  it("gives the median's interval, never the mean's, beside the median", () => {
    expect(formatMedianInterval(row())).toBe('3.90 – 4.10');
    expect(shortMedianInterval(row())).toBe('±2.5%');
    expect(describeMedian(row())).toBe(
      'median 4.00 ms, 95% CI of the median 3.90 – 4.10 ms (±2.5%)',
    );
  });

  it('says why a median has no interval: too few samples, or an older file', () => {
    expect(shortMedianInterval(row({}, null))).toBe('n<6');
    expect(describeMedian(row({}, null))).toBe(
      'median 4.00 ms; no 95% CI of the median: fewer than 6 samples',
    );
    expect(shortMedianInterval(row({}, 'absent'))).toBe('no CI');
    expect(describeMedian(row({}, 'absent'))).toBe(
      'median 4.00 ms; no 95% CI of the median: not recorded in this file',
    );
    expect(formatMedianInterval(row({}, 'absent'))).toBeNull();
  });

  it('gives the interval itself around a 0 ms median, which has no relative size', () => {
    expect(
      shortMedianInterval({
        ...row({}, { lo: 0, hi: 0.005 }),
        stats: { ...row().stats, median: 0, medianCi: { lo: 0, hi: 0.005 } },
      }),
    ).toBe('[0.000 – 0.00500]');
  });

  it('labels the mean and its Student-t interval as the mean', () => {
    expect(describeMean(row().stats)).toBe('mean 6.00 ms ± 1.00 ms (Student-t 95% CI of the mean)');
    expect(describeMean({ mean: 6, ci95: null, n: 1 })).toBe(
      'mean 6.00 ms (no interval of the mean with 1 sample)',
    );
  });
});

describe('row text - how the row was sampled', () => {
  it('names every stop reason that says something, and a sample cap only under adaptive sampling', () => {
    expect(stopNote(row({ stopped: 'budget' }), true)).toBe(
      'stopped when its share of the time budget was spent',
    );
    expect(stopNote(row({ stopped: 'time-cap' }), true)).toBe(
      'stopped at its time cap (max-ms) before its precision target',
    );
    expect(stopNote(row({ stopped: 'ci-target' }), true)).toBe('reached its precision target');
    expect(stopNote(row({ stopped: 'iterations' }), true)).toBe(
      'stopped at its sample cap (max-n) before its precision target',
    );
    expect(stopNote(row({ stopped: 'iterations' }), false)).toBeNull();
    expect(stopNote(row(), true)).toBeNull();
  });

  it('says whether the database was shared and how many runs a sample holds', () => {
    expect(samplingNotes(row({ db: 'shared', repeats: 1200 }))).toEqual([
      'shared database',
      '1,200 runs per sample (times are per run)',
    ]);
    expect(samplingNotes(row({ db: 'fresh', repeats: 1 }))).toEqual(['fresh database per sample']);
    expect(samplingNotes(row())).toEqual([]);
  });

  it('puts precision, stop reason and sampling in one compact list', () => {
    expect(
      precisionNotes(row({ stopped: 'budget', db: 'shared', repeats: 40, precision: 0.031 }), true),
    ).toEqual([
      'median ±3.1%, stopped when its share of the time budget was spent',
      'shared database',
      '40 runs per sample (times are per run)',
    ]);
    expect(precisionNotes(row({ stopped: 'iterations' }, null), false)).toEqual([
      'no 95% CI of the median: fewer than 6 samples',
    ]);
  });
});
