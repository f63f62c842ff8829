import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import readXlsxFile from 'read-excel-file/node';
import { afterAll, describe, expect, it } from 'vitest';
import { exportCommand, parseExportArgs } from '../../../../src/cli/commands/export.ts';
import { ArgsError } from '../../../../src/cli/args/flags.ts';
import { parseResultsInput } from '../../../../src/core/results/input.ts';
import { validateResults } from '../../../../src/core/results/recompute.ts';
import { toCsv } from '../../../../src/export/csv.ts';
import { toJson } from '../../../../src/export/json.ts';
import { handBuilt } from '../../helpers/export-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'storebench-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  return exportCommand(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) }).then(
    (code) => ({ code, stdout, stderr }),
  );
}

describe('export cli - flags', () => {
  it('takes files, a format, --samples and --out', () => {
    expect(parseExportArgs(['a.json', '--format', 'csv'])).toEqual({
      help: false,
      files: ['a.json'],
      format: 'csv',
      samples: false,
      findings: false,
      bom: false,
      out: null,
    });
    expect(
      parseExportArgs(['a.json', 'b.json', '--format=tsv', '--samples', '--out', 'x.tsv']),
    ).toEqual({
      help: false,
      files: ['a.json', 'b.json'],
      format: 'tsv',
      samples: true,
      findings: false,
      bom: false,
      out: 'x.tsv',
    });
    expect(parseExportArgs(['a.json', '--out', 'book.XLSX']).format).toBe('xlsx');
    expect(parseExportArgs(['--help']).help).toBe(true);
  });

  it('says what is wrong', () => {
    const bad: [string[], RegExp][] = [
      [['--format', 'csv'], /no results file given/],
      [['a.json'], /--format is needed/],
      [['a.json', '--format', 'ods'], /--format: unknown "ods"; allowed: csv, tsv, xlsx, json/],
      [['a.json', '--format', 'xlsx'], /xlsx is binary: give --out PATH/],
      [['a.json', '--format', 'json', '--samples'], /--samples works with csv and tsv, not json/],
      [['a.json', '--format'], /--format needs a value/],
      [['a.json', '--format', 'csv', '--format', 'tsv'], /--format is given more than once/],
      [['a.json', '--sheet', 'x'], /unknown flag --sheet/],
    ];
    for (const [argv] of bad)
      expect(() => parseExportArgs(argv), argv.join(' ')).toThrow(ArgsError);
    for (const [argv, message] of bad) expect(() => parseExportArgs(argv)).toThrow(message);
  });
});

describe('export cli - files', () => {
  const one = join(dir, 'run-chromium.json');
  writeFileSync(one, toJson(handBuilt()));
  const merged = join(dir, 'merged.json');
  const second = handBuilt();
  second.run.browser = 'firefox';
  writeFileSync(merged, toJson([handBuilt(), second]));

  it('writes CSV to standard output, the same text as the page', async () => {
    const { code, stdout } = await run([one, '--format', 'csv']);
    expect(code).toBe(0);
    // As read, with the summaries recomputed from the samples, as the page reads a file too.
    expect(stdout).toBe(toCsv(validateResults(handBuilt())));
    const excel = await run([one, '--format', 'csv', '--bom']);
    expect(excel.stdout).toBe(`\uFEFF${stdout}`);
  });

  it('accepts a merged file (an array of documents) and several files together', async () => {
    const out = join(dir, 'all.json');
    const { code, stderr } = await run([merged, one, '--format', 'json', '--out', out]);
    expect(code).toBe(0);
    expect(stderr).toContain('from 3 documents');
    expect(parseResultsInput(readFileSync(out, 'utf8'), out).map((d) => d.run.browser)).toEqual([
      'chromium',
      'firefox',
      'chromium',
    ]);
  });

  it('writes a workbook that opens', async () => {
    const out = join(dir, 'book.xlsx');
    const { code } = await run([merged, '--format', 'xlsx', '--out', out]);
    expect(code).toBe(0);
    const sheets = await readXlsxFile(out);
    expect(sheets.map((s) => s.sheet)).toEqual(['insert', 'environment', 'findings']);
    expect(sheets[0]?.data).toHaveLength(1 + 2 * handBuilt().cases.length);
  });

  it('names the file and the field of a bad document, and exits 2', async () => {
    const bad = join(dir, 'bad.json');
    const doc = JSON.parse(toJson(handBuilt())) as { cases: { size: unknown }[] };
    (doc.cases[1] as { size: unknown }).size = -3;
    writeFileSync(bad, JSON.stringify(doc));
    const { code, stderr } = await run([one, bad, '--format', 'csv']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `export: ${bad}: $.cases[1].size: expected a whole number >= 1, got number -3\n`,
    );
  });

  it('exits 2 on a bad flag, a missing file, a directory, and an output it cannot write', async () => {
    expect((await run([one, '--format', 'pdf'])).code).toBe(2);
    const missing = await run([join(dir, 'nope.json'), '--format', 'csv']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`export: ${join(dir, 'nope.json')}: no such file\n`);
    expect((await run([dir, '--format', 'csv'])).stderr).toBe(
      `export: ${dir}: is a directory; give a results .json file\n`,
    );
    const nowhere = await run([one, '--format', 'csv', '--out', '/dev/null/x.csv']);
    expect(nowhere).toMatchObject({
      code: 2,
      stderr: 'export: --out: cannot write /dev/null/x.csv: a part of the path is not a folder\n',
    });
  });
});

describe('export cli - --bom', () => {
  it('puts a byte-order mark before the CSV, and only a CSV', () => {
    expect(parseExportArgs(['a.json', '--format', 'csv', '--bom']).bom).toBe(true);
    expect(() => parseExportArgs(['a.json', '--format', 'tsv', '--bom'])).toThrow(
      '--bom works with csv, not tsv',
    );
  });
});
