/**
 * XLSX export: a workbook with one sheet per suite (one row per case of every run, with every
 * statistic), an `environment` sheet (one row per run: browser, OS, timer step, plan, ...) and,
 * when the runs checked any, a `findings` sheet (one row per finding in a browser and store).
 * Written by write-excel-file, whose `universal` build makes a Blob both in the page and in Node.
 *
 * `xlsxSheets` is the pure part, a description of every cell, and is what the tests compare
 * exactly; `toXlsx` only zips it.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import writeXlsxFile, { type Cell as XlsxCell, type Sheet } from 'write-excel-file/universal';
import type { ResultsFile } from '../core/results.ts';
import { safeText, type Cell } from './cells.ts';
import { asList } from './csv.ts';
import { caseTable, environmentTable, findingsTable, SUITE_SHEET_COLUMNS, type Table } from './table.ts';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const ENVIRONMENT_SHEET = 'environment';
export const FINDINGS_SHEET = 'findings';

/** Excel refuses these in a sheet name (control characters included), and names longer than 31 characters. */
// eslint-disable-next-line no-control-regex
const SHEET_NAME_BAD = /[[\]/\\:*?\u0000-\u001f\u007f]/g;
const SHEET_NAME_MAX = 31;
const WIDEST_COLUMN = 60;

export async function toXlsx(results: ResultsFile | readonly ResultsFile[]): Promise<Blob> {
  const sheets = xlsxSheets(results);
  const written = new Uint8Array(await (await writeXlsxFile(sheets).toBlob()).arrayBuffer());
  return new Blob([withAutoFilters(written, sheets) as Uint8Array<ArrayBuffer>], { type: XLSX_TYPE });
}

/**
 * Put a filter button on each column header, as Excel's Data > Filter does: an <autoFilter> over
 * the sheet's table and the hidden name `_xlnm._FilterDatabase` Excel keeps with it.
 * write-excel-file has no option for it, so this edits the package it wrote; it throws if that
 * package's layout (sheetN.xml in sheet order, an empty <definedNames/>) ever changes.
 */
export function withAutoFilters(xlsx: Uint8Array, sheets: readonly Sheet<Blob>[]): Uint8Array {
  const files = unzipSync(xlsx);
  const edit = (path: string, marker: string, replacement: string) => {
    const text = files[path] ? strFromU8(files[path]) : '';
    if (!text.includes(marker)) throw new Error(`xlsx: ${path} has no ${marker}; write-excel-file's layout changed`);
    files[path] = strToU8(text.replace(marker, replacement));
  };
  const names = sheets.map((sheet, i) => {
    const columns = sheet.data[0]?.length ?? 1;
    const range = `$A$1:$${columnLetters(columns)}$${Math.max(1, sheet.data.length)}`;
    edit(`xl/worksheets/sheet${i + 1}.xml`, '</sheetData>', `</sheetData><autoFilter ref="${range.replace(/\$/g, '')}"/>`);
    const quoted = `'${(sheet.sheet ?? '').replace(/'/g, "''")}'`;
    return `<definedName name="_xlnm._FilterDatabase" localSheetId="${i}" hidden="1">${xmlText(quoted)}!${range}</definedName>`;
  });
  edit('xl/workbook.xml', '<definedNames/>', `<definedNames>${names.join('')}</definedNames>`);
  return zipSync(files);
}

/** 1 -> A, 26 -> Z, 27 -> AA. */
export function columnLetters(n: number): string {
  let letters = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) letters = String.fromCharCode(65 + ((k - 1) % 26)) + letters;
  return letters;
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xlsxSheets(results: ResultsFile | readonly ResultsFile[]): Sheet<Blob>[] {
  const files = asList(results);
  const suites = [...new Set(files.flatMap((f) => f.cases.map((c) => c.suite)))];
  const taken = new Set<string>([ENVIRONMENT_SHEET, FINDINGS_SHEET]);
  const sheets = suites.map((suite) => {
    const only = files.map((f) => ({ ...f, cases: f.cases.filter((c) => c.suite === suite) }));
    return sheetOf(uniqueSheetName(suite, taken), caseTable(only, SUITE_SHEET_COLUMNS));
  });
  sheets.push(sheetOf(ENVIRONMENT_SHEET, environmentTable(files)));
  const findings = findingsTable(files);
  if (findings.rows.length > 0) sheets.push(sheetOf(FINDINGS_SHEET, findings));
  return sheets;
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
  if (['n', 'size', 'operations', 'cores', 'repeats', 'outliers', 'index'].includes(column)) return '0';
  return undefined;
}

function sheetOf(name: string, table: Table): Sheet<Blob> {
  const header = table.columns.map((c): XlsxCell => ({ value: safeText(c), type: String, fontWeight: 'bold' }));
  const formats = table.columns.map(columnFormat);
  const data = [header, ...table.rows.map((row) => row.map((value, i) => withFormat(xlsxCell(value), formats[i])))];
  const widths = table.columns.map((c, i) => Math.min(WIDEST_COLUMN, Math.max(c.length, ...table.rows.map((r) => displayLength(r[i] ?? null))) + 2));
  return { sheet: name, data, columns: widths.map((width) => ({ width })), stickyRowsCount: 1 };
}

/** Numbers and booleans keep their type, so a spreadsheet can sum and chart them; text is made safe. */
export function xlsxCell(value: Cell): XlsxCell {
  if (value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? { value, type: Number } : null;
  if (typeof value === 'boolean') return { value, type: Boolean };
  return { value: safeText(value), type: String };
}

function withFormat(cell: XlsxCell, format: string | undefined): XlsxCell {
  if (!format || cell === null || cell === undefined || typeof cell !== 'object' || !('type' in cell) || cell.type !== Number) return cell;
  return { ...cell, format };
}

function displayLength(value: Cell): number {
  return value === null ? 0 : String(value).length;
}

/** A legal, unused sheet name close to `wanted`: a suite id from a file may hold anything. */
export function uniqueSheetName(wanted: string, taken: Set<string>): string {
  const base = wanted.replace(SHEET_NAME_BAD, '_').replace(/^'+|'+$/g, '').slice(0, SHEET_NAME_MAX) || 'suite';
  let name = base;
  // Excel compares sheet names without regard to case.
  for (let i = 2; [...taken].some((t) => t.toLowerCase() === name.toLowerCase()); i++) {
    const suffix = ` (${i})`;
    name = base.slice(0, SHEET_NAME_MAX - suffix.length) + suffix;
  }
  taken.add(name);
  return name;
}
