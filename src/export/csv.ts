/**
 * CSV export, RFC 4180: CRLF line ends, fields quoted when they hold a comma, semicolon, tab,
 * quote, CR or LF (the separators a CSV is opened with, as well as RFC 4180's), quotes doubled. Three views: one row per case with every statistic and the environment
 * (`toCsv`), one row per raw sample (`toSamplesCsv`), and one row per finding in a browser and
 * store (`toFindingsCsv`), each a table of its own under one header. Pure: no DOM, no I/O.
 */
import type { ResultsFile } from '../core/results.ts';
import { delimitedCell, type Cell } from './cells.ts';
import { CASE_COLUMNS, caseTable, findingsTable, samplesTable, type CaseColumn, type Table } from './table.ts';

export { plainNumber } from './cells.ts';

export const CSV_COLUMNS = CASE_COLUMNS;
export type CsvColumn = CaseColumn;

/**
 * A byte-order mark before the text, for Excel: without one it reads a CSV in the system's legacy
 * code page, and "×" or any other non-ASCII text comes out garbled. Other readers skip it.
 */
export function withBom(text: string): string {
  return `\uFEFF${text}`;
}

/** All runs' cases under one header, in the order given. */
export function toCsv(results: ResultsFile | readonly ResultsFile[]): string {
  return tableToCsv(caseTable(asList(results)));
}

/** One row per sample, warm-up and timed, of every case of every run. */
export function toSamplesCsv(results: ResultsFile | readonly ResultsFile[]): string {
  return tableToCsv(samplesTable(asList(results)));
}

/** What the runs found: one row per finding checked in a browser and store (table.ts findingsTable). */
export function toFindingsCsv(results: ResultsFile | readonly ResultsFile[]): string {
  return tableToCsv(findingsTable(asList(results)));
}

export function tableToCsv(table: Table): string {
  const lines = [table.columns.map((c) => csvCell(c)).join(',')];
  for (const row of table.rows) lines.push(row.map(csvCell).join(','));
  return lines.map((l) => `${l}\r\n`).join('');
}

export function csvCell(value: Cell): string {
  return delimitedCell(value, (safe) => (/[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe));
}

export function asList(results: ResultsFile | readonly ResultsFile[]): readonly ResultsFile[] {
  return Array.isArray(results) ? results : [results as ResultsFile];
}
