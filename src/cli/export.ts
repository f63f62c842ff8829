/**
 * `npm run export -- FILE... --format csv|tsv|xlsx|json [--samples] [--out PATH]`: the page's
 * exporters (src/export/) from the command line. A FILE holds one results document or a JSON
 * array of them (`npm run merge` output); every document is validated first, and a bad one is
 * named with the JSON path of the problem.
 */
import { extname, join } from 'node:path';
import { ResultsError, type ResultsFile } from '../core/results.ts';
import { toCsv, toSamplesCsv, withBom } from '../export/csv.ts';
import { toJson } from '../export/json.ts';
import { toSamplesTsv, toTsv } from '../export/tsv.ts';
import { toXlsx } from '../export/xlsx.ts';
import { isEntry, runEntry, type CommandIo, PROCESS_IO } from './entry.ts';
import { outputFailure, writeAtomically } from './output.ts';
import { readResultsFiles } from './results-files.ts';

export const EXPORT_FORMATS = ['csv', 'tsv', 'xlsx', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_USAGE = `Usage: npm run export -- FILE... --format csv|tsv|xlsx|json [--samples] [--bom] [--out PATH]

Writes results files in another format. A FILE holds one results document or a JSON array of
them (what npm run merge writes); several FILEs are exported together.

  --format F   csv   one row per case, every statistic and the environment (RFC 4180)
               tsv   the same, tab-separated, for pasting into a spreadsheet
               xlsx  a workbook: one sheet per suite and an "environment" sheet
               json  the documents themselves (an array when there are several)
               Default: from the extension of --out.
  --samples    csv and tsv: one row per raw sample (warm-up and timed) instead of per case
  --bom        csv: start with a byte-order mark, so Excel reads it as UTF-8 (else "×" is garbled)
  --out PATH   where to write; without it csv, tsv and json go to standard output
  --help       this text

Text that a spreadsheet would run as a formula (=, +, -, @ first) is written with a leading '.`;

export class ExportArgsError extends Error {
  override readonly name = 'ExportArgsError';
}

export interface ExportArgs {
  help: boolean;
  files: string[];
  format: ExportFormat;
  samples: boolean;
  /** csv: a byte-order mark first, for Excel. */
  bom: boolean;
  out: string | null;
}

/** Parse the flags. Throws ExportArgsError with a one-line message. */
export function parseExportArgs(argv: readonly string[]): ExportArgs {
  if (argv.includes('--help') || argv.includes('-h')) return { help: true, files: [], format: 'csv', samples: false, bom: false, out: null };
  const files: string[] = [];
  let format: string | undefined;
  let out: string | undefined;
  let samples = false;
  let bom = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) {
      files.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (name === 'samples' || name === 'bom') {
      if (eq !== -1) throw new ExportArgsError(`--${name} takes no value, got "${arg.slice(eq + 1)}"`);
      if (name === 'samples') samples = true;
      else bom = true;
      continue;
    }
    if (name !== 'format' && name !== 'out') throw new ExportArgsError(`unknown flag --${name}; allowed: --format, --samples, --bom, --out, --help`);
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '' || (eq === -1 && value.startsWith('--'))) {
      throw new ExportArgsError(`--${name} needs a value, e.g. --${name} ${name === 'format' ? 'csv' : 'book.xlsx'}`);
    }
    if ((name === 'format' ? format : out) !== undefined) throw new ExportArgsError(`--${name} is given more than once`);
    if (name === 'format') format = value;
    else out = value;
  }
  if (files.length === 0) throw new ExportArgsError('no results file given; e.g. npm run export -- results/run-chromium.json --format csv');
  if (format === undefined && out !== undefined) {
    const ext = extname(out).slice(1).toLowerCase();
    if ((EXPORT_FORMATS as readonly string[]).includes(ext)) format = ext;
  }
  if (format === undefined) throw new ExportArgsError(`--format is needed (${EXPORT_FORMATS.join(', ')}), or an --out path ending in one of them`);
  if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new ExportArgsError(`--format: unknown "${format}"; allowed: ${EXPORT_FORMATS.join(', ')}`);
  const checked = format as ExportFormat;
  if (samples && checked !== 'csv' && checked !== 'tsv') throw new ExportArgsError(`--samples works with csv and tsv, not ${checked}`);
  if (bom && checked !== 'csv') throw new ExportArgsError(`--bom works with csv, not ${checked}`);
  if (checked === 'xlsx' && out === undefined) throw new ExportArgsError('xlsx is binary: give --out PATH, e.g. --out book.xlsx');
  return { help: false, files, format: checked, samples, bom, out: out ?? null };
}

/** The exported bytes or text, exactly what the page's buttons download. */
export async function exportResults(docs: readonly ResultsFile[], format: ExportFormat, samples: boolean, bom = false): Promise<string | Uint8Array> {
  switch (format) {
    case 'csv': {
      const text = samples ? toSamplesCsv(docs) : toCsv(docs);
      return bom ? withBom(text) : text;
    }
    case 'tsv':
      return samples ? toSamplesTsv(docs) : toTsv(docs);
    case 'json':
      return toJson(docs.length === 1 ? (docs[0] as ResultsFile) : docs);
    case 'xlsx':
      return new Uint8Array(await (await toXlsx(docs)).arrayBuffer());
  }
}

/** The command: 0 on success; 2 for bad flags, a file that cannot be read or is not valid results, or an output that cannot be written. */
export async function exportCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let args: ExportArgs;
  try {
    args = parseExportArgs(argv);
  } catch (e) {
    if (!(e instanceof ExportArgsError)) throw e;
    io.stderr(`export: ${e.message}\n`);
    return 2;
  }
  if (args.help) {
    io.stdout(`${EXPORT_USAGE}\n`);
    return 0;
  }
  let docs: ResultsFile[];
  try {
    docs = readResultsFiles(args.files).flat();
  } catch (e) {
    if (!(e instanceof ResultsError)) throw e;
    io.stderr(`export: ${e.message}\n`);
    return 2;
  }
  const output = await exportResults(docs, args.format, args.samples, args.bom);
  if (args.out === null) {
    (io.data ?? io.stdout)(output as string);
    return 0;
  }
  try {
    writeAtomically(args.out, output);
  } catch (e) {
    io.stderr(`export: ${outputFailure(args.out, e)}\n`);
    return 2;
  }
  const rows = docs.reduce((n, d) => n + d.cases.length, 0);
  io.stderr(`export: wrote ${args.out} (${args.format}${args.samples ? ', one row per sample' : ''}) from ${docs.length} document${docs.length === 1 ? '' : 's'}, ${rows} case rows\n`);
  return 0;
}

if (isEntry(import.meta.url)) runEntry('export', (argv) => exportCommand(argv, PROCESS_IO));
