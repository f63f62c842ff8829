import { describe, expect, it } from 'vitest';
import { isFormulaLike, safeDelimitedText, safeText } from '../../../src/export/cells.ts';
import { csvCell } from '../../../src/export/csv.ts';
import { tsvCell } from '../../../src/export/tsv.ts';
import { xlsxCell } from '../../../src/export/xlsx.ts';

const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];

describe('export cells - formula neutralisation', () => {
  it('prefixes a single quote to text that starts with a formula character', () => {
    for (const t of TRIGGERS) {
      expect(isFormulaLike(`${t}SUM(A1:A9)`)).toBe(true);
      expect(safeText(`${t}SUM(A1:A9)`)).toBe(`'${t}SUM(A1:A9)`);
    }
  });

  it('leaves other text alone, including formula characters further in', () => {
    for (const text of ['pouchdb-idb', 'a=b', ' =1', "'=1", '', '1+1', 'chromium']) {
      expect(isFormulaLike(text)).toBe(false);
      expect(safeText(text)).toBe(text);
    }
  });

  it('is the one rule in CSV, TSV and XLSX', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(tsvCell('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`); // a quote not at the start is pasted as it is
    expect(xlsxCell('=HYPERLINK("x")')).toEqual({ value: `'=HYPERLINK("x")`, type: String });
    expect(csvCell('@SUM(1)')).toBe("'@SUM(1)");
    expect(tsvCell('+1')).toBe("'+1");
    expect(xlsxCell('-1')).toEqual({ value: "'-1", type: String });
  });

  it('in CSV and TSV, also neutralises a formula after a separator or line break, past spaces and quotes', () => {
    expect(safeDelimitedText(';=2*21;')).toBe(";'=2*21;");
    expect(safeDelimitedText('x, "+1')).toBe(`x, "'+1`);
    expect(safeDelimitedText('\t=1')).toBe("'\t'=1");
    expect(safeDelimitedText('a\n@b')).toBe("a\n'@b");
    expect(safeDelimitedText('a=b; c-d, 1+1')).toBe('a=b; c-d, 1+1');
    expect(csvCell(';=2*21;')).toBe(`";'=2*21;"`);
    expect(tsvCell('x;-1')).toBe("x;'-1");
  });

  it('never touches numbers, negative ones included', () => {
    expect(csvCell(-1.5)).toBe('-1.5');
    expect(tsvCell(-1.5)).toBe('-1.5');
    expect(xlsxCell(-1.5)).toEqual({ value: -1.5, type: Number });
  });

  it('leaves non-finite numbers and nulls empty, and keeps booleans', () => {
    for (const v of [Number.POSITIVE_INFINITY, Number.NaN, null]) {
      expect(csvCell(v)).toBe('');
      expect(tsvCell(v)).toBe('');
      expect(xlsxCell(v)).toBeNull();
    }
    expect(csvCell(true)).toBe('true');
    expect(tsvCell(false)).toBe('false');
    expect(xlsxCell(true)).toEqual({ value: true, type: Boolean });
  });
});
