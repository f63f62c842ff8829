/**
 * `npm run history -- DIR|FILES... [--by commit|date] [--threshold 5%]`: every row of the results
 * files as a series over runs, its change points (Apache Otava's E-divisive split and t-test
 * merge, src/core/history/), and an exit code as `compare` gives one.
 */
import { DEFAULT_THRESHOLD_PCT, parseThreshold } from '../../core/verdicts/compare.ts';
import { historyOf } from '../../core/history/history.ts';
import { HISTORY_BY, type HistoryBy, type HistoryInput } from '../../core/history/series.ts';
import { ResultsError } from '../../core/results/results.ts';
import { isEntry, runEntry, PROCESS_IO, type CommandIo } from '../args/command-io.ts';
import { ArgsError, asFlagError, flagText, scanFlags, type FlagSpec } from '../args/flags.ts';
import { readResultsFiles, readResultsText } from '../files/read-results.ts';
import { resultsPaths } from '../files/results-paths.ts';
import { formatHistory } from '../terminal/history-text.ts';

export const HISTORY_USAGE = [
  'Usage: npm run history -- DIR|FILES... [--by commit|date] [--threshold 5%]',
  '',
  'Reads results files (a DIR: every results file in it) into one series per row (browser, suite,',
  'case, store, size, parameters), in the order the runs started, and finds where each series',
  "changed: Apache Otava's method, E-divisive means with a permutation test, then a t-test merge",
  "weighted by each point's interval (docs/history.md). Each point is the row's median net of the",
  'shift every row of its browser shares against a reference run, as npm run compare estimates it.',
  '',
  '  --by commit|date  one point per run (date), or per build of the code, its runs pooled (commit); default date',
  `  --threshold P     a change beyond +P% and shown slower over every change point fails (default: ${DEFAULT_THRESHOLD_PCT}%)`,
  '  --help            this text',
  '',
  "Exit codes: 0 no series' newest segment is slower beyond the threshold; 1 one is; 2 bad",
  'arguments or a file that is not valid results; 3 undecided: a newest change that reaches past',
  'the threshold coincides with a change of machine, browser build or way of measuring.',
].join('\n');

interface HistoryArgs {
  paths: string[];
  by: HistoryBy;
  thresholdPct: number;
}

const HISTORY_FLAGS: Record<string, FlagSpec> = {
  by: { kind: 'value', example: 'date' },
  threshold: { kind: 'value', example: '5%' },
};

function parseHistoryArgs(argv: readonly string[]): HistoryArgs | 'help' {
  const flags = scanFlags(argv, HISTORY_FLAGS, { positionals: 'results files or folders' });
  if (flags.help) return 'help';
  if (flags.positionals.length === 0)
    throw new ArgsError('give results files or a folder of them, e.g. npm run history -- results/');
  const by = flagText(flags, 'by') ?? 'date';
  if (!(HISTORY_BY as readonly string[]).includes(by))
    throw new ArgsError(`--by: "${by}" is not one of ${HISTORY_BY.join(', ')}`);
  const threshold = flagText(flags, 'threshold');
  return {
    paths: flags.positionals,
    by: by as HistoryBy,
    thresholdPct:
      threshold === undefined
        ? DEFAULT_THRESHOLD_PCT
        : asFlagError(() => parseThreshold(threshold)),
  };
}

/** The command, as runEntry and the tests call it; its work is synchronous. */
export function historyCommand(
  argv: readonly string[],
  io: CommandIo,
  read: (path: string) => string = readResultsText,
): Promise<number> {
  return Promise.resolve(history(argv, io, read));
}

function history(argv: readonly string[], io: CommandIo, read: (path: string) => string): number {
  let args: HistoryArgs | 'help';
  try {
    args = parseHistoryArgs(argv);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`history: ${e.message} (see --help)\n`);
    return 2;
  }
  if (args === 'help') {
    io.stdout(`${HISTORY_USAGE}\n`);
    return 0;
  }
  let inputs: HistoryInput[];
  try {
    const paths = resultsPaths(args.paths);
    inputs = readResultsFiles(paths, read).flatMap((docs, i) =>
      docs.map((doc) => ({ doc, source: paths[i] as string })),
    );
  } catch (e) {
    if (!(e instanceof ResultsError)) throw e;
    io.stderr(`history: ${e.message}\n`);
    return 2;
  }
  if (inputs.length === 0) {
    io.stderr('history: the files hold no results documents\n');
    return 2;
  }
  const report = historyOf(inputs, { by: args.by, thresholdPct: args.thresholdPct });
  io.stdout(`${formatHistory(report)}\n`);
  return report.code;
}

if (isEntry(import.meta.url)) runEntry('history', (argv) => historyCommand(argv, PROCESS_IO));
