import { describe, expect, it } from 'vitest';
import { formatCell, formatMs, LEGEND, renderTable, resultsTable } from '../../src/cli/terminal-table.ts';
import type { CaseResult } from '../../src/core/results.ts';

const base = { suite: 'insert', case: 'bulk', title: 't', params: {}, operations: 100, warmup: [] };
const ok = (adapter: string, median: number, ci95: number | null, size = 100): CaseResult => ({
  ...base,
  adapter,
  size,
  samples: [median],
  status: 'ok',
  reason: null,
  stats: { n: ci95 === null ? 1 : 3, min: median, max: median, mean: median, median, stddev: 0, ci95 },
});
const bad = (adapter: string, status: 'error' | 'timeout' | 'unsupported', reason: string, size = 100, kase = 'bulk'): CaseResult => ({
  ...base,
  case: kase,
  adapter,
  size,
  samples: [],
  status,
  reason,
});

describe('cli table - numbers', () => {
  it('keeps three significant figures and gives the ± the same decimals', () => {
    expect(formatMs(1234.5, 10.26)).toBe('1235 ± 10');
    expect(formatMs(12.34, 0.456)).toBe('12.3 ± 0.5');
    expect(formatMs(4.2109, 0.62)).toBe('4.21 ± 0.62');
    expect(formatMs(0.412, 0.0213)).toBe('0.412 ± 0.021');
    expect(formatMs(0.0412, null)).toBe('0.0412');
    expect(formatMs(0, 0)).toBe('0.000 ± 0.000');
  });

  it('shows the status for rows that are not ok, and - for none', () => {
    expect(formatCell(bad('idb', 'timeout', 'cut off'))).toBe('timeout');
    expect(formatCell(undefined)).toBe('-');
  });
});

describe('cli table - layout', () => {
  it('pads columns, aligns numbers right and rules the header', () => {
    expect(renderTable(['a', 'num'], [['xyz', '1'], ['q', '10.5']], ['left', 'right'])).toBe(['a     num', '---  ----', 'xyz     1', 'q    10.5'].join('\n'));
  });

  it('has a row per suite/case/adapter/size, a column per browser, adapters in plan order', () => {
    const text = resultsTable(
      [
        { browser: 'chromium', cases: [bad('websql', 'unsupported', 'no openDatabase'), ok('idb', 4.21, 0.62), ok('memory', 0.412, 0.021)] },
        { browser: 'firefox', cases: [bad('websql', 'unsupported', 'no openDatabase'), bad('idb', 'timeout', 'cut off at 1000 ms')] },
      ],
      ['idb', 'websql', 'memory'],
    );
    expect(text).toBe(
      [
        'suite   case  adapter  size       chromium      firefox',
        '------  ----  -------  ----  -------------  -----------',
        'insert  bulk  idb       100    4.21 ± 0.62      timeout',
        'insert  bulk  websql    100    unsupported  unsupported',
        'insert  bulk  memory    100  0.412 ± 0.021            -',
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
    const rows = ['serial', 'bulk', 'chunked-1', 'chunked-10'].map((c) => bad('websql', 'error', 'no openDatabase', 100, c));
    const text = resultsTable([{ browser: 'webkit', cases: rows }]);
    expect(text).toContain('  webkit websql error (4 rows: insert/serial size 100, insert/bulk size 100, insert/chunked-1 size 100, …): no openDatabase');
  });

  it('marks medians under 20 timer steps and lists them with a hint', () => {
    const text = resultsTable([{ browser: 'chromium', timerStepMs: 0.005, cases: [ok('idb', 4.21, 0.62), ok('memory', 0.05, 0.01)] }]);
    expect(text.split('\n').slice(2, 4)).toEqual(['insert  bulk  idb       100        4.21 ± 0.62', 'insert  bulk  memory    100  0.0500 ± 0.0100 ~']);
    expect(text.split('\n').slice(-2)).toEqual(['Under 20 timer steps, mostly timer noise (use bigger --sizes):', '  chromium memory insert/bulk size 100: median 0.0500 ms = 10 steps of 0.005 ms']);
  });

  it('says so when there are no rows', () => {
    expect(resultsTable([{ browser: 'chromium', cases: [] }]).split('\n')[0]).toBe('(no rows)');
  });
});
