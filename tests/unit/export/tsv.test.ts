import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../../src/export/csv.ts';
import { toSamplesTsv, toTsv, tsvCell } from '../../../src/export/tsv.ts';
import type { CaseResult } from '../../../src/core/results/results.ts';
import { handBuilt } from '../helpers/export-fixture.ts';

const RUN =
  '2026-11-20T10-00-00Z-ab12\tchromium\tChromium\t156.0.1\tBlink\tLinux\t4\tmain\ttrue\t0.005';

describe('export tsv - exact output', () => {
  it('writes the CSV columns tab-separated with CRLF rows', () => {
    const lines = toTsv(handBuilt()).split('\r\n');
    expect(lines[0]).toBe(CSV_COLUMNS.join('\t'));
    expect(lines[1]).toBe(
      `${RUN}\tinsert\tserial\tinsert one at a time (await each)\tmemory\t100\t100\tok\t\t3\t2\t6\t4\t4\t2\t4.968275\t\t\t\t0.04\t25000\t1\titerations\tfresh\t1\t\t\t{}\t0.1.0\tabc1234`,
    );
    // Quotes in text are quoted CSV-style; the formula is neutralised; the newline becomes a space.
    expect(lines[4]).toBe(
      `${RUN}\tinsert\tserial\t'=1+2\t'@evil\t100\t100\terror\t'=HYPERLINK("http://evil") second line\t0\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t{"note":"a,b"}\t0.1.0\tabc1234`,
    );
    expect(lines).toHaveLength(handBuilt().cases.length + 2);
    expect(lines.at(-1)).toBe('');
  });

  it('writes one row per sample', () => {
    const lines = toSamplesTsv(handBuilt()).split('\r\n');
    expect(lines[0]).toBe(
      'run_id\tbrowser\tsuite\tcase\tadapter\tsize\toperations\tstatus\tphase\tindex\tms\tper_op_ms\toutlier',
    );
    expect(lines[1]).toBe(
      '2026-11-20T10-00-00Z-ab12\tchromium\tinsert\tserial\tmemory\t100\t100\tok\twarmup\t1\t9\t0.09\t',
    );
    expect(lines).toHaveLength(7 + 2);
  });
});

describe('export tsv - escaping', () => {
  it('keeps every row to one line and one cell per column, whatever the text holds', () => {
    const r = handBuilt();
    (r.cases[2] as CaseResult).reason = 'tab\there\r\nnew\nline\rcr';
    const lines = toTsv(r).split('\r\n');
    expect(lines).toHaveLength(r.cases.length + 2);
    for (const line of lines.slice(0, -1))
      expect(line.split('\t')).toHaveLength(CSV_COLUMNS.length);
    expect(lines[3]).toContain('\ttab here new line cr\t');
  });

  it('neutralises a leading tab before turning it into a space', () => {
    // The tab or CR is a field break too, so the = after it is neutralised as well.
    expect(tsvCell('\t=1')).toBe("' '=1");
    expect(tsvCell('\r=1')).toBe("' '=1");
  });

  it('leaves plain text unquoted', () => {
    expect(tsvCell('a, b; c')).toBe('a, b; c');
    expect(tsvCell('say "hi"')).toBe('say "hi"');
    expect(tsvCell('"quoted" first')).toBe('"""quoted"" first"');
  });
});
