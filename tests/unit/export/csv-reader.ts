/** Reads CSV in the tests, independently of the exporter, for round trips. */
/** A small RFC 4180 reader, written independently of the exporter, for the round trip. */
/** RFC 4180 ends records with CRLF; LibreOffice ends them with LF, so the end is a parameter. */
export function parseCsv(text: string, newline: '\r\n' | '\n' = '\r\n'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"' && field === '') {
      // A quoted field runs to the next quote that is not doubled.
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error(`unterminated quote at ${i}`);
        field += text.slice(i, q);
        if (text[q + 1] === '"') {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      const next = text[i];
      if (next !== ',' && !text.startsWith(newline, i) && next !== undefined)
        throw new Error(`text after a closing quote at ${i}`);
    } else if (ch === ',') {
      row.push(field);
      field = '';
      i++;
    } else if (text.startsWith(newline, i)) {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += newline.length;
    } else if (ch === '\r' || ch === '\n') {
      throw new Error(`a line break other than the record end outside quotes at ${i}`);
    } else {
      field += ch;
      i++;
    }
  }
  if (field !== '' || row.length > 0) throw new Error('last record has no record end');
  return rows;
}
