/**
 * `npm run compare -- BASE NEW [--threshold 5%] [--detect 10%] [--min-compared 90%] [--fail-on-undecided]`:
 * per case, the change of the median from BASE to NEW with its 95% interval, a table, and an
 * exit code CI can gate on (gate.ts).
 */
import {
  compareResults,
  DEFAULT_THRESHOLD_PCT,
  parseDetect,
  parseThreshold,
} from '../../core/verdicts/compare.ts';
import { DEFAULT_GATE, gate, parseMinCompared, type GatePolicy } from '../../core/verdicts/gate.ts';
import { ResultsError } from '../../core/results/results.ts';
import { isEntry, runEntry, PROCESS_IO, type CommandIo } from '../args/command-io.ts';
import { ArgsError, asFlagError, flagText, scanFlags, type FlagSpec } from '../args/flags.ts';
import { readResultsFiles, readResultsText } from '../files/read-results.ts';
import { formatComparison } from '../terminal/comparison-text.ts';
import { printableField } from '../terminal/escape.ts';

export const COMPARE_USAGE = [
  'Usage: npm run compare -- BASE.json NEW.json [--threshold 5%] [--detect 10%] [--min-compared 90%] [--fail-on-undecided]',
  '',
  'Compares two results files case by case: matched on browser, suite, case, adapter and size, and',
  'on the parameters both rows record. Each file is one results document or a JSON array of them.',
  'The statistics in the files are not trusted: they are recomputed from the raw samples.',
  'With 10 compared rows or more in a browser, each row is judged net of the shift every row of',
  "the browser shares (the median row's change: a slower machine, or a change every store shares,",
  'which one run per side cannot tell apart), and its interval includes the run-to-run spread the',
  'rows show beyond that and their own intervals. Both are printed under the table. A row is slower',
  'when its change is beyond +threshold and shown slower with the chance of any false alarm over all',
  'rows held at 5% (Holm); every other row says the slowdown the comparison could have caught.',
  '',
  `  --threshold P          a row slower than +P% and shown so fails (default: ${DEFAULT_THRESHOLD_PCT}%)`,
  '  --detect P             more than a third of the rows unable to catch a slowdown of +P% is exit 3',
  '  --min-compared N|P%    the fewest rows, of those ok in both files, that must be compared (default: 90%)',
  '  --fail-on-undecided    a row or shift neither slower nor within the threshold is exit 3',
  '                         (its older name --fail-on-inconclusive works too)',
  '  --help                 this text',
  '',
  'Exit codes: 0 pass: no row slower, enough rows compared; 1 fail: a row slower, or a row went from',
  'ok to error or timeout; 2 bad arguments or a file that is not valid results; 3 undecided: fewer',
  "rows compared than --min-compared asks, a browser's shift slower beyond the threshold, with",
  '--detect too many rows unable to catch that slowdown, or with --fail-on-undecided an undecided',
  'row or shift.',
].join('\n');

export interface CompareArgs {
  files: string[];
  thresholdPct: number;
  policy: GatePolicy;
}

const COMPARE_FLAGS: Record<string, FlagSpec> = {
  threshold: { kind: 'value', example: '5%' },
  'min-compared': { kind: 'value', example: '90%' },
  detect: { kind: 'value', example: '10%' },
  'fail-on-undecided': { kind: 'switch' },
  'fail-on-inconclusive': { kind: 'switch' },
};

function parseCompareArgs(argv: readonly string[]): CompareArgs | 'help' {
  const flags = scanFlags(argv, COMPARE_FLAGS, { positionals: 'results files' });
  if (flags.help) return 'help';
  const files = flags.positionals;
  if (files.length !== 2)
    throw new ArgsError(
      `give exactly two results files, BASE and NEW; got ${files.length}\n\n${COMPARE_USAGE}`,
    );
  const threshold = flagText(flags, 'threshold');
  const min = flagText(flags, 'min-compared');
  const detect = flagText(flags, 'detect');
  return {
    files,
    thresholdPct:
      threshold === undefined
        ? DEFAULT_THRESHOLD_PCT
        : asFlagError(() => parseThreshold(threshold)),
    policy: {
      minCompared:
        min === undefined ? DEFAULT_GATE.minCompared : asFlagError(() => parseMinCompared(min)),
      failOnUndecided:
        flags.values.has('fail-on-undecided') || flags.values.has('fail-on-inconclusive'),
      detectPct: detect === undefined ? null : asFlagError(() => parseDetect(detect)),
    },
  };
}

export function compareCommand(
  argv: readonly string[],
  io: CommandIo,
  read: (path: string) => string = readResultsText,
): number {
  let args: CompareArgs | 'help';
  try {
    args = parseCompareArgs(argv);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`compare: ${e.message}\n`);
    return 2;
  }
  if (args === 'help') {
    io.stdout(`${COMPARE_USAGE}\n`);
    return 0;
  }
  let sides: ReturnType<typeof readResultsFiles>;
  try {
    sides = readResultsFiles(args.files, read);
  } catch (e) {
    if (!(e instanceof ResultsError)) throw e;
    io.stderr(`compare: ${e.message}\n`);
    return 2;
  }
  const comparison = compareResults(sides[0] ?? [], sides[1] ?? [], args.thresholdPct);
  const verdict = gate(comparison, args.policy);
  io.stdout(`${formatComparison(comparison)}\n\n${printableField(verdict.line)}\n`);
  return verdict.code;
}

if (isEntry(import.meta.url)) runEntry('compare', (argv) => compareCommand(argv, PROCESS_IO));
