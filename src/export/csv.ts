/**
 * CSV export, RFC 4180: CRLF line ends, fields quoted when they hold a comma, semicolon, tab,
 * quote, CR or LF (the separators a CSV is opened with, as well as RFC 4180's), quotes doubled. Three views: one row per case with every statistic and the environment
 * (`toCsv`), one row per raw sample (`toSamplesCsv`), and one row per finding in a browser and
 * store (`toFindingsCsv`), each a table of its own under one header. Pure: no DOM, no I/O.
 */
import type { ResultsFile } from '../core/results/results.ts';
import { delimitedCell, delimitedChunks, joined, type Cell } from './cells.ts';
import { CASE_COLUMNS, exportTable, type ExportTable } from './table.ts';

export { plainNumber } from './cells.ts';

export const CSV_COLUMNS = CASE_COLUMNS;

/**
 * A byte-order mark before the text, for Excel: without one it reads a CSV in the system's legacy
 * code page, and "×" or any other non-ASCII text comes out garbled. Other readers skip it.
 */
export function withBom(text: string): string {
  return `\uFEFF${text}`;
}

/** All runs' cases under one header, in the order given. */
export function toCsv(results: ResultsFile | readonly ResultsFile[]): string {
  return joined(csvChunks(results, 'cases'));
}

/** One row per sample, warm-up and timed, of every case of every run. */
export function toSamplesCsv(results: ResultsFile | readonly ResultsFile[]): string {
  return joined(csvChunks(results, 'samples'));
}

/** toCsv, toSamplesCsv or toFindingsCsv a piece at a time, for a writer that streams it. */
export function csvChunks(
  results: ResultsFile | readonly ResultsFile[],
  which: ExportTable,
): Iterable<string> {
  const table = exportTable(asList(results), which);
  return delimitedChunks(table.columns, table.rows, csvCell, ',');
}

/** What the runs found: one row per finding checked in a browser and store (table.ts findingsTable). */
export function toFindingsCsv(results: ResultsFile | readonly ResultsFile[]): string {
  return joined(csvChunks(results, 'findings'));
}

export function csvCell(value: Cell): string {
  return delimitedCell(value, (safe) =>
    /[",;\t\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe,
  );
}

export function asList(results: ResultsFile | readonly ResultsFile[]): readonly ResultsFile[] {
  return isList(results) ? results : [results];
}

// Array.isArray narrows to any[], which says nothing of a readonly list's items.
const isList = (results: ResultsFile | readonly ResultsFile[]): results is readonly ResultsFile[] =>
  Array.isArray(results);
