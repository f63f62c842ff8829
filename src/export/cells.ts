/**
 * What every spreadsheet format shares: the cell type, and the one rule that keeps text from a
 * results file from running as a formula. CSV, TSV and XLSX all go through `safeText`, so the rule
 * cannot drift between them. Pure: no DOM, no I/O.
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
