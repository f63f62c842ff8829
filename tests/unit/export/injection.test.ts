import { describe, expect, it } from 'vitest';
import type { CaseResult, ResultsFile } from '../../../src/core/results/results.ts';
import { toCsv, toSamplesCsv } from '../../../src/export/csv.ts';
import { toSamplesTsv, toTsv } from '../../../src/export/tsv.ts';
import { parseCsv } from './csv-reader.ts';
import { handBuilt } from '../helpers/export-fixture.ts';

/** Text that some spreadsheet runs as a formula under some separator. */
const HOSTILE = [
  ';=2*21;',
  '=2*21',
  ',=1+1',
  '\t=1',
  '+1',
  '-1+2',
  '@SUM(1)',
  'x;@A1',
  'a\n=1',
  '"=1',
  'x, =1',
  'x;""=1',
];
const SEPARATORS = [',', ';', '\t'] as const;
// A leading tab or CR is a trigger for what follows it (a spreadsheet may drop it and then see the
// =), so a field is checked past the spaces, tabs, CRs and quotes a reader may trim: in TSV the
// separator tab itself begins a field when the file is split at a cell's own ; or ,.
const FORMULA_START = /^[=+\-@]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** A results document whose text cells (titles, reasons, params, metric names) hold every hostile text. */
function hostileDocument(): ResultsFile {
  const doc = handBuilt();
  const base = doc.cases[0] as Extract<CaseResult, { status: 'ok' }>;
  doc.cases = HOSTILE.flatMap((text): CaseResult[] => [
    {
      ...base,
      title: text,
      params: { text },
      samples: [1, 2, 3],
      warmup: [],
      metrics: { [text]: [-1.5, 2, -0.25] },
    },
    {
      ...base,
      title: text,
      status: 'error',
      reason: text,
      samples: [],
      warmup: [],
      stats: undefined,
    } as unknown as CaseResult,
  ]);
  return doc;
}

/** Fields as a reader that ignores quotes sees them: every line split at `sep`. */
function naiveFields(text: string, sep: string): string[] {
  return text.split(/\r\n|\r|\n/).flatMap((line) => line.split(sep));
}

/**
 * Fields as a spreadsheet's quote-aware reader sees them with separator `sep`: a field that
 * starts with a quote runs to the next undoubled quote (line breaks included), and any text after
 * that quote joins the field, as LibreOffice and Excel do.
 */
function quotedFields(text: string, sep: string): string[] {
  const fields: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"' && field === '') {
      for (i++; i < text.length; i++) {
        if (text[i] !== '"') field += text[i];
        else if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else break;
      }
      i++;
    } else if (ch === sep || ch === '\r' || ch === '\n') {
      fields.push(field);
      field = '';
      i++;
    } else {
      field += ch;
      i++;
    }
  }
  fields.push(field);
  return fields;
}

/** Fields that a spreadsheet would run as a formula; a plain number is a number, not a formula. */
function formulas(fields: readonly string[]): string[] {
  return fields.filter((f) => {
    const t = f.replace(/^[ "\t\r]+|[ "]+$/g, '');
    return !NUMBER.test(t) && FORMULA_START.test(t);
  });
}

const EXPORTS = {
  csv: toCsv,
  'samples csv': toSamplesCsv,
  tsv: toTsv,
  'samples tsv': toSamplesTsv,
} as const;

describe('export - no formula under any separator', () => {
  for (const [name, write] of Object.entries(EXPORTS)) {
    it(`${name}: no field starts a formula, split at , ; or tab, with or without quotes`, () => {
      const text = write(hostileDocument());
      for (const sep of SEPARATORS) {
        expect(formulas(naiveFields(text, sep)), `naive split at ${JSON.stringify(sep)}`).toEqual(
          [],
        );
        expect(
          formulas(quotedFields(text, sep)),
          `quote-aware split at ${JSON.stringify(sep)}`,
        ).toEqual([]);
      }
    });
  }

  it('the checks find the formula in text written plainly (so they can fail)', () => {
    expect(formulas(naiveFields('a,x;=2*21;,b\r\n', ';'))).toEqual(['=2*21']);
    expect(formulas(quotedFields('a,"x;=2*21;",b\r\n', ';'))).toEqual(['=2*21']);
    expect(formulas(quotedFields('"=1",b', ','))).toEqual(['=1']);
    expect(formulas(naiveFields('a;\t=1', ';'))).toEqual(['\t=1']);
  });

  it('keeps ordinary titles, numbers and negative numbers as they are', () => {
    const doc = hostileDocument();
    doc.cases[0] = { ...(doc.cases[0] as CaseResult), title: 'insert one at a time (await each)' };
    const [header, row] = parseCsv(toCsv(doc));
    expect(row?.[header!.indexOf('title')]).toBe('insert one at a time (await each)');
    expect(row?.[header!.indexOf('size')]).toBe('100');
    const samples = parseCsv(toSamplesCsv(doc));
    const metric = (samples[0] as string[]).indexOf(`metric_${HOSTILE[0]}`);
    expect(metric).toBe(-1); // the header's metric name is neutralised, not the values
    const values = samples.slice(1, 4).map((r) => r.filter((cell) => cell.startsWith('-')));
    expect(values).toEqual([['-1.5'], [], ['-0.25']]);
    const tsvRow = toSamplesTsv(doc).split('\r\n')[1]?.split('\t') ?? [];
    expect(tsvRow).toContain('-1.5');
    expect(tsvRow.slice(0, 4)).toEqual([
      '2026-11-20T10-00-00Z-ab12',
      'chromium',
      'insert',
      'serial',
    ]);
  });
});
