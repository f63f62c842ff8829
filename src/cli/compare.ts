/**
 * `npm run compare -- BASE NEW [--threshold 5%]`: per case, the change from BASE to NEW with a
 * 95% confidence interval, a table, and an exit code CI can gate on.
 *
 * Exit codes: 0 no case got significantly slower beyond the threshold; 1 some case did, or went
 * from ok to error or timeout; 2 bad arguments or a file that is not valid results.
 */
import { readFileSync, statSync } from 'node:fs';
import { compareResults, DEFAULT_THRESHOLD_PCT, parseThreshold, type CaseComparison, type Comparison } from '../core/compare.ts';
import { parseResultsInput } from '../core/results-input.ts';
import { MAX_RESULTS_BYTES, ResultsError } from '../core/results.ts';
import { formatMs, renderTable, type Align } from './terminal-table.ts';
import { isEntry } from './entry.ts';

export const COMPARE_USAGE = [
  'Usage: npm run compare -- BASE.json NEW.json [--threshold 5%]',
  '',
  'Compares two results files case by case (matched on browser, suite, case, adapter and size).',
  'Each file is one results document or a JSON array of them (e.g. one per browser).',
  '',
  `  --threshold P   a significant slowdown beyond P percent fails (default: ${DEFAULT_THRESHOLD_PCT}%)`,
  '  --help          this text',
  '',
  'Exit codes: 0 no significant regression beyond the threshold; 1 a case got significantly',
  'slower beyond it, or went from ok to error or timeout; 2 bad arguments or input.',
].join('\n');

export interface CompareRun {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

type ReadFile = (path: string) => string;

/** Refuses a file over the size cap before reading it, so a huge file costs nothing. */
function readResultsFile(path: string): string {
  const size = statSync(path).size;
  if (size > MAX_RESULTS_BYTES) throw new ResultsError(`${path}: ${size} bytes is larger than the ${MAX_RESULTS_BYTES}-byte limit for a results file`);
  return readFileSync(path, 'utf8');
}

export function runCompare(argv: readonly string[], read: ReadFile = readResultsFile): CompareRun {
  const bad = (message: string): CompareRun => ({ code: 2, stdout: '', stderr: `compare: ${message}\n` });
  if (argv.includes('--help') || argv.includes('-h')) return { code: 0, stdout: `${COMPARE_USAGE}\n`, stderr: '' };
  const files: string[] = [];
  let thresholdText: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--threshold' || arg.startsWith('--threshold=')) {
      if (thresholdText !== undefined) return bad('--threshold is given more than once');
      thresholdText = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (thresholdText === undefined || thresholdText === '') return bad('--threshold needs a value, e.g. --threshold 5%');
    } else if (arg.startsWith('--')) return bad(`unknown flag ${arg}; allowed: --threshold, --help`);
    else files.push(arg);
  }
  if (files.length !== 2) return bad(`give exactly two results files, BASE and NEW; got ${files.length}\n\n${COMPARE_USAGE}`);
  let threshold = DEFAULT_THRESHOLD_PCT;
  try {
    if (thresholdText !== undefined) threshold = parseThreshold(thresholdText);
  } catch (e) {
    return bad(`--${(e as Error).message}`);
  }
  const sides = [];
  for (const path of files) {
    try {
      sides.push(parseResultsInput(read(path), path));
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return bad(`${path}: no such file`);
      if (code === 'EISDIR') return bad(`${path}: is a directory; give a results .json file`);
      if (e instanceof ResultsError) return bad(e.message);
      return bad(`${path}: cannot read it: ${(e as Error).message}`);
    }
  }
  const comparison = compareResults(sides[0] ?? [], sides[1] ?? [], threshold);
  return { code: comparison.failed ? 1 : 0, stdout: `${formatComparison(comparison)}\n`, stderr: '' };
}

const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '-' : '±'}${Math.abs(x).toFixed(1)}%`;

function side(s: CaseComparison['base']): string {
  if (!s) return '-';
  if (s.status !== 'ok') return s.status;
  return `${formatMs(s.mean)} (n=${s.n})`;
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
  'only in base': 'only in base',
  'only in new': 'only in new',
};

/** The table, its legend, notes, and a verdict line last. Pure, so tests compare the text. */
export function formatComparison(c: Comparison): string {
  const header = ['browser', 'suite/case', 'adapter', 'size', 'base mean ms', 'new mean ms', 'change', '95% CI', 'verdict'];
  const align: Align[] = ['left', 'left', 'left', 'right', 'right', 'right', 'right', 'left', 'left'];
  const rows = c.rows.map((r) => [
    r.browser,
    `${r.suite}/${r.case}`,
    r.adapter,
    String(r.size),
    side(r.base),
    side(r.next),
    r.change ? signed(r.change.pct) : '-',
    r.change ? `[${signed(r.change.low)}, ${signed(r.change.high)}]` : '',
    MARKS[r.verdict],
  ]);
  const out = [rows.length > 0 ? renderTable(header, rows, align) : '(no cases in either file)'];
  out.push(
    `Change: the mean time per sample, new against base, in % of the base mean, with its 95% confidence interval (Welch's t on the raw samples). ` +
      `* significant: the interval excludes 0. !! significantly slower by more than the ${c.thresholdPct}% threshold, or ok before and error or timeout now. ` +
      `? a change beyond the threshold that the interval cannot tell from noise: take more samples (--auto).`,
  );
  const noted = c.rows.filter((r) => r.note);
  if (noted.length > 0) {
    out.push('', 'Notes:');
    for (const r of noted) out.push(`  ${r.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}: ${r.note}`);
  }
  if (c.notes.length > 0) {
    out.push('', 'The environments differ:');
    for (const n of c.notes) out.push(`  ${n}`);
  }
  const k = c.counts;
  const tally = `${k.regression} regression, ${k.broke} broke, ${k.slower} slower within the threshold, ${k.faster} faster, ${k.same} same, ${k.inconclusive} inconclusive, ${k['not comparable'] + k['status changed'] + k['only in base'] + k['only in new']} not compared`;
  out.push('');
  if (c.failed) {
    const worst = c.rows.filter((r) => r.verdict === 'regression' || r.verdict === 'broke').map((r) => `${r.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}${r.change ? ` ${signed(r.change.pct)}` : ' broke'}`);
    out.push(`FAILED: ${worst.length} case${worst.length === 1 ? '' : 's'} significantly slower beyond ${c.thresholdPct}% or broken (${worst.slice(0, 5).join('; ')}${worst.length > 5 ? '; …' : ''}). ${tally}.`);
  } else out.push(`OK: no case significantly slower beyond ${c.thresholdPct}%. ${tally}.`);
  return out.join('\n');
}

// Run only as the entry point, so tests can import runCompare without side effects.
if (isEntry(import.meta.url)) {
  const result = runCompare(process.argv.slice(2));
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.code;
}
