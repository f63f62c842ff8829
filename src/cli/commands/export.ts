/**
 * `npm run export -- FILE... --format csv|tsv|xlsx|json [--samples | --findings] [--out PATH]`: the page's
 * exporters (src/export/) from the command line. A FILE holds one results document or a JSON
 * array of them (`npm run merge` output); every document is validated first, and a bad one is
 * named with the JSON path of the problem.
 */
import { extname } from 'node:path';
import { ResultsError, type ResultsFile } from '../../core/results/results.ts';
import { ExportLimitError, joined } from '../../export/cells.ts';
import { csvChunks, withBom } from '../../export/csv.ts';
import { jsonChunks } from '../../export/json.ts';
import { bmfText } from '../../export/bmf.ts';
import { tsvChunks } from '../../export/tsv.ts';
import type { ExportTable } from '../../export/table.ts';
import { toXlsx } from '../../export/xlsx.ts';
import { isEntry, runEntry, type CommandIo, PROCESS_IO } from '../args/command-io.ts';
import { ArgsError, flagText, outputsOf, scanFlags, type FlagSpec } from '../args/flags.ts';
import { checkOutputs, OutputError, outputFailure, writeAtomically } from '../files/output.ts';
import { readResultsFiles } from '../files/read-results.ts';

export const EXPORT_FORMATS = ['csv', 'tsv', 'xlsx', 'json', 'bmf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_USAGE = `Usage: storebench export FILE... --format csv|tsv|xlsx|json|bmf [--samples | --findings] [--bom] [--out PATH]
       (npm run export -- ... in storebench's own checkout)

Writes results files in another format. A FILE holds one results document or a JSON array of
them (what npm run merge writes); several FILEs are exported together.

  --format F   csv   one row per case, every statistic and the environment (RFC 4180)
               tsv   the same, tab-separated, for pasting into a spreadsheet
               xlsx  a workbook: one sheet per suite, an "environment" sheet and a
                     "findings" sheet (what the runs found, as --findings)
               json  the documents themselves (an array when there are several)
               bmf   Bencher Metric Format, for benchmark trackers: per row with a median,
                     {"suite/case/size/store/browser": {"latency": {value, lower_value,
                     upper_value}}}: the median and its 95% interval, in nanoseconds
               Default: from the extension of --out.
  --samples    csv and tsv: one row per raw sample (warm-up and timed) instead of per case
  --findings   csv and tsv: what the runs found instead, one row per finding in a browser
               and store: claim, store, browser, ratio (slower ÷ faster, per operation), lo
               and hi (its 95% interval), verdict, why, size, finding
  --bom        csv: start with a byte-order mark, so Excel reads it as UTF-8 (else "×" is garbled)
  --out PATH   where to write; without it csv, tsv and json go to standard output
  --help       this text

Text that a spreadsheet would run as a formula (=, +, -, @ first) is written with a leading ';
in csv and tsv also after every , ; tab or line break in the text, whatever the separator.`;

export interface ExportArgs {
  help: boolean;
  files: string[];
  format: ExportFormat;
  samples: boolean;
  /** csv and tsv: the findings table instead of the cases. */
  findings: boolean;
  /** csv: a byte-order mark first, for Excel. */
  bom: boolean;
  out: string | null;
}

export const EXPORT_FLAGS: Readonly<Record<string, FlagSpec>> = {
  format: { kind: 'value', example: 'csv' },
  out: { kind: 'value', example: 'book.xlsx', output: 'file' },
  samples: { kind: 'switch' },
  findings: { kind: 'switch' },
  bom: { kind: 'switch' },
};

/** Parse the flags. Throws ArgsError with a one-line message. */
export function parseExportArgs(argv: readonly string[]): ExportArgs {
  const flags = scanFlags(argv, EXPORT_FLAGS, { positionals: 'results files' });
  if (flags.help)
    return {
      help: true,
      files: [],
      format: 'csv',
      samples: false,
      findings: false,
      bom: false,
      out: null,
    };
  const files = flags.positionals;
  let format = flagText(flags, 'format');
  const out = flagText(flags, 'out');
  const samples = flags.values.has('samples');
  const findings = flags.values.has('findings');
  const bom = flags.values.has('bom');
  if (files.length === 0)
    throw new ArgsError(
      'no results file given; e.g. npm run export -- results/run-chromium.json --format csv',
    );
  if (format === undefined && out !== undefined) {
    const ext = extname(out).slice(1).toLowerCase();
    if ((EXPORT_FORMATS as readonly string[]).includes(ext)) format = ext;
  }
  if (format === undefined)
    throw new ArgsError(
      `--format is needed (${EXPORT_FORMATS.join(', ')}), or an --out path ending in one of them`,
    );
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new ArgsError(`--format: unknown "${format}"; allowed: ${EXPORT_FORMATS.join(', ')}`);
  const checked = format as ExportFormat;
  if (samples && checked !== 'csv' && checked !== 'tsv')
    throw new ArgsError(`--samples works with csv and tsv, not ${checked}`);
  if (findings && checked !== 'csv' && checked !== 'tsv')
    throw new ArgsError(
      `--findings works with csv and tsv, not ${checked}${checked === 'xlsx' ? ' (the workbook has a findings sheet)' : ''}`,
    );
  if (findings && samples)
    throw new ArgsError('--samples and --findings are two different tables; give one');
  if (bom && checked !== 'csv') throw new ArgsError(`--bom works with csv, not ${checked}`);
  if (checked === 'xlsx' && out === undefined)
    throw new ArgsError('xlsx is binary: give --out PATH, e.g. --out book.xlsx');
  return { help: false, files, format: checked, samples, findings, bom, out: out ?? null };
}

/** The exported bytes or text, exactly what the page's buttons download. */
export async function exportResults(
  docs: readonly ResultsFile[],
  format: ExportFormat,
  which: ExportTable,
  bom = false,
): Promise<string | Uint8Array> {
  const output = await exportPieces(docs, format, which, bom);
  return output instanceof Uint8Array ? output : joined(output);
}

/** exportResults, text a piece at a time: written as it is made, so no export holds its whole text. */
export async function exportPieces(
  docs: readonly ResultsFile[],
  format: ExportFormat,
  which: ExportTable,
  bom = false,
): Promise<Iterable<string> | Uint8Array> {
  switch (format) {
    case 'csv':
      return bom ? withBomFirst(csvChunks(docs, which)) : csvChunks(docs, which);
    case 'tsv':
      return tsvChunks(docs, which);
    case 'json':
      return jsonChunks(docs.length === 1 ? docs[0] : docs);
    case 'bmf':
      return [bmfText(docs)];
    case 'xlsx':
      return new Uint8Array(await (await toXlsx(docs)).arrayBuffer());
  }
}

/** The byte-order mark (csv.ts withBom) before the pieces, for Excel. */
function* withBomFirst(pieces: Iterable<string>): Generator<string> {
  yield withBom('');
  yield* pieces;
}

/** The command: 0 on success; 2 for bad flags, a file that cannot be read or is not valid results, or an output that cannot be written. */
export async function exportCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let args: ExportArgs;
  try {
    args = parseExportArgs(argv);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`export: ${e.message}\n`);
    return 2;
  }
  if (args.help) {
    io.stdout(`${EXPORT_USAGE}\n`);
    return 0;
  }
  let docs: ResultsFile[];
  try {
    checkOutputs(outputsOf(EXPORT_FLAGS, { out: args.out }));
    docs = readResultsFiles(args.files).flat();
  } catch (e) {
    if (!(e instanceof ResultsError) && !(e instanceof OutputError)) throw e;
    io.stderr(`export: ${e.message}\n`);
    return 2;
  }
  let output: Iterable<string> | Uint8Array;
  try {
    output = await exportPieces(
      docs,
      args.format,
      args.findings ? 'findings' : args.samples ? 'samples' : 'cases',
      args.bom,
    );
  } catch (e) {
    if (!(e instanceof ExportLimitError)) throw e;
    io.stderr(`export: ${e.message}\n`);
    return 2;
  }
  if (args.out === null) {
    for (const piece of output as Iterable<string>) (io.data ?? io.stdout)(piece);
    return 0;
  }
  try {
    writeAtomically(args.out, output);
  } catch (e) {
    io.stderr(`export: ${outputFailure(args.out, e)}\n`);
    return 2;
  }
  const rows = docs.reduce((n, d) => n + d.cases.length, 0);
  const what = args.samples
    ? ', one row per sample'
    : args.findings
      ? ', one row per finding in a browser and store'
      : '';
  io.stderr(
    `export: wrote ${args.out} (${args.format}${what}) from ${docs.length} document${docs.length === 1 ? '' : 's'}, ${rows} case rows\n`,
  );
  return 0;
}

if (isEntry(import.meta.url)) runEntry('export', (argv) => exportCommand(argv, PROCESS_IO));
