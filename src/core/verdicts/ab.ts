/**
 * The verdict of an A/B run (plan.ab): each case's B/A with its 95% interval over passes, and
 * every row of every browser judged together by the gate's one rule (change.ts): a row is
 * `slower` and fails the run when B is beyond the threshold and shown slower with the chance of
 * any false alarm over the family held at 5%; every other row says the slowdown the run could
 * have caught. Pure: results documents in, a decision out; the sweep prints it, the page draws it,
 * the results file keeps each row's.
 */
import type { ParamValue } from '../base/identity.ts';
import {
  comparisonRatio,
  pairedRatioAtLook,
  passLogRatios,
  type PairedRatio,
} from '../stats/paired.ts';
import { abBudgetFor, abPassesNeeded, AB_LAUNCH_RULE } from '../plan/ab-plan.ts';
import { formatDuration } from '../base/format.ts';
import { plannedLooksOf } from '../plan/plan.ts';
import { PLAN_LIMITS } from '../plan/defaults.ts';
import { passesToDetect, rowsToReach } from './ab-size.ts';
import type { CaseResult, ResultsFile } from '../schema/results-schema.ts';
import type { ChangeVerdict } from '../schema/vocabulary.ts';
import {
  FAMILY_ALPHA,
  judgeChanges,
  MAX_UNDETECTED_SHARE,
  meetsDetect,
  powerOf,
  powerText,
  RUN_EXIT,
  runOutcome,
  times,
  type Change,
  type Power,
  type RunOutcome,
} from './change.ts';

/** One case of an A/B run in one browser: B against A. */
export interface AbRow {
  browser: string;
  suite: string;
  case: string;
  size: number;
  params: Record<string, ParamValue>;
  /** The stores, A (the baseline) and B (the candidate). */
  a: string;
  b: string;
  /** A and B as a reader names them: by the release of the package each wraps, where the results record it. */
  sides?: { a: string; b: string };
  /** B/A with its 95% interval over passes; null when the pair did not sample (a side unsupported or failed). */
  ratio: PairedRatio | null;
  verdict: ChangeVerdict;
  /** One-sided p-value of "B is no slower than A" (change.ts). */
  pSlower: number;
  /** The smallest B/A this run would have caught with 80% probability (change.ts); null without a ratio. */
  detectable: number | null;
  /** Why the row has no ratio: a side's status and reason. */
  why?: string;
  /** Neither store can run the case (both unsupported): nothing to compare, and no row of the family. */
  neither?: true;
}

/**
 * A side by its release: `idb-keyval 6.3.0 (installed)`, `idb-keyval 6.2.1 (npm)`, or
 * `mystore@git:HEAD~1 (idb-keyval 6.3.0)`; its id where the results record no version.
 */
export function sideLabel(id: string, facts: Readonly<Record<string, string>> | undefined): string {
  const pkg = facts?.package;
  const version = facts?.version;
  if (pkg === undefined || version === undefined) return id;
  if (facts?.source === 'installed') return `${pkg} ${version} (installed)`;
  if (id.endsWith(`@${version}`)) return `${pkg} ${version} (npm)`;
  return `${id} (${pkg} ${version})`;
}

/** Why a row both of whose sides ran has no B/A interval. */
const TOO_FEW_PASSES = 'too few passes with samples on both sides for an interval';

/** B/A as the gate's rule reads it: its log, standard error over passes and interval. */
function changeOf(r: PairedRatio | null): Change | null {
  if (r === null) return null;
  return {
    log: r.logMean,
    se: r.logSd / Math.sqrt(r.passes),
    df: r.passes - 1,
    lo: Math.log(r.lo),
    hi: Math.log(r.hi),
  };
}

/**
 * The rows of one A/B results document, each judged with the document's rows as its family; none
 * for a document of another kind of plan. The sweep and the page judge again over every browser
 * (judgeAb), where the family is larger.
 */
export function abRows(doc: ResultsFile): AbRow[] {
  const ab = doc.run.plan.ab;
  const [a, b] = doc.run.plan.adapters;
  if (!ab || !a || !b) return [];
  const key = (c: CaseResult) => JSON.stringify([c.suite, c.case, c.size, c.params]);
  const looks = plannedLooksOf(doc.run.plan.auto);
  const facts = doc.environment.adapters ?? {};
  const sides = { a: sideLabel(a, facts[a]), b: sideLabel(b, facts[b]) };
  const sideB = new Map(doc.cases.filter((c) => c.adapter === b).map((c) => [key(c), c]));
  const rows = doc.cases.flatMap((rowA): AbRow[] => {
    const rowB = rowA.adapter === a ? sideB.get(key(rowA)) : undefined;
    if (!rowB) return [];
    const both = rowA.status === 'ok' && rowB.status === 'ok';
    const ratio = both ? comparisonRatio(passLogRatios(rowA, rowB), looks, rowA, rowB) : null;
    const why = both
      ? ratio
        ? undefined
        : TOO_FEW_PASSES
      : [rowA, rowB]
          .filter((r) => r.status !== 'ok')
          .map((r) => `${r.adapter} ${r.status}: ${r.reason ?? ''}`)
          .join('; ');
    const neither = rowA.status === 'unsupported' && rowB.status === 'unsupported';
    return [
      {
        browser: doc.run.browser,
        suite: rowA.suite,
        case: rowA.case,
        size: rowA.size,
        params: rowA.params,
        a,
        b,
        sides,
        ratio,
        verdict: 'undecided',
        pSlower: 1,
        detectable: null,
        ...(why ? { why } : {}),
        ...(neither ? { neither: true as const } : {}),
      },
    ];
  });
  return judgeAb(rows, ab.thresholdPct);
}

/** The rows judged together as one family (change.judgeChanges): every row both stores can run. */
export function judgeAb(rows: readonly AbRow[], thresholdPct: number): AbRow[] {
  const family = rows.filter((r) => !r.neither);
  const judged = judgeChanges(
    family.map((r) => changeOf(r.ratio)),
    thresholdPct,
  );
  const byRow = new Map(family.map((r, i) => [r, judged[i]]));
  return rows.map((r) => {
    const j = byRow.get(r);
    return j ? { ...r, ...j } : r;
  });
}

/** The document's `ab` field: its rows of B against A, as a results file keeps them (results-schema.ts); none without plan.ab. */
export function abSummary(doc: ResultsFile): ResultsFile['ab'] {
  const ab = doc.run.plan.ab;
  const [a, b] = doc.run.plan.adapters;
  if (!ab || !a || !b) return undefined;
  const rows = abRows(doc).map((r) => ({
    suite: r.suite,
    case: r.case,
    size: r.size,
    params: r.params,
    ratio: r.ratio
      ? { ratio: r.ratio.ratio, lo: r.ratio.lo, hi: r.ratio.hi, passes: r.ratio.passes }
      : null,
    verdict: r.verdict,
    pSlower: r.pSlower,
    detectable: r.detectable,
  }));
  return { a, b, thresholdPct: ab.thresholdPct, rows };
}

/** How a pair stands at a planned look: its B/A there, and whether it is settled and stops. */
export interface PairAtLook {
  ratio: PairedRatio | null;
  /**
   * Same or faster by its repeated interval (the whole interval within ±T, or below −T): decided
   * for good, so the pair stops and its launches go to the rows still open. Only those stop: a
   * pair that may yet fail is judged once, at the end, over every pass it has, so stopping for
   * the others spends none of the slower test's error (docs/method.md, "Planned looks").
   */
  settled: boolean;
}

/**
 * A pair at the look its passes reach (the plan's `looks`), from its per-pass log ratios;
 * `reached`, the run's passes so far, when neither side has settled (paired.passesReached).
 */
export function pairAtLook(
  logs: readonly number[],
  looks: readonly number[] | null,
  thresholdPct: number,
  reached?: number,
): PairAtLook {
  const ratio = pairedRatioAtLook(logs, looks, reached);
  const up = 1 + thresholdPct / 100;
  const down = 1 - thresholdPct / 100;
  const settled = ratio !== null && (ratio.hi < down || (ratio.lo >= down && ratio.hi <= up));
  return { ratio, settled };
}

export interface AbDecision {
  /** Every row given, in order, judged over the family of them all (those neither store can run left out of it). */
  rows: AbRow[];
  outcome: RunOutcome;
  code: (typeof RUN_EXIT)[RunOutcome];
  /** One line: the outcome, what the run could have caught, then the tally. */
  line: string;
  /** The rows slower beyond the threshold over the whole family: the ones that fail the run. */
  slower: AbRow[];
  tally: Record<ChangeVerdict, number>;
  power: Power;
}

/** `k passes (--auto=passes:k, with --budget B or more, <how a sweep spends it>)`. */
function morePasses(k: number): string {
  const budget = abBudgetFor(k);
  return `${k} passes (--auto=passes:${k}${budget === null ? '' : `, with --budget ${formatDuration(budget)} or more, ${AB_LAUNCH_RULE}`})`;
}

/**
 * What would make enough of the rows that missed --detect reach it, in words: the passes that
 * would (at the spread the rows showed, passesToDetect), and for the rest why more passes would
 * not and what would instead.
 */
function detectAdvice(
  rows: readonly AbRow[],
  thresholdPct: number,
  detectPct: number,
): { missed: AbRow[]; advice: string } {
  const missed = rows.filter((r) => !meetsDetect(r, detectPct, thresholdPct));
  const toFix = rowsToReach(rows.length) - (rows.length - missed.length);
  const measured = missed.flatMap((r) => (r.ratio === null ? [] : [r.ratio]));
  const passes = measured
    .map((r) => passesToDetect(r.logSd, r.passes + 1, thresholdPct, detectPct, rows.length))
    .filter((k): k is number => k !== null)
    .sort((x, y) => x - y);
  const enough = passes[toFix - 1];
  if (enough !== undefined)
    return {
      missed,
      advice: `at the spread these rows showed over passes, ${morePasses(enough)} would bring enough of them to ×${(1 + detectPct / 100).toFixed(2)}`,
    };
  const parts: string[] = [];
  const most = passes.at(-1);
  if (most !== undefined)
    parts.push(`${passes.length} of them would reach it in ${morePasses(most)}`);
  const stuck = measured.length - passes.length;
  if (stuck > 0)
    parts.push(
      `${stuck} would not even in ${PLAN_LIMITS.maxPasses} passes, the most there can be: ${detectPct <= thresholdPct ? `--detect ${detectPct}% is not above the threshold (${thresholdPct}%), which a row must pass before it fails` : 'their B/A moves too much between passes; less noise within each pass would help (a quieter machine, or --auto ci:1% for more samples in each)'}`,
    );
  const thin = missed.filter((r) => r.ratio === null);
  if (thin.length > 0)
    parts.push(
      `${thin.length} had no interval (samples on both sides in fewer than ${abPassesNeeded()} passes, or a side that did not run: see each row's why)`,
    );
  return { missed, advice: parts.join('; ') };
}

/** A row as a line names it: `chromium insert/bulk 100 ×1.083`. */
const rowName = (r: AbRow) =>
  `${r.browser} ${r.suite}/${r.case} ${r.size}${r.ratio ? ` ${times(r.ratio.ratio, 3)}` : ''}`;

/** One verdict over every row of every browser: `detectPct`, the slowdown a CI asks every run to be able to catch (--detect), or null. */
export function abDecision(
  all: readonly AbRow[],
  thresholdPct: number,
  detectPct: number | null = null,
): AbDecision {
  // A case neither store can run is not a row compared: counted, it pushed an A/A of the default
  // plan's 13 cases on idb (2 of them views) toward 'undecided'.
  const judged = judgeAb(all, thresholdPct);
  const rows = judged.filter((r) => !r.neither);
  const skipped = all.length - rows.length;
  const slower = rows.filter((r) => r.verdict === 'slower');
  const tally: Record<ChangeVerdict, number> = { slower: 0, faster: 0, same: 0, undecided: 0 };
  for (const r of rows) tally[r.verdict]++;
  const power = powerOf(rows, detectPct, thresholdPct);
  const outcome = runOutcome(rows, detectPct, thresholdPct);
  const a = rows[0]?.a ?? 'A';
  const b = rows[0]?.b ?? 'B';
  const words = `${rows.length} row${rows.length === 1 ? '' : 's'} compared: ${tally.slower} slower, ${tally.faster} faster, ${tally.same} same, ${tally.undecided} undecided (against ±${thresholdPct}%, 95% intervals over launches)${skipped > 0 ? `; ${skipped} case${skipped === 1 ? '' : 's'} neither store can run, not compared` : ''}`;
  const decision = (line: string): AbDecision => ({
    rows: judged,
    outcome,
    code: RUN_EXIT[outcome],
    line,
    slower,
    tally,
    power,
  });
  if (outcome === 'fail') {
    const named = slower.slice(0, 5).map(rowName);
    return decision(
      `FAIL: ${slower.length} row${slower.length === 1 ? '' : 's'} of ${b} slower than ${a} beyond ${thresholdPct}%, with the chance of any false alarm over all rows held at ${FAMILY_ALPHA * 100}% (Holm): ${named.join('; ')}${slower.length > 5 ? '; …' : ''}. ${words}.`,
    );
  }
  if (outcome === 'undecided') {
    if (rows.length === 0) return decision(`UNDECIDED: no row was compared. ${words}.`);
    const { missed, advice } = detectAdvice(rows, thresholdPct, detectPct ?? Infinity);
    const what =
      detectPct === null
        ? `${missed.length} of ${rows.length} rows have no interval, more than ${Math.round(MAX_UNDETECTED_SHARE * 100)}%: this run cannot say what it would have caught`
        : `${missed.length} of ${rows.length} rows could not have caught ×${(1 + detectPct / 100).toFixed(2)} and were not shown same (--detect ${detectPct}%), more than ${Math.round(MAX_UNDETECTED_SHARE * 100)}%: a slowdown that size could hide among them (${missed.slice(0, 5).map(rowName).join('; ')}${missed.length > 5 ? '; …' : ''})`;
    return decision(`UNDECIDED: ${what}; ${advice}. ${words}.`);
  }
  return decision(
    `PASS: no row of ${b} is slower than ${a} beyond ${thresholdPct}% (Holm, ${FAMILY_ALPHA * 100}% over all rows); ${powerText(power)}. ${words}.`,
  );
}
