/**
 * What every spreadsheet format shares: the cell type, and the rules that keep text from a
 * results file from running as a formula. XLSX cells go through `safeText`; CSV and TSV cells
 * through `delimitedCell`, whose stricter rule holds whatever separator the file is opened with.
 * Pure: no DOM, no I/O.
 */

/** A cell before formatting. Numbers stay numbers, so they are never mistaken for formulas. */
export type Cell = string | number | boolean | null;

/**
 * Text that a spreadsheet would run as a formula: =, +, - or @ first, or a leading tab or CR
 * (which some spreadsheets strip before looking for the =). OWASP "CSV injection":
 * https://owasp.org/www-community/attacks/CSV_Injection
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function isFormulaLike(text: string): boolean {
  return FORMULA_START.test(text);
}

/** The text with a leading single quote when it would otherwise start a formula; else unchanged. */
export function safeText(text: string): string {
  return isFormulaLike(text) ? `'${text}` : text;
}

/** Formula characters (as FORMULA_START), and where a reader may start a field inside a cell. */
const FORMULA_CHARS = new Set(['=', '+', '-', '@', '\t', '\r']);
// The separators a CSV or TSV file is commonly opened with, and line breaks (a reader that ignores quotes starts a row there).
const FIELD_BREAKS = new Set([',', ';', '\t', '\r', '\n']);

/**
 * Text for CSV and TSV, safe under any separator: a `,` file opened with `;` has a field `=1` in
 * `a,"x;=1"`, so quoting is not enough. A formula character gets a leading ' at the start of the
 * text and after every `,` `;` tab or line break, past any spaces and quotes a reader may trim;
 * OWASP's recommendation: https://owasp.org/www-community/attacks/CSV_Injection
 */
export function safeDelimitedText(text: string): string {
  let out = '';
  let fieldStart = true;
  for (const ch of text) {
    if (fieldStart && FORMULA_CHARS.has(ch)) out += "'";
    out += ch;
    fieldStart = FIELD_BREAKS.has(ch) || (fieldStart && (ch === ' ' || ch === '"'));
  }
  return out;
}

/**
 * A cell of CSV or TSV: empty for null and non-finite numbers, numbers as plain numbers (a
 * negative one stays a number, never a formula), text made safe and then written by `write`.
 */
export function delimitedCell(value: Cell, write: (safe: string) => string): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? plainNumber(value) : '';
  return write(safeDelimitedText(value));
}

/**
 * The shortest text that reads back as the same number, without an exponent: spreadsheets and
 * some CSV readers treat `1e-7` as text. Never locale-formatted.
 */
export function plainNumber(x: number): string {
  const s = String(x);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign = '', lead = '', frac = '', expText = '0'] = m;
  const exp = Number(expText);
  const digits = lead + frac;
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  return sign + digits + '0'.repeat(Math.max(0, exp - frac.length));
}

/** Characters of text handed to a writer at once: whole lines, about a MiB of them. */
export const CHUNK_CHARS = 1 << 20;

/**
 * A delimited table (CSV, TSV) a piece at a time, CRLF after every line: a table of millions of
 * samples, or of texts repeated on every row, is written as it is made, never held as one string.
 */
export function* delimitedChunks(
  columns: readonly string[],
  rows: Iterable<readonly Cell[]>,
  cell: (value: Cell) => string,
  separator: string,
): Generator<string> {
  let chunk = `${columns.map(cell).join(separator)}\r\n`;
  for (const row of rows) {
    chunk += `${row.map(cell).join(separator)}\r\n`;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk !== '') yield chunk;
}

/** Every piece as one text, for a caller that wants the whole (the page's downloads, the tests). */
export function joined(chunks: Iterable<string>): string {
  return Array.from(chunks).join('');
}

/** An export that a writer of this build cannot make within its memory, with why and what to do instead. */
export class ExportLimitError extends Error {
  override readonly name = 'ExportLimitError';
}
