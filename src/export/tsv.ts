/**
 * TSV for the clipboard: what Google Sheets and Excel read when a table is pasted. Tab between
 * cells, CRLF between rows (Excel's own clipboard text). Pure: no DOM, no I/O.
 *
 * TSV has no escape for a tab or a line break inside a cell, and a paste would split the row
 * there, so both become a space. Only a cell that starts with a quote is quoted CSV-style,
 * because both spreadsheets take a leading quote on paste as the start of a quoted field; a
 * quote anywhere else is pasted as it is, so JSON cells are written plainly.
 */
import type { ResultsFile } from '../core/results/results.ts';
import { delimitedCell, delimitedChunks, joined, type Cell } from './cells.ts';
import { asList } from './csv.ts';
import { exportTable, type ExportTable } from './table.ts';

export function toTsv(results: ResultsFile | readonly ResultsFile[]): string {
  return joined(tsvChunks(results, 'cases'));
}

export function toSamplesTsv(results: ResultsFile | readonly ResultsFile[]): string {
  return joined(tsvChunks(results, 'samples'));
}

/** toTsv, toSamplesTsv or the findings a piece at a time, for a writer that streams it. */
export function tsvChunks(
  results: ResultsFile | readonly ResultsFile[],
  which: ExportTable,
): Iterable<string> {
  const table = exportTable(asList(results), which);
  return delimitedChunks(table.columns, table.rows, tsvCell, '\t');
}

export function tsvCell(value: Cell): string {
  // Made safe first (delimitedCell): a leading tab or CR is itself a formula trigger, and must be seen before it becomes a space.
  return delimitedCell(value, (safe) => {
    const flat = safe.replace(/\r\n|[\t\r\n]/g, ' ');
    return flat.startsWith('"') ? `"${flat.replace(/"/g, '""')}"` : flat;
  });
}
