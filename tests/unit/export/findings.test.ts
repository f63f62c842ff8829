/**
 * What the runs found, exported: the XLSX workbook's `findings` sheet read back with
 * read-excel-file, and the CSV of its own (`npm run export -- FILE --format csv --findings`),
 * for a committed results file of three browsers. Their cells are the page's: the claim, the
 * store, the browser, the ratio with its interval, and the verdict of each line it shows.
 */
import { readFileSync } from 'node:fs';
import readXlsxFile, { type SheetData } from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { expectedRatio } from '../helpers/expected-ratio.ts';
import { exportCommand, parseExportArgs } from '../../../src/cli/commands/export.ts';
import { runFindings } from '../../../src/core/verdicts/default-findings.ts';
import { fmt } from '../../../src/core/verdicts/findings.ts';
import type { CaseResult, ResultsFile } from '../../../src/core/results/results.ts';
import { parseResults } from '../../../src/core/results/recompute.ts';
import { toFindingsCsv } from '../../../src/export/csv.ts';
import { FINDING_COLUMNS } from '../../../src/export/table.ts';
import { toXlsx } from '../../../src/export/xlsx.ts';
import { parseCsv } from './csv-reader.ts';
import { handBuilt } from '../helpers/export-fixture.ts';

const RUN = 'results/2026-11-25T06-13-31Z-73a2';
const FILES = ['chromium', 'firefox', 'webkit'].map((b) => `${RUN}-${b}.json`);
const docs: ResultsFile[] = FILES.map((f) => parseResults(readFileSync(f, 'utf8'), f));
/** What the page lists: the same findings, as lines with their sentences. */
const lines = runFindings(docs);
const col = (name: (typeof FINDING_COLUMNS)[number]) => FINDING_COLUMNS.indexOf(name);

async function findingsSheet(results: ResultsFile[]): Promise<SheetData> {
  const book = await readXlsxFile(Buffer.from(await (await toXlsx(results)).arrayBuffer()));
  const sheet = book.find((s) => s.sheet === 'findings');
  expect(sheet, 'a findings sheet').toBeDefined();
  return sheet?.data ?? [];
}

/** The workbook of the three files, built once for the tests that read its findings sheet. */
const sheetOfDocs = findingsSheet(docs);

describe('export - the findings sheet of the workbook', () => {
  it('has a row per finding in a browser and store, with the cells the page shows', async () => {
    const data = await sheetOfDocs;
    expect(data[0]).toEqual([...FINDING_COLUMNS]);
    const rows = data.slice(1);
    expect(rows).toHaveLength(lines.length);
    rows.forEach((row, i) => {
      const line = lines[i]!;
      expect([
        row[col('claim')],
        row[col('store')],
        row[col('browser')],
        row[col('verdict')],
      ]).toEqual([line.claim, line.store, line.browser, line.verdict]);
      // The page's sentence says the sheet's numbers, to three figures, and ends in the sheet's verdict.
      const [ratio, lo, hi] = [row[col('ratio')], row[col('lo')], row[col('hi')]] as (
        number | null
      )[];
      // A store against raw IndexedDB reads the way it goes: below 1, "N× faster", N = 1 ÷ ratio.
      const turned = line.topic === 'over-raw' && typeof ratio === 'number' && ratio < 1;
      if (typeof lo === 'number' && typeof hi === 'number')
        expect(line.text).toContain(
          turned
            ? `${fmt(1 / ratio)}× [${fmt(1 / hi)}, ${fmt(1 / lo)}] faster`
            : `${fmt(ratio as number)}× [${fmt(lo)}, ${fmt(hi)}]`,
        );
      if (line.verdict === 'missing')
        expect([ratio, lo, hi, row[col('why')]]).toEqual([null, null, null, line.why]);
      else
        expect(line.text).toMatch(
          new RegExp(`: ${row[col('verdict')] as string}(: too few (samples|passes)|$)`),
        );
      expect(row[col('method')]).toBe(line.method ?? null);
    });
  });

  it("gives startkey over skip/limit on idb in chromium as the ratio of the rows' own medians per operation, paired by pass", async () => {
    const rows = (await sheetOfDocs).slice(1);
    const row = rows.find(
      (r) =>
        r[col('claim')] === 'startkey paging is faster than skip/limit paging' &&
        r[col('store')] === 'idb' &&
        r[col('browser')] === 'chromium',
    );
    const chromium = docs[0]!.cases;
    const idb = (kase: string) =>
      chromium.find(
        (x) => x.suite === 'paginate' && x.case === kase && x.adapter === 'idb',
      ) as CaseResult;
    expect(row?.[col('ratio')]).toBeCloseTo(expectedRatio(idb('ref-skip'), idb('ref-startkey')), 9);
    expect(row?.[col('lo')] as number).toBeLessThan(row?.[col('ratio')] as number);
    expect(row?.[col('hi')] as number).toBeGreaterThan(row?.[col('ratio')] as number);
    expect(row?.[col('verdict')]).toBe('holds');
    expect([row?.[col('size')], row?.[col('finding')], row?.[col('why')]]).toEqual([
      100,
      'startkey-over-skip',
      null,
    ]);
  });

  it('keeps a missing finding, with which row and why', async () => {
    const rows = (await sheetOfDocs).slice(1);
    const websql = rows.find(
      (r) =>
        r[col('finding')] === 'startkey-over-skip' &&
        r[col('store')] === 'websql' &&
        r[col('browser')] === 'chromium',
    );
    expect(websql?.[col('verdict')]).toBe('missing');
    expect(websql?.[col('why')]).toBe(
      'ref-skip is unsupported: WebSQL (openDatabase) is not available in this browser',
    );
  });
});

describe('export - the findings CSV', () => {
  it('takes --findings with csv and tsv only, and not with --samples', () => {
    expect(parseExportArgs(['a.json', '--format', 'csv', '--findings']).findings).toBe(true);
    expect(parseExportArgs(['a.json', '--format', 'tsv', '--findings']).findings).toBe(true);
    expect(() =>
      parseExportArgs(['a.json', '--format', 'xlsx', '--findings', '--out', 'b.xlsx']),
    ).toThrow('--findings works with csv and tsv, not xlsx (the workbook has a findings sheet)');
    expect(() => parseExportArgs(['a.json', '--format', 'json', '--findings'])).toThrow(
      '--findings works with csv and tsv, not json',
    );
    expect(() => parseExportArgs(['a.json', '--format', 'csv', '--findings', '--samples'])).toThrow(
      '--samples and --findings are two different tables; give one',
    );
  });

  it('writes the same rows as the sheet, under one header, from the command line', async () => {
    let stdout = '';
    const code = await exportCommand([...FILES, '--format', 'csv', '--findings'], {
      stdout: (t) => (stdout += t),
      stderr: () => undefined,
    });
    expect(code).toBe(0);
    expect(stdout).toBe(toFindingsCsv(docs));
    const [header, ...rows] = parseCsv(stdout);
    expect(header).toEqual([...FINDING_COLUMNS]);
    const sheet = (await sheetOfDocs).slice(1);
    expect(rows).toEqual(sheet.map((r) => r.map((v) => (v === null ? '' : String(v)))));
  });

  it('makes a store name from a file safe from a spreadsheet formula', () => {
    const [, ...rows] = parseCsv(toFindingsCsv(handBuilt()));
    const evil = rows.find((r) => r[col('store')]?.includes('@evil'));
    expect(evil?.[col('store')]).toBe("'@evil");
    expect(evil?.[col('verdict')]).toBe('missing');
  });
});
