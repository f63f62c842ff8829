/**
 * `npm run compare -- BASE NEW [--threshold 5%] [--min-compared 90%] [--fail-on-inconclusive]`:
 * per case, the change of the median from BASE to NEW with its 95% interval, a table, and an
 * exit code CI can gate on (gate.ts).
 */
import {
  compareResults,
  DEFAULT_THRESHOLD_PCT,
  formatRunToRun,
  listedByUrgency,
  parseThreshold,
  signedPct,
  type CaseComparison,
  type Comparison,
} from '../../core/verdicts/compare.ts';
import { DEFAULT_GATE, gate, parseMinCompared, type GatePolicy } from '../../core/verdicts/gate.ts';
import { ResultsError } from '../../core/results/results.ts';
import { isEntry, runEntry, PROCESS_IO, type CommandIo } from '../args/command-io.ts';
import { ArgsError, asFlagError, flagText, scanFlags, type FlagSpec } from '../args/flags.ts';
import { readResultsFiles, readResultsText } from '../files/read-results.ts';
import { formatMs } from '../../core/base/format.ts';
import { renderTable, type Align } from '../terminal/table.ts';
import { printableField } from '../terminal/escape.ts';

export const COMPARE_USAGE = [
  'Usage: npm run compare -- BASE.json NEW.json [--threshold 5%] [--min-compared 90%] [--fail-on-inconclusive]',
  '',
  'Compares two results files case by case: matched on browser, suite, case, adapter and size, and',
  'on the parameters both rows record. Each file is one results document or a JSON array of them.',
  'The statistics in the files are not trusted: they are recomputed from the raw samples.',
  'With 10 compared rows or more in a browser, each row is judged net of the shift every row of',
  "the browser shares (the median row's change: a slower machine, or a change every store shares,",
  'which one run per side cannot tell apart), and its interval includes the run-to-run spread the',
  'rows show beyond that and their own intervals. Both are printed under the table.',
  '',
  `  --threshold P          a row whose whole interval is slower than +P% is a regression (default: ${DEFAULT_THRESHOLD_PCT}%)`,
  '  --min-compared N|P%    the fewest rows, of those ok in both files, that must be compared (default: 90%)',
  '  --fail-on-inconclusive a row or shift that cannot rule out a slowdown beyond the threshold fails with exit 3',
  '  --help                 this text',
  '',
  'Exit codes: 0 no regression, and enough rows compared; 1 a regression, or a row went from ok to',
  'error or timeout; 2 bad arguments or a file that is not valid results; 3 undecided: fewer rows',
  "compared than --min-compared asks, a browser's shift slower beyond the threshold, or (with",
  '--fail-on-inconclusive) inconclusive rows or shifts.',
].join('\n');

export interface CompareArgs {
  files: string[];
  thresholdPct: number;
  policy: GatePolicy;
}

const COMPARE_FLAGS: Record<string, FlagSpec> = {
  threshold: { kind: 'value', example: '5%' },
  'min-compared': { kind: 'value', example: '90%' },
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
  return {
    files,
    thresholdPct:
      threshold === undefined
        ? DEFAULT_THRESHOLD_PCT
        : asFlagError(() => parseThreshold(threshold)),
    policy: {
      minCompared:
        min === undefined ? DEFAULT_GATE.minCompared : asFlagError(() => parseMinCompared(min)),
      failOnInconclusive: flags.values.has('fail-on-inconclusive'),
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

function side(s: CaseComparison['base']): string {
  if (!s) return '-';
  if (s.status !== 'ok') return s.status;
  return `${formatMs(s.median)} (n=${s.n})`;
}

const MARKS: Record<CaseComparison['verdict'], string> = {
  regression: 'REGRESSION !!',
  slower: 'slower *',
  faster: 'faster *',
  same: 'same',
  inconclusive: 'inconclusive ?',
  broke: 'BROKE !!',
  'status changed': 'status changed',
  'not comparable': 'not comparable',
  'not ok in either': 'not ok in either',
  'only in base': 'only in base',
  'only in new': 'only in new',
};

/** A row's verdict mark; an inconclusive row whose interval lies wholly above 0 is significant too (`*`). */
function mark(r: CaseComparison): string {
  return r.verdict === 'inconclusive' && r.change && r.change.low > 0
    ? `${MARKS.inconclusive} *`
    : MARKS[r.verdict];
}

/** The table (regressions first), its legend and notes. Pure, so tests compare the text. */
export function formatComparison(c: Comparison): string {
  const header = [
    'browser',
    'suite/case',
    'adapter',
    'size',
    'base median ms',
    'new median ms',
    'measured',
    'change',
    '95% CI',
    'verdict',
  ];
  const align: Align[] = [
    'left',
    'left',
    'left',
    'right',
    'right',
    'right',
    'right',
    'right',
    'left',
    'left',
  ];
  // Rows not ok in either file, or in one only, are counted in the verdict line instead.
  const listed = listedByUrgency(c.rows);
  const rows = listed.map((r) => [
    r.browser,
    `${r.suite}/${r.case}`,
    r.adapter,
    String(r.size),
    side(r.base),
    side(r.next),
    r.change ? signedPct(r.change.measured) : '-',
    r.change ? signedPct(r.change.pct) : '-',
    r.change ? `[${signedPct(r.change.low)}, ${signedPct(r.change.high)}]` : '',
    mark(r),
  ]);
  const out = [rows.length > 0 ? renderTable(header, rows, align) : '(no row is ok in both files)'];
  out.push(
    `Measured: the median time per sample, new against base, in % of the base median. ` +
      `Change: the same net of the shift every row of the browser shares (below), with the 95% interval of that ratio (from each median's own interval, after Price and Bonett, and the shift's, widened by the run-to-run spread below). ` +
      `!! the whole interval is slower than +${c.thresholdPct}%, or ok before and error or timeout now. ? the interval reaches past +${c.thresholdPct}% without lying wholly beyond it: ` +
      `take more samples (a longer --budget, or a sweep with --baseline), or, where its note says the run-to-run spread is most of the width, more runs per side. * significant: the interval excludes 0.`,
  );
  const spread = formatRunToRun(c.runToRun);
  if (spread) out.push('', spread);
  const noted = listed.filter((r) => r.note);
  if (noted.length > 0) {
    out.push('', 'Notes:');
    for (const r of noted)
      out.push(
        `  ${printableField(`${r.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}: ${r.note}`)}`,
      );
  }
  if (c.notes.length > 0) {
    out.push('', 'The environments differ:');
    for (const n of c.notes) out.push(`  ${printableField(n)}`);
  }
  return out.join('\n');
}

if (isEntry(import.meta.url)) runEntry('compare', (argv) => compareCommand(argv, PROCESS_IO));
