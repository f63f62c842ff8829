import { describe, expect, it } from 'vitest';
import {
  COLUMN_NOTE,
  formatCell,
  formatMedian,
  LEGEND,
  renderTable,
  resultsTable,
} from '../../../../src/cli/terminal/table.ts';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import type { Interval } from '../../../../src/core/stats/stats.ts';

type OkRow = Extract<CaseResult, { status: 'ok' }>;

const base = { suite: 'insert', case: 'bulk', title: 't', params: {}, operations: 100, warmup: [] };
/**
 * An ok row whose median has the interval `medianCi` (null: too few samples; undefined: a file
 * from before it was recorded). The mean's ci95 is far off on purpose: a cell showing it fails.
 */
const ok = (
  adapter: string,
  median: number,
  medianCi: Interval | null | undefined,
  size = 100,
): OkRow => ({
  ...base,
  adapter,
  size,
  samples: [median],
  status: 'ok',
  reason: null,
  stats: {
    n: medianCi === null ? 3 : 20,
    min: median,
    max: median,
    mean: median * 2,
    median,
    stddev: 0,
    ci95: median,
    ...(medianCi === undefined ? {} : { medianCi }),
  },
});
const bad = (
  adapter: string,
  status: 'error' | 'timeout' | 'unsupported',
  reason: string,
  size = 100,
  kase = 'bulk',
): CaseResult => ({
  ...base,
  case: kase,
  adapter,
  size,
  samples: [],
  status,
  reason,
});

describe('cli table - numbers', () => {
  it("gives the median with the larger side of its own 95% interval, not the mean's", () => {
    expect(formatMedian(ok('idb', 4, { lo: 3.9, hi: 4.06 }))).toBe('4.00 ±2.5%');
    expect(formatMedian(ok('idb', 200, { lo: 150, hi: 230 }))).toBe('200 ±25%');
    expect(formatMedian({ ...ok('idb', 4, { lo: 3.9, hi: 4.06 }), precision: 0.014 })).toBe(
      '4.00 ±1.4%',
    );
    expect(formatMedian(ok('idb', 4, null))).toBe('4.00 (n<6, no interval)');
    expect(formatMedian(ok('idb', 4, undefined))).toBe('4.00 (interval not recorded)');
    expect(formatMedian(ok('idb', 0, { lo: 0, hi: 0.005 }))).toBe('0.000 [0.000, 0.00500]');
  });

  it('shows the status for rows that are not ok, and - for none', () => {
    expect(formatCell(bad('idb', 'timeout', 'cut off'))).toBe('timeout');
    expect(formatCell(undefined)).toBe('-');
  });
});

describe('cli table - layout', () => {
  it('pads columns, aligns numbers right and rules the header', () => {
    expect(
      renderTable(
        ['a', 'num'],
        [
          ['xyz', '1'],
          ['q', '10.5'],
        ],
        ['left', 'right'],
      ),
    ).toBe(['a     num', '---  ----', 'xyz     1', 'q    10.5'].join('\n'));
  });

  it('rules a header of several lines once, under the last', () => {
    expect(
      renderTable(
        [
          ['a', 'num'],
          ['', 'ms'],
        ],
        [['xyz', '10.5']],
        ['left', 'right'],
      ),
    ).toBe(['a     num', '       ms', '---  ----', 'xyz  10.5'].join('\n'));
  });

  it('has a row per suite/case/adapter/size that some browser could run, a column per browser, adapters in plan order, factors to the fastest', () => {
    const text = resultsTable(
      [
        {
          browser: 'chromium',
          cases: [
            bad('websql', 'unsupported', 'no openDatabase'),
            ok('idb', 4.21, { lo: 4.1, hi: 4.3 }),
            ok('memory', 0.412, null),
          ],
        },
        {
          browser: 'firefox',
          cases: [
            bad('websql', 'unsupported', 'no openDatabase'),
            bad('idb', 'timeout', 'cut off at 1000 ms'),
          ],
        },
      ],
      ['idb', 'websql', 'memory'],
    );
    expect(text).toBe(
      [
        'suite   case  adapter  size                        chromium                       firefox',
        '                               median ms (95% CI) × fastest  median ms (95% CI) × fastest',
        '------  ----  -------  ----  ------------------------------  ----------------------------',
        'insert  bulk  idb       100                4.21 ±2.6% ×10.2                       timeout',
        'insert  bulk  memory    100  0.412 (n<6, no interval) ×1.00                             -',
        LEGEND,
        '',
        'Errors and timeouts:',
        '  firefox idb timeout (insert/bulk size 100): cut off at 1000 ms',
        '',
        'Unsupported:',
        '  chromium websql (1 row): no openDatabase',
        '  firefox websql (1 row): no openDatabase',
      ].join('\n'),
    );
  });

  it('puts rows that failed alike on one line', () => {
    const rows = ['serial', 'bulk', 'chunked-1', 'chunked-10'].map((c) =>
      bad('websql', 'error', 'no openDatabase', 100, c),
    );
    const text = resultsTable([{ browser: 'webkit', cases: rows }]);
    expect(text).toContain(
      '  webkit websql error (4 rows: insert/serial size 100, insert/bulk size 100, insert/chunked-1 size 100, …): no openDatabase',
    );
  });

  it('marks medians under 20 timer steps and lists them with a hint', () => {
    const text = resultsTable([
      {
        browser: 'chromium',
        timerStepMs: 0.005,
        cases: [ok('idb', 4.21, { lo: 4.1, hi: 4.3 }), ok('memory', 0.05, { lo: 0.045, hi: 0.06 })],
      },
    ]);
    expect(text.split('\n').slice(1, 5)).toEqual([
      `${' '.repeat(30)}${COLUMN_NOTE}`,
      '------  ----  -------  ----  -----------------------------',
      // Both medians have intervals, the rows no passes: the ratio's interval from each median's own.
      'insert  bulk  idb       100  4.21 ±2.6% ×84.2 [72.8, 97.4]',
      'insert  bulk  memory    100            0.0500 ±20% ×1.00 ~',
    ]);
    expect(text.split('\n').slice(-2)).toEqual([
      'Under 20 timer steps, mostly timer noise (use bigger --sizes):',
      '  chromium memory insert/bulk size 100: median timed section 0.0500 ms = 10 steps of 0.005 ms',
    ]);
  });

  it("counts a repeated body's whole timed section against the timer step, not one run", () => {
    // 0.05 ms a run, 200 runs a sample: a 10 ms timed section, 2,000 steps of 5 µs.
    const repeated = { ...ok('memory', 0.05, { lo: 0.049, hi: 0.051 }), repeats: 200 };
    const text = resultsTable([{ browser: 'chromium', timerStepMs: 0.005, cases: [repeated] }]);
    expect(text.split('\n')[3]).toBe('insert  bulk  memory    100            0.0500 ±2.0% ×1.00');
    expect(text).not.toContain('Under 20 timer steps');
  });

  it('says so when there are no rows', () => {
    expect(resultsTable([{ browser: 'chromium', cases: [] }]).split('\n')[0]).toBe('(no rows)');
  });
});
