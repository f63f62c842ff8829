/**
 * Comparison of two sets of results, case by case: did a store get slower or faster, and is the
 * change bigger than the noise? Pure: results in, a comparison out. The CLI (`npm run compare`)
 * and the page ("compare with…") render it each in their own way, and both gate with `gate`.
 *
 * Cases match on browser (run.browser), suite, case, adapter and size, and on the parameters
 * both rows record (a row records only those its case uses). The change is in the median time
 * per sample, new over base, with the 95% interval of that ratio (stats.medianRatio). With 10
 * compared rows or more in a browser, two things the runs' own intervals cannot see are taken
 * from the rows themselves: the shift every row shares (stats.sharedShift, the median row's
 * change: the machine's state, or a change in code every row runs), which each row is judged net
 * of and which is decided on its own; and the run-to-run spread beyond that (stats.runToRunSpread),
 * added to every row's interval. Every compared row of every browser is then judged together by
 * the gate's one rule (change.ts): `slower` beyond +T and shown so over the family fails the gate,
 * and each row says the change it could have caught.
 *
 * Each side's rows are pooled first (pool.ts); the comparison's spread and shift read as text in
 * compare-text.ts.
 */
import { BETWEEN_RUNS, rowScatter, shiftScatter, type BetweenRuns } from '../stats/between-runs.ts';
import { oneLine } from '../base/format.ts';
import { percentOrProblem, type PercentRange } from '../base/percent.ts';
import { DETECT_RANGE } from '../plan/defaults.ts';
import type { CaseResult, ResultsFile } from '../schema/results-schema.ts';
import { paramsDiffer, pool, summaryOf, type Pooled } from './pool.ts';
import { CHANGE_VERDICTS, type ChangeVerdict } from '../schema/vocabulary.ts';
import { judgeChanges, type Change, type Judged } from './change.ts';
import {
  logRatio,
  netOf,
  ratioOfMedians,
  RUN_TO_RUN_MIN_ROWS,
  runToRunSpread,
  sharedShift,
  widenRatio,
  type Interval,
  type LogRatio,
} from '../stats/stats.ts';

export const DEFAULT_THRESHOLD_PCT = 5;

/**
 * A compared row's verdict: a change's (change.ts: `slower` fails the gate, `faster`, `same`,
 * `undecided`), or what its statuses say when there is no change to judge.
 */
export type CompareVerdict =
  | ChangeVerdict
  /** ok in the base, error or timeout now: the gate fails. */
  | 'broke'
  /** The status changed some other way (e.g. unsupported now, or ok again). */
  | 'status changed'
  /** Both sides ok, but no interval can be had (too few samples, different parameters, a median of 0). */
  | 'not comparable'
  /** Both sides present and not ok the same way (unsupported in both, say): nothing to compare. */
  | 'not ok in either'
  | 'only in base'
  | 'only in new';

const VERDICTS: readonly CompareVerdict[] = [
  'slower',
  'broke',
  'undecided',
  'faster',
  'same',
  'status changed',
  'not comparable',
  'not ok in either',
  'only in base',
  'only in new',
];

/** Verdicts that make the comparison fail. */
const FAILING_VERDICTS: readonly CompareVerdict[] = ['slower', 'broke'];
/** Verdicts with nothing to compare: counted and folded away, not listed among the changes. */
export const UNLISTED_VERDICTS: readonly CompareVerdict[] = [
  'not ok in either',
  'only in base',
  'only in new',
];

/** The rows to list, most urgent first (broke, slower, undecided, …, same), as the CLI and the page list them. */
export function listedByUrgency(rows: readonly CaseComparison[]): CaseComparison[] {
  const order: readonly CompareVerdict[] = [
    'broke',
    'slower',
    'undecided',
    'status changed',
    'not comparable',
    'faster',
    'same',
  ];
  return rows
    .filter((r) => !UNLISTED_VERDICTS.includes(r.verdict))
    .sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict));
}

/** Verdicts that carry a change interval: the rows that were compared. */
export const COMPARED_VERDICTS: readonly CompareVerdict[] = CHANGE_VERDICTS;

export interface Side {
  status: CaseResult['status'];
  n: number;
  /** NaN without samples. */
  median: number;
  /** The median's 95% interval (stats.medianCi); null below 6 samples. */
  medianCi: Interval | null;
  /** How many results documents the row came from (more than 1: their samples were pooled). */
  files: number;
}

export interface CaseComparison {
  browser: string;
  suite: string;
  case: string;
  adapter: string;
  size: number;
  base: Side | null;
  next: Side | null;
  /**
   * Change of the median, new against base, in % of the base median, net of the browser's shift
   * (RunToRun.shift; none with fewer than 10 compared rows), with its 95% interval; `measured` is
   * the medians' own change, shift and all.
   */
  change: {
    pct: number;
    low: number;
    high: number;
    measured: number;
    /** The smallest slowdown, in %, this comparison would have caught in the row with 80% probability (change.ts). */
    detectablePct: number;
  } | null;
  verdict: CompareVerdict;
  /** Why there is no interval, or what else the reader should know. */
  note: string | null;
}

/**
 * How far a browser's rows moved between the two sides beyond their own intervals (a standard
 * deviation, in % on the log scale), and how many compared rows it was estimated from. `pct` is
 * 0 when the intervals already explain the scatter, or with fewer than RUN_TO_RUN_MIN_ROWS rows
 * (then `estimated` is false: too few rows to tell).
 */
export interface RunToRun {
  browser: string;
  rows: number;
  pct: number;
  estimated: boolean;
  /**
   * The change every row shares, in %: the median row's, with its 95% interval and its verdict
   * against the threshold. One run per side cannot tell a slower machine from a change every store
   * shares, so the rows are judged net of it, and a shift beyond the threshold leaves the gate
   * undecided (gate.ts). Null with fewer than RUN_TO_RUN_MIN_ROWS rows: then the rows keep it.
   * `estimate`: the shift on the log scale with its own standard error, before any widening (what
   * `history` takes each run's rows net of).
   */
  shift: {
    pct: number;
    low: number;
    high: number;
    verdict: ChangeVerdict;
    estimate: LogRatio;
  } | null;
}

export interface Comparison {
  thresholdPct: number;
  rows: CaseComparison[];
  /** Differences between the sides worth knowing before trusting a row (browser version, timer step). */
  notes: string[];
  /** Per browser with compared rows: the run-to-run spread added to every row's interval. */
  runToRun: RunToRun[];
  /** True when some row is slower or broke. */
  failed: boolean;
  counts: Record<CompareVerdict, number>;
  /** Rows ok in both files (the rows a gate should compare), and how many of them were compared. */
  coverage: { okInBoth: number; compared: number; why: Record<string, number> };
}

/** The thresholds a comparison takes: 0% to 1000%, in hundredths of a percent (percent.ts). */
export const THRESHOLD_RANGE: PercentRange = { min: 0, max: 1000, decimals: 2 };

/** A threshold as given on the command line or in the page: `5%` or `5` (percent). */
export function parseThreshold(text: string): number {
  const pct = percentOrProblem('threshold:', text, THRESHOLD_RANGE, '5%');
  if (typeof pct === 'string') throw new RangeError(pct);
  return pct;
}

/** A --detect slowdown as given on the command line: `10%` or `10` (percent, DETECT_RANGE). */
export function parseDetect(text: string): number {
  const pct = percentOrProblem('detect:', text, DETECT_RANGE, '10%');
  if (typeof pct === 'string') throw new RangeError(pct);
  return pct;
}

function sideOf(p: Pooled): Side {
  const ok = p.row.status === 'ok';
  const s = ok ? summaryOf(p) : null;
  return {
    status: p.row.status,
    n: ok ? p.samples.length : 0,
    median: s ? s.median : NaN,
    medianCi: s ? s.ci : null,
    files: p.files,
  };
}

/** A change on the log scale, its interval widened by `spread`, as the gate's rule reads it (a normal error). */
function changeOfLog(r: LogRatio, spread: number): Change {
  const se = Math.hypot(r.se, spread);
  const w = widenRatio(r, spread);
  return { log: r.y, se, df: Infinity, lo: Math.log(w.lo), hi: Math.log(w.hi) };
}

/** A changed status's reason in its row's note: short enough for a table cell. */
const NOTE_CHARS = 120;

/** A pair ok on both sides: the ratio of its medians, or why it could not be compared. */
type PairOutcome = { ratio: LogRatio } | { why: string } | null;

/** Check one matched pair: a status verdict, the reason it cannot be compared, or its ratio to decide (decide). */
function compareRow(row: CaseComparison, pa: Pooled, pb: Pooled): PairOutcome {
  const sa = pa.row.status;
  const sb = pb.row.status;
  if (sa !== 'ok' || sb !== 'ok') {
    if (sa === 'ok' && (sb === 'error' || sb === 'timeout')) row.verdict = 'broke';
    else row.verdict = sa !== sb ? 'status changed' : 'not ok in either';
    // Unsupported in both, say, is no news; a change of status is.
    if (sa !== sb)
      row.note = `${sa} → ${sb}${sb !== 'ok' ? `: ${oneLine(pb.row.reason ?? '', NOTE_CHARS)}` : ''}`;
    return null;
  }
  if (pa.twice || pb.twice) {
    row.note = `a document of the ${pa.twice ? 'base' : 'new'} side holds this row twice, with other parameters: its samples are not pooled, and the row is not compared`;
    return { why: 'held twice in one document' };
  }
  const differ = paramsDiffer(pa.row.params, pb.row.params);
  if (differ.length > 0) {
    row.note = `parameters differ: ${differ.map((k) => `${k} ${JSON.stringify(pa.row.params[k])} → ${JSON.stringify(pb.row.params[k])}`).join(', ')}`;
    return { why: 'parameters differ' };
  }
  if (pa.throttle !== pb.throttle) {
    row.note = `CPU throttling differs: ×${pa.throttle} → ×${pb.throttle}`;
    return { why: 'CPU throttling differs' };
  }
  const [base, next] = [summaryOf(pa), summaryOf(pb)];
  const r = ratioOfMedians(base, next);
  if (!r) {
    const few = Math.min(pa.samples.length, pb.samples.length) < 6;
    const zero = !(base.median > 0 && next.median > 0);
    if (few)
      row.note = `needs 6 or more samples on each side for an interval of the median (n = ${pa.samples.length} and ${pb.samples.length})`;
    else if (zero) row.note = 'a median is 0 ms (under the timer step): no ratio; use bigger sizes';
    else
      row.note =
        'an interval of a median reaches 0 ms: a stretch of its samples ran many times slower than the rest, so no ratio; take more samples';
    return {
      why: few ? 'fewer than 6 samples' : zero ? 'a median of 0 ms' : 'an interval reaching 0 ms',
    };
  }
  return { ratio: logRatio(r) };
}

const pct = (ratio: number) => 100 * (ratio - 1);

/**
 * A compared row's change: its ratio net of the browser's shift, the interval widened by
 * `spread`: the run-to-run spread the two files show and the scatter identical code shows between
 * runs here for its browser and store (between-runs.ts), added in quadrature. Its verdict comes
 * with the family (decideAll).
 */
function changeFor(
  row: CaseComparison,
  ratio: LogRatio,
  spread: number,
  shift: LogRatio | null,
): Change {
  const c = changeOfLog(netOf(ratio, shift), spread);
  row.change = {
    pct: pct(Math.exp(c.log)),
    low: pct(Math.exp(c.lo)),
    high: pct(Math.exp(c.hi)),
    measured: pct(Math.exp(ratio.y)),
    detectablePct: NaN,
  };
  const [baseFiles, newFiles] = [row.base?.files ?? 1, row.next?.files ?? 1];
  if (baseFiles > 1 || newFiles > 1)
    row.note = `samples pooled from ${baseFiles} base and ${newFiles} new results`;
  return c;
}

/** Why an undecided row is, and what would decide it: more samples, or both sides in one run. */
function undecidedNote(
  row: CaseComparison,
  ratio: LogRatio,
  spread: number,
  thresholdPct: number,
): void {
  const n = `n = ${row.base?.n ?? 0} and ${row.next?.n ?? 0}`;
  // More samples narrow the row's own part of the interval, not the run-to-run spread.
  const remedy =
    spread > ratio.se
      ? 'most of its width is the run-to-run spread, which more samples in one run do not narrow: pool several runs per side, or sample both sides in one run (npm run sweep -- --ab A,B)'
      : 'take more samples, or sweep with --baseline';
  const said = `neither slower beyond +${thresholdPct}% nor within ±${thresholdPct}% (${n}); ${remedy}`;
  row.note = row.note ? `${said}; ${row.note}` : said;
}

/**
 * Each browser's shift and run-to-run spread, from its rows that have a ratio; then every such
 * row of every browser judged together by the gate's rule (change.ts), one family.
 */
function decideAll(
  pending: ReadonlyMap<CaseComparison, LogRatio>,
  thresholdPct: number,
  between: BetweenRuns,
): RunToRun[] {
  const browsers = [...new Set([...pending.keys()].map((row) => row.browser))];
  const judging: { row: CaseComparison; ratio: LogRatio; spread: number; change: Change }[] = [];
  const runToRun = browsers.map((browser) => {
    const rows = [...pending].filter(([row]) => row.browser === browser);
    const ratios = rows.map(([, ratio]) => ratio);
    const shift = sharedShift(ratios);
    const { tau } = runToRunSpread(ratios, shift);
    for (const [row, ratio] of rows) {
      const spread = Math.hypot(tau, rowScatter(row.browser, row.adapter, between));
      judging.push({ row, ratio, spread, change: changeFor(row, ratio, spread, shift) });
    }
    return {
      browser,
      rows: rows.length,
      pct: 100 * tau,
      estimated: rows.length >= RUN_TO_RUN_MIN_ROWS,
      shift: shift && shiftChange(shift, thresholdPct, shiftScatter(browser, between)),
    };
  });
  const judged = judgeChanges(
    judging.map((j) => j.change),
    thresholdPct,
  );
  judging.forEach(({ row, ratio, spread }, i) => {
    const j = judged[i] as Judged;
    row.verdict = j.verdict;
    if (row.change) row.change.detectablePct = pct(j.detectable ?? Infinity);
    if (j.verdict === 'undecided') undecidedNote(row, ratio, spread, thresholdPct);
  });
  return runToRun;
}

/**
 * The shift's change in %, with its 95% interval, widened by how far identical code's shift moves
 * between runs here, and its verdict by the gate's rule, judged on its own.
 */
function shiftChange(
  shift: LogRatio,
  thresholdPct: number,
  scatter: number,
): NonNullable<RunToRun['shift']> {
  const c = changeOfLog(shift, scatter);
  const [j] = judgeChanges([c], thresholdPct);
  return {
    pct: pct(Math.exp(c.log)),
    low: pct(Math.exp(c.lo)),
    high: pct(Math.exp(c.hi)),
    verdict: (j as Judged).verdict,
    estimate: shift,
  };
}

/**
 * `between`: how far identical code moves between runs (between-runs.ts), which every row's and
 * shift's interval is widened by; the committed table by default.
 */
export function compareResults(
  base: readonly ResultsFile[],
  next: readonly ResultsFile[],
  thresholdPct = DEFAULT_THRESHOLD_PCT,
  between: BetweenRuns = BETWEEN_RUNS,
): Comparison {
  const a = pool(base);
  const b = pool(next);
  const rows: CaseComparison[] = [];
  const why: Record<string, number> = {};
  const pending = new Map<CaseComparison, LogRatio>();
  let okInBoth = 0;
  const keys = [...a.keys(), ...[...b.keys()].filter((k) => !a.has(k))];
  for (const key of keys) {
    const [browser, suite, caseId, adapter, size] = JSON.parse(key) as [
      string,
      string,
      string,
      string,
      number,
    ];
    const pa = a.get(key);
    const pb = b.get(key);
    const row: CaseComparison = {
      browser,
      suite,
      case: caseId,
      adapter,
      size,
      base: pa ? sideOf(pa) : null,
      next: pb ? sideOf(pb) : null,
      change: null,
      verdict: 'not comparable',
      note: null,
    };
    rows.push(row);
    if (!pa || !pb) {
      row.verdict = pa ? 'only in base' : 'only in new';
      continue;
    }
    if (pa.row.status === 'ok' && pb.row.status === 'ok') okInBoth++;
    const outcome = compareRow(row, pa, pb);
    if (outcome && 'why' in outcome) why[outcome.why] = (why[outcome.why] ?? 0) + 1;
    if (outcome && 'ratio' in outcome) pending.set(row, outcome.ratio);
  }
  const runToRun = decideAll(pending, thresholdPct, between);
  const counts = Object.fromEntries(
    VERDICTS.map((v) => [v, rows.filter((r) => r.verdict === v).length]),
  ) as Record<CompareVerdict, number>;
  const compared = COMPARED_VERDICTS.reduce((sum, v) => sum + counts[v], 0);
  return {
    thresholdPct,
    rows,
    notes: environmentNotes(base, next),
    runToRun,
    failed: rows.some((r) => FAILING_VERDICTS.includes(r.verdict)),
    counts,
    coverage: { okInBoth, compared, why },
  };
}

/** Per browser: what differs between the sides' environments and could explain a change. */
function environmentNotes(base: readonly ResultsFile[], next: readonly ResultsFile[]): string[] {
  const notes: string[] = [];
  const first = (side: readonly ResultsFile[], browser: string) =>
    side.find((f) => f.run.browser === browser)?.environment;
  const browsers = [...new Set([...base, ...next].map((f) => f.run.browser))];
  for (const browser of browsers) {
    const ea = first(base, browser);
    const eb = first(next, browser);
    if (!ea || !eb) continue;
    const diffs: string[] = [];
    if (ea.browser.version !== eb.browser.version)
      diffs.push(`version ${ea.browser.version} → ${eb.browser.version}`);
    if (ea.timerStepMs !== eb.timerStepMs)
      diffs.push(`timer step ${ea.timerStepMs} → ${eb.timerStepMs} ms`);
    if (ea.crossOriginIsolated !== eb.crossOriginIsolated)
      diffs.push(`cross-origin isolated ${ea.crossOriginIsolated} → ${eb.crossOriginIsolated}`);
    if (ea.context !== eb.context) diffs.push(`ran in ${ea.context} → ${eb.context}`);
    if (ea.os !== eb.os || ea.cores !== eb.cores)
      diffs.push(`machine ${ea.os}/${ea.cores ?? '?'} cores → ${eb.os}/${eb.cores ?? '?'} cores`);
    if (diffs.length > 0) notes.push(`${browser}: ${diffs.join('; ')}`);
  }
  return notes;
}
