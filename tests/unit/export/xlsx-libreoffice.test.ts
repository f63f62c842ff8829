/**
 * The workbook as a spreadsheet program reads it: LibreOffice Calc, headless (Debian's
 * libreoffice-calc-nogui, which the README's test install step and .ci/run install). It converts
 * each sheet to CSV twice, once with raw values and once as the cells are shown, and once back to
 * XLSX to see which filters it kept.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUITE_SHEET_COLUMNS } from '../../../src/export/table.ts';
import { columnLetters, toXlsx, xlsxSheets } from '../../../src/export/xlsx.ts';
import { sampleResults } from '../../sample-results.ts';
import { parseCsv } from './csv-reader.ts';
import { handBuilt } from '../helpers/export-fixture.ts';

const SOFFICE = '/usr/bin/soffice';
/** CSV filter options: comma, double quote, UTF-8, from line 1, ..., then "as shown", and -1 for every sheet. */
const csvFilter = (asShown: boolean) =>
  `csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,${asShown},false,false,-1`;

let dir = '';
const docs = [handBuilt(), sampleResults()];

function convert(to: string, outdir: string): void {
  // A profile of its own, so a LibreOffice the user has open does not take the job.
  execFileSync(
    SOFFICE,
    [
      `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
      '--headless',
      '--convert-to',
      to,
      '--outdir',
      join(dir, outdir),
      join(dir, 'book.xlsx'),
    ],
    { stdio: 'pipe', timeout: 120_000 },
  );
}

const sheetCsv = (outdir: string, sheet: string) =>
  parseCsv(readFileSync(join(dir, outdir, `book-${sheet}.csv`), 'utf8'), '\n');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'storebench-xlsx-'));
  writeFileSync(join(dir, 'book.xlsx'), new Uint8Array(await (await toXlsx(docs)).arrayBuffer()));
  convert(csvFilter(false), 'raw');
  convert(csvFilter(true), 'shown');
  convert('xlsx', 'again');
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('export xlsx - opened in LibreOffice Calc', () => {
  it('reads back every number of every sheet as written', () => {
    let numbers = 0;
    for (const sheet of xlsxSheets(docs)) {
      const rows = sheetCsv('raw', sheet.sheet as string);
      expect(rows.length).toBe(sheet.data.length);
      sheet.data.forEach((row, r) =>
        row.forEach((cell, c) => {
          const value =
            cell && typeof cell === 'object' ? (cell as { value?: unknown }).value : undefined;
          if (typeof value !== 'number') return;
          const text = rows[r]?.[c] ?? '';
          // Percent-formatted cells keep their % even as raw values.
          const read = text.endsWith('%') ? Number(text.slice(0, -1)) / 100 : Number(text);
          expect(
            Math.abs(read - value),
            `${sheet.sheet} ${SUITE_SHEET_COLUMNS[c] ?? c} row ${r}: ${text}`,
          ).toBeLessThanOrEqual(Math.abs(value) * 1e-13);
          numbers++;
        }),
      );
    }
    expect(numbers).toBeGreaterThan(50);
  });

  it('shows times with three decimals, the precision as a percentage and counts whole', () => {
    const rows = sheetCsv('shown', 'insert');
    const column = (name: string) =>
      rows
        .slice(1)
        .map((row) => row[rows[0]!.indexOf(name)] ?? '')
        .filter((v) => v !== '');
    expect(column('median_ms').length).toBeGreaterThan(0);
    for (const v of column('median_ms')) expect(v).toMatch(/^[\d,]*\d\.\d{3}$/);
    for (const v of column('median_precision')) expect(v).toMatch(/^\d+\.\d%$/);
    for (const v of column('n')) expect(v).toMatch(/^\d+$/);
  });

  it('keeps a filter on each sheet, over its whole table', () => {
    const files = unzipSync(new Uint8Array(readFileSync(join(dir, 'again', 'book.xlsx'))));
    const sheets = xlsxSheets(docs);
    sheets.forEach((sheet, i) => {
      const xml = strFromU8(files[`xl/worksheets/sheet${i + 1}.xml`]!);
      expect(xml, sheet.sheet).toContain(
        `<autoFilter ref="A1:${columnLetters(sheet.data[0]!.length)}${sheet.data.length}"`,
      );
    });
  });
});
