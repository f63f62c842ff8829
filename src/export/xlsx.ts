/**
 * XLSX export: a workbook with one sheet per suite (one row per case of every run, with every
 * statistic), an `environment` sheet (one row per run: browser, OS, timer step, plan, ...) and,
 * when the runs checked any, a `findings` sheet (one row per finding in a browser and store).
 * Written by write-excel-file, whose `universal` build makes a Blob both in the page and in Node.
 *
 * `xlsxSheets` is the pure part, a description of every cell, and is what the tests compare
 * exactly; `toXlsx` only zips it.
 */
import writeXlsxFile, {
  type Cell as XlsxCell,
  type Feature,
  type Sheet,
} from 'write-excel-file/universal';
import type { ResultsFile } from '../core/results/results.ts';
import { ExportLimitError, safeText, type Cell } from './cells.ts';
import { asList } from './csv.ts';
import {
  caseTable,
  environmentTable,
  findingsTable,
  SUITE_SHEET_COLUMNS,
  type Table,
} from './table.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const ENVIRONMENT_SHEET = 'environment';
const FINDINGS_SHEET = 'findings';

/** Excel refuses these in a sheet name (control characters included), and names longer than 31 characters. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SHEET_NAME_BAD = /[[\]/\\:*?\u0000-\u001f\u007f]/g;
const SHEET_NAME_MAX = 31;
const WIDEST_COLUMN = 60;

/**
 * The most rows (case rows and the environment sheet's, one a document) a workbook takes here:
 * write-excel-file holds every cell in memory, and 20,000 rows take 0.7 GB, 200,000 rows 1.6 GB.
 * A sweep of every suite in three browsers has 432 rows; CSV and TSV take files of any size.
 */
const MAX_XLSX_ROWS = 10_000;
/** The most characters of text a workbook takes here: 50 MB of text takes its writer 0.9 GB. */
const MAX_XLSX_TEXT = 16_000_000;

/** Refuse a workbook over MAX_XLSX_ROWS before a cell of it is made. */
function checkRows(files: readonly ResultsFile[]): void {
  let rows = files.length;
  for (const f of files) rows += f.cases.length;
  if (rows > MAX_XLSX_ROWS) {
    throw new ExportLimitError(
      `xlsx: ${rows.toLocaleString('en-US')} rows (cases and documents) is more than the ${MAX_XLSX_ROWS.toLocaleString('en-US')} a workbook takes here (it is built in memory); export csv or tsv instead, or fewer files`,
    );
  }
}

/** Refuse a workbook whose text is over MAX_XLSX_TEXT. */
function checkText(sheets: readonly Sheet<Blob>[]): void {
  let chars = 0;
  for (const sheet of sheets)
    for (const row of sheet.data)
      for (const cell of row)
        if (cell && typeof cell === 'object' && 'value' in cell && typeof cell.value === 'string')
          chars += cell.value.length;
  if (chars > MAX_XLSX_TEXT) {
    throw new ExportLimitError(
      `xlsx: ${chars.toLocaleString('en-US')} characters of text is more than the ${MAX_XLSX_TEXT.toLocaleString('en-US')} a workbook takes here (it is built in memory); export csv or tsv instead, or fewer files`,
    );
  }
}

/** The workbook, or an ExportLimitError over MAX_XLSX_ROWS or MAX_XLSX_TEXT. */
export async function toXlsx(results: ResultsFile | readonly ResultsFile[]): Promise<Blob> {
  checkRows(asList(results));
  const sheets = xlsxSheets(results);
  checkText(sheets);
  const written = await writeXlsxFile(sheets, { features: [autoFilters(sheets)] }).toBlob();
  return new Blob([written], { type: XLSX_TYPE });
}

/**
 * Put a filter button on each column header, as Excel's Data > Filter does: an <autoFilter> over
 * the sheet's table and the hidden name `_xlnm._FilterDatabase` Excel keeps with it.
 * write-excel-file has no option for it; this feature of its own edits the XML as it writes it
 * (unzipping and zipping the package again held every part of a big workbook twice). It throws if
 * the layout (sheetN.xml in sheet order, an empty <definedNames/>) ever changes.
 */
function autoFilters(sheets: readonly Sheet<Blob>[]): Feature<Blob> {
  const range = (sheet: Sheet<Blob>) =>
    `$A$1:$${columnLetters(sheet.data[0]?.length ?? 1)}$${Math.max(1, sheet.data.length)}`;
  const names = sheets.map((sheet, i) => {
    const quoted = `'${(sheet.sheet ?? '').replace(/'/g, "''")}'`;
    return `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">${xmlText(quoted)}!${range(sheet)}</definedName>`;
  });
  return {
    files: {
      transform: {
        'xl/worksheets/sheet{id}.xml': {
          transform: (xml, _options, { sheetIndex }) =>
            edited(
              xml,
              `sheet${sheetIndex + 1}.xml`,
              '</sheetData>',
              `</sheetData><autoFilter ref="${range(sheets[sheetIndex] as Sheet<Blob>).replace(/\$/g, '')}"/>`,
            ),
        },
        'xl/workbook.xml': {
          transform: (xml) =>
            edited(
              xml,
              'workbook.xml',
              '<definedNames/>',
              `<definedNames>${names.join('')}</definedNames>`,
            ),
        },
      },
    },
  };
}

/** `xml` with `marker` replaced (literally: a sheet name may hold `$'`), or an error when write-excel-file's layout changed. */
function edited(xml: string, file: string, marker: string, replacement: string): string {
  if (!xml.includes(marker))
    throw new Error(`xlsx: ${file} has no ${marker}; write-excel-file's layout changed`);
  return xml.replace(marker, () => replacement);
}

/** 1 -> A, 26 -> Z, 27 -> AA. */
export function columnLetters(n: number): string {
  let letters = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26))
    letters = String.fromCharCode(65 + ((k - 1) % 26)) + letters;
  return letters;
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xlsxSheets(results: ResultsFile | readonly ResultsFile[]): Sheet<Blob>[] {
  const files = asList(results);
  const names = new SheetNames(new Set<string>([ENVIRONMENT_SHEET, FINDINGS_SHEET]));
  const sheets = [...bySuite(files)].map(([suite, only]) =>
    sheetOf(names.take(suite), caseTable(only, SUITE_SHEET_COLUMNS)),
  );
  sheets.push(sheetOf(ENVIRONMENT_SHEET, environmentTable(files)));
  const findings = findingsTable(files);
  if (findings.rows.length > 0) sheets.push(sheetOf(FINDINGS_SHEET, findings));
  return sheets;
}

/** Each suite's rows, in the order suites first appear, as documents holding only them: one pass, however many suites. */
function bySuite(files: readonly ResultsFile[]): Map<string, ResultsFile[]> {
  const out = new Map<string, ResultsFile[]>();
  for (const file of files) {
    const mine = new Map<string, ResultsFile>();
    for (const row of file.cases) {
      let only = mine.get(row.suite);
      if (!only) {
        only = { ...file, cases: [] };
        mine.set(row.suite, only);
        const docs = out.get(row.suite);
        if (docs) docs.push(only);
        else out.set(row.suite, [only]);
      }
      only.cases.push(row);
    }
  }
  return out;
}

/**
 * The number format of a column, from its name: times in ms with three decimals, the median's
 * precision as a percentage, rates with thousands separators, counts as whole numbers. General
 * (none) for the rest, which would otherwise show 233.304999999702.
 */
export function columnFormat(column: string): string | undefined {
  if (column.endsWith('_ms')) return '0.000';
  if (column === 'median_precision') return '0.0%';
  // A ratio and its interval: three decimals at least, five for a small factor such as 0.00872.
  if (column === 'ratio' || column === 'lo' || column === 'hi') return '0.000##';
  if (column === 'ops_per_sec' || column.endsWith('_bytes')) return '#,##0';
  if (['n', 'size', 'operations', 'cores', 'repeats', 'outliers', 'index'].includes(column))
    return '0';
  return undefined;
}

function sheetOf(name: string, table: Table): Sheet<Blob> {
  const header = table.columns.map((c): XlsxCell => ({
    value: safeText(c),
    type: String,
    fontWeight: 'bold',
  }));
  const formats = table.columns.map(columnFormat);
  const data = [
    header,
    ...table.rows.map((row) => row.map((value, i) => withFormat(xlsxCell(value), formats[i]))),
  ];
  // A loop, not Math.max(...rows): 200,000 rows as arguments overflow the stack.
  const widths = table.columns.map((c) => c.length);
  for (const row of table.rows)
    widths.forEach((w, i) => (widths[i] = Math.max(w, displayLength(row[i] ?? null))));
  const columns = widths.map((w) => ({ width: Math.min(WIDEST_COLUMN, w + 2) }));
  return { sheet: name, data, columns, stickyRowsCount: 1 };
}

/** Numbers and booleans keep their type, so a spreadsheet can sum and chart them; text is made safe. */
export function xlsxCell(value: Cell): XlsxCell {
  if (value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? { value, type: Number } : null;
  if (typeof value === 'boolean') return { value, type: Boolean };
  return { value: safeText(value), type: String };
}

function withFormat(cell: XlsxCell, format: string | undefined): XlsxCell {
  if (
    !format ||
    cell === null ||
    cell === undefined ||
    typeof cell !== 'object' ||
    !('type' in cell) ||
    cell.type !== Number
  )
    return cell;
  return { ...cell, format };
}

function displayLength(value: Cell): number {
  return value === null ? 0 : String(value).length;
}

/** A legal, unused sheet name close to `wanted`: a suite id from a file may hold anything. */
export function uniqueSheetName(wanted: string, taken: Set<string>): string {
  return new SheetNames(taken).take(wanted);
}

/** Sheet names handed out, compared as Excel does, without regard to case; each in time independent of how many there are. */
class SheetNames {
  private readonly lower: Set<string>;
  /** Per name wanted, the first suffix not yet tried: thousands of suites sharing their first 31 characters number on, not from 2 each time. */
  private readonly next = new Map<string, number>();

  constructor(private readonly taken: Set<string>) {
    this.lower = new Set([...taken].map((t) => t.toLowerCase()));
  }

  take(wanted: string): string {
    const base =
      wanted
        .replace(SHEET_NAME_BAD, '_')
        .replace(/^'+|'+$/g, '')
        .slice(0, SHEET_NAME_MAX) || 'suite';
    let name = base;
    for (let i = this.next.get(base.toLowerCase()) ?? 2; this.lower.has(name.toLowerCase()); i++) {
      const suffix = ` (${i})`;
      name = base.slice(0, SHEET_NAME_MAX - suffix.length) + suffix;
      this.next.set(base.toLowerCase(), i + 1);
    }
    this.lower.add(name.toLowerCase());
    this.taken.add(name);
    return name;
  }
}
