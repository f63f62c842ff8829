/**
 * `npm run merge -- FILE... --out FILE`: shard files and files from other machines into one
 * results set, a JSON array of results documents (src/core/results/merge.ts says what is refused and
 * why). `npm run export`, `npm run compare` and the page read a set like a single file.
 *
 * Exit codes: 0 written; 2 bad flags, an input that could not be read or was refused, or an
 * output that cannot be written.
 */
import { MergeError, mergeResults, type MergeInput } from '../../core/results/merge.ts';
import { parseResultsJson, ResultsError } from '../../core/results/results.ts';
import { jsonChunks } from '../../export/json.ts';
import { isEntry, runEntry, type CommandIo, PROCESS_IO } from '../args/command-io.ts';
import { ArgsError, flagText, outputsOf, scanFlags, type FlagSpec } from '../args/flags.ts';
import { checkOutputs, OutputError, outputFailure, writeAtomically } from '../files/output.ts';
import { readResultsText } from '../files/read-results.ts';

export const MERGE_USAGE = `Usage: npm run merge -- FILE... --out FILE

Combines results files into one results set: the shards of a plan (--shard i/n), and the
same plan run on other machines or in other browsers. The set is a JSON array of the results
documents, each unchanged, so every row keeps the environment it was measured in. A FILE may
itself be a set; partial files (*.partial.json) are skipped with a note.

Refused, with the files named: documents of another schema version, documents of another
plan (shards of one plan differ only in their shard), and two documents holding the same row
of the same browser from the same machine. The same document given twice is kept once.

  --out FILE   where to write the set (required)
  --help       this text`;

export interface MergeArgs {
  help: boolean;
  files: string[];
  out: string;
}

export const MERGE_FLAGS: Readonly<Record<string, FlagSpec>> = {
  out: { kind: 'value', example: 'merged.json', output: 'file' },
};

export function parseMergeArgs(argv: readonly string[]): MergeArgs {
  const flags = scanFlags(argv, MERGE_FLAGS, { positionals: 'results files' });
  if (flags.help) return { help: true, files: [], out: '' };
  const out = flagText(flags, 'out');
  if (flags.positionals.length === 0)
    throw new ArgsError(
      'no files given; e.g. npm run merge -- out/*-chromium.json out/*-firefox.json --out merged.json',
    );
  if (out === undefined)
    throw new ArgsError('--out FILE is required: where to write the merged set');
  return { help: false, files: flags.positionals, out };
}

export function mergeCommand(argv: readonly string[], io: CommandIo): number {
  let args: MergeArgs;
  try {
    args = parseMergeArgs(argv);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`merge: ${e.message} (see --help)\n`);
    return 2;
  }
  if (args.help) {
    io.stdout(`${MERGE_USAGE}\n`);
    return 0;
  }
  try {
    checkOutputs(outputsOf(MERGE_FLAGS, { out: args.out }));
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    io.stderr(`merge: ${e.message}\n`);
    return 2;
  }

  const inputs: MergeInput[] = [];
  for (const file of args.files) {
    try {
      inputs.push({ source: file, data: parseResultsJson(readResultsText(file), file) });
    } catch (e) {
      if (!(e instanceof ResultsError)) throw e;
      io.stderr(`merge: ${e.message}\n`);
      return 2;
    }
  }

  let merged;
  try {
    merged = mergeResults(inputs);
  } catch (e) {
    if (!(e instanceof MergeError)) throw e;
    io.stderr(`merge: refused: ${e.message}\n`);
    return 2;
  }

  try {
    writeAtomically(args.out, jsonChunks(merged.documents));
  } catch (e) {
    io.stderr(`merge: ${outputFailure(args.out, e)}\n`);
    return 2;
  }
  for (const note of merged.notes) io.stdout(`  ${note}\n`);
  const rows = merged.documents.reduce((n, d) => n + d.cases.length, 0);
  io.stdout(
    `merge: wrote ${args.out}: ${merged.documents.length} document${merged.documents.length === 1 ? '' : 's'}, ${rows} rows, from ${args.files.length} file${args.files.length === 1 ? '' : 's'}\n`,
  );
  return 0;
}

if (isEntry(import.meta.url)) runEntry('merge', (argv) => mergeCommand(argv, PROCESS_IO));
