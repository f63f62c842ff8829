import readXlsxFile from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import type { CaseResult, ResultsFile } from '../../../src/core/results/results.ts';
import { ENVIRONMENT_COLUMNS, SUITE_SHEET_COLUMNS } from '../../../src/export/table.ts';
import { unzipSync, strFromU8 } from 'fflate';
import {
  columnFormat,
  columnLetters,
  toXlsx,
  uniqueSheetName,
  xlsxSheets,
  XLSX_TYPE,
} from '../../../src/export/xlsx.ts';
import { handBuilt } from '../helpers/export-fixture.ts';

/** The hand-built run plus a second suite, so the workbook has two suite sheets. */
function twoSuites(): ResultsFile {
  const r = handBuilt();
  const read: CaseResult = {
    suite: 'read',
    case: 'get-serial',
    title: 'get one at a time',
    adapter: 'memory',
    size: 100,
    params: {},
    operations: 100,
    status: 'ok',
    reason: null,
    samples: [1.25, 1.5, 1.5, 1.5, 1.5, 1.75],
    warmup: [],
    stats: {
      n: 6,
      min: 1.25,
      max: 1.75,
      mean: 1.5,
      median: 1.5,
      stddev: 0.1581,
      ci95: 0.1659,
      medianCi: { lo: 1.25, hi: 1.75 },
    },
    precision: 0.16666666666666666,
    db: 'shared',
    repeats: 40,
  };
  r.cases.push(read);
  return r;
}

async function readBack(docs: ResultsFile | ResultsFile[]) {
  const blob = await toXlsx(docs);
  expect(blob.type).toBe(XLSX_TYPE);
  return readXlsxFile(Buffer.from(await blob.arrayBuffer()));
}

describe('export xlsx - sheets', () => {
  it('has a sheet per suite in first-seen order, then the environment sheet, then the findings', () => {
    const sheets = xlsxSheets(twoSuites());
    expect(sheets.map((s) => s.sheet)).toEqual(['insert', 'read', 'environment', 'findings']);
    expect(sheets.map((s) => s.stickyRowsCount)).toEqual([1, 1, 1, 1]);
    expect(sheets[0]?.data[0]).toEqual(
      SUITE_SHEET_COLUMNS.map((c) => ({ value: c, type: String, fontWeight: 'bold' })),
    );
    expect(sheets[0]?.data).toHaveLength(1 + 5);
    expect(sheets[1]?.data).toHaveLength(1 + 1);
    expect(sheets[2]?.data).toHaveLength(1 + 1);
  });

  it('describes each cell with its type: numbers as numbers, text made safe, no value as empty', () => {
    const [insert] = xlsxSheets(handBuilt());
    const col = (name: string) =>
      SUITE_SHEET_COLUMNS.indexOf(name as (typeof SUITE_SHEET_COLUMNS)[number]);
    const first = insert?.data[1] ?? [];
    expect(first[col('size')]).toEqual({ value: 100, type: Number, format: '0' });
    expect(first[col('median_ms')]).toEqual({ value: 4, type: Number, format: '0.000' });
    expect(first[col('mean_ci95_ms')]).toEqual({ value: 4.968275, type: Number, format: '0.000' });
    expect(first[col('reason')]).toBeNull();
    const evil = insert?.data[4] ?? [];
    expect(evil[col('title')]).toEqual({ value: "'=1+2", type: String });
    expect(evil[col('adapter')]).toEqual({ value: "'@evil", type: String });
    expect(evil[col('median_ms')]).toBeNull();
  });

  it('makes legal, distinct sheet names from any suite id', () => {
    const taken = new Set<string>(['environment']);
    expect(uniqueSheetName('a/b:c*d?[e]\\f', taken)).toBe('a_b_c_d__e__f');
    expect(uniqueSheetName('Environment', taken)).toBe('Environment (2)');
    expect(uniqueSheetName('x'.repeat(40), taken)).toBe('x'.repeat(31));
    expect(uniqueSheetName('x'.repeat(40), taken)).toBe(`${'x'.repeat(27)} (2)`);
    expect(uniqueSheetName("''", taken)).toBe('suite');
    // Names that differ only in control characters are distinct sheets, not four of one name.
    const names = ['in\u0001sert', 'in\u0002sert', 'in\u001bsert', 'in\rsert'].map((n) =>
      uniqueSheetName(n, taken),
    );
    expect(names).toEqual(['in_sert', 'in_sert (2)', 'in_sert (3)', 'in_sert (4)']);
  });

  it('formats each numeric column: ms with three decimals, the precision as a percentage, counts whole', () => {
    expect(columnFormat('median_ms')).toBe('0.000');
    expect(columnFormat('median_precision')).toBe('0.0%');
    expect(columnFormat('ops_per_sec')).toBe('#,##0');
    expect(columnFormat('n')).toBe('0');
    expect(columnFormat('title')).toBeUndefined();
  });

  it('names columns as a spreadsheet does, for the filter range', () => {
    expect([1, 26, 27, 29, 52, 53, 702, 703].map(columnLetters)).toEqual([
      'A',
      'Z',
      'AA',
      'AC',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
    ]);
  });
});

describe('export xlsx - the number formats, read back from the file', () => {
  it('stores the ms and count formats in styles.xml, and cells of the median column use the ms one', async () => {
    const files = unzipSync(new Uint8Array(await (await toXlsx(handBuilt())).arrayBuffer()));
    const styles = strFromU8(files['xl/styles.xml']!);
    const formats = new Map(
      [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/g)].map((m) => [
        m[2],
        m[1],
      ]),
    );
    expect([...formats.keys()]).toEqual(expect.arrayContaining(['0.000', '0']));
    // The cell formats (cellXfs) that use the ms format, and a median cell styled with one of them.
    const xfs = [
      ...(styles.match(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/)?.[1] ?? '').matchAll(
        /<xf\b([^>]*)>/g,
      ),
    ].map((m) => /numFmtId="(\d+)"/.exec(m[1] ?? '')?.[1]);
    const msStyles = xfs.flatMap((id, i) => (id === formats.get('0.000') ? [String(i)] : []));
    expect(msStyles.length).toBeGreaterThan(0);
    const sheet = strFromU8(files['xl/worksheets/sheet1.xml']!);
    const column = String.fromCharCode(65 + SUITE_SHEET_COLUMNS.indexOf('median_ms')); // within A to Z
    const median = new RegExp(`<c r="${column}2" s="(\\d+)"`).exec(sheet);
    expect(median?.[1] !== undefined && msStyles.includes(median[1])).toBe(true);
  });
});

describe('export xlsx - read back with read-excel-file', () => {
  it('opens, with the sheet names, headers, numbers and neutralised text', async () => {
    const sheets = await readBack(twoSuites());
    expect(sheets.map((s) => s.sheet)).toEqual(['insert', 'read', 'environment', 'findings']);
    const insert = sheets[0]!.data;
    expect(insert[0]).toEqual([...SUITE_SHEET_COLUMNS]);
    const at = (row: unknown[] | undefined, col: string) =>
      row?.[SUITE_SHEET_COLUMNS.indexOf(col as (typeof SUITE_SHEET_COLUMNS)[number])];
    expect(at(insert[1], 'run_id')).toBe('2026-11-20T10-00-00Z-ab12');
    expect(at(insert[1], 'size')).toBe(100);
    expect(at(insert[1], 'mean_ci95_ms')).toBe(4.968275);
    expect(at(insert[1], 'ops_per_sec')).toBe(25000);
    expect(at(insert[2], 'median_per_op_ms')).toBe(1e-7);
    expect(at(insert[2], 'ops_per_sec')).toBe(1e10);
    expect(at(insert[4], 'title')).toBe("'=1+2");
    expect(at(insert[4], 'reason')).toBe(`'=HYPERLINK("http://evil")\nsecond line`);
    expect(at(insert[5], 'status')).toBe('timeout');
    expect(at(insert[5], 'median_ms')).toBeNull();

    const read = sheets[1]!.data;
    expect(at(read[1], 'stddev_ms')).toBe(0.1581);
    expect([
      at(read[1], 'median_ci95_lo_ms'),
      at(read[1], 'median_ci95_hi_ms'),
      at(read[1], 'median_precision'),
    ]).toEqual([1.25, 1.75, 0.16666666666666666]);
    expect([at(read[1], 'db'), at(read[1], 'repeats')]).toEqual(['shared', 40]);
    expect(at(insert[1], 'median_ci95_lo_ms')).toBeNull();

    const env = sheets[2]!.data;
    expect(env[0]).toEqual([...ENVIRONMENT_COLUMNS]);
    const e = (col: string) =>
      env[1]?.[ENVIRONMENT_COLUMNS.indexOf(col as (typeof ENVIRONMENT_COLUMNS)[number])];
    expect(e('browser_version')).toBe('156.0.1');
    expect(e('cores')).toBe(4);
    expect(e('cross_origin_isolated')).toBe(true);
    expect(e('timer_step_ms')).toBe(0.005);
    expect(e('rows')).toBe(6);
  });

  it('puts several runs on the same suite sheet, and one environment row each', async () => {
    const a = handBuilt();
    const b = handBuilt();
    b.run.id = 'second';
    b.run.browser = 'firefox';
    const sheets = await readBack([a, b]);
    expect(sheets.map((s) => s.sheet)).toEqual(['insert', 'environment', 'findings']);
    expect(sheets[0]!.data).toHaveLength(1 + 2 * a.cases.length);
    expect(sheets[1]!.data.map((r) => r[1])).toEqual(['browser', 'chromium', 'firefox']);
  });

  it('writes a workbook with only the environment sheet for no runs', async () => {
    const sheets = await readBack([]);
    expect(sheets.map((s) => s.sheet)).toEqual(['environment']);
    expect(sheets[0]!.data).toEqual([[...ENVIRONMENT_COLUMNS]]);
  });
});
