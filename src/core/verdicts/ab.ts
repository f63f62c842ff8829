/**
 * The verdict of an A/B run (plan.ab): each case's B/A with its interval over passes and its
 * verdict (paired.ts), and one verdict over every row of every browser, whose chance of a false
 * "slower" is held at 5% by Holm's procedure. Pure: results documents in, a decision out; the
 * sweep prints it, the page draws it, the results file keeps each row's.
 */
import type { ParamValue } from '../base/identity.ts';
import {
  abVerdict,
  holmRejects,
  pairedRatio,
  passesReached,
  passLogRatios,
  slowerPValue,
  type AbVerdict,
  type PairedRatio,
} from '../stats/paired.ts';
import { abBudgetFor, abPassesNeeded, AB_LAUNCH_RULE, passesToDecide } from '../plan/ab-plan.ts';
import { formatDuration } from '../base/format.ts';
import { plannedLooksOf } from '../plan/plan.ts';
import { PLAN_LIMITS } from '../plan/defaults.ts';
import type { CaseResult, ResultsFile } from '../schema/results-schema.ts';

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
  verdict: AbVerdict;
  /** One-sided p-value of "B slower than A by more than the threshold". */
  pSlower: number;
  /** Why the row has no ratio: a side's status and reason. */
  why?: string;
  /** Neither store can run the case (both unsupported): nothing to compare, and no row to count as unsure. */
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

/** The rows of one A/B results document; none for a document of another kind of plan. */
export function abRows(doc: ResultsFile): AbRow[] {
  const ab = doc.run.plan.ab;
  const [a, b] = doc.run.plan.adapters;
  if (!ab || !a || !b) return [];
  const key = (c: CaseResult) => JSON.stringify([c.suite, c.case, c.size, c.params]);
  const looks = plannedLooksOf(doc.run.plan.auto);
  const facts = doc.environment.adapters ?? {};
  const sides = { a: sideLabel(a, facts[a]), b: sideLabel(b, facts[b]) };
  const sideB = new Map(doc.cases.filter((c) => c.adapter === b).map((c) => [key(c), c]));
  return doc.cases.flatMap((rowA) => {
    const rowB = rowA.adapter === a ? sideB.get(key(rowA)) : undefined;
    if (!rowB) return [];
    const both = rowA.status === 'ok' && rowB.status === 'ok';
    const logs = both ? passLogRatios(rowA, rowB) : [];
    const reached =
      rowA.status === 'ok' && rowB.status === 'ok' ? passesReached(rowA, rowB) : undefined;
    const ratio = both ? pairedRatio(logs, looks, reached) : null;
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
        verdict: abVerdict(ratio, ab.thresholdPct),
        pSlower: slowerPValue(logs, ab.thresholdPct, looks, reached),
        ...(why ? { why } : {}),
        ...(neither ? { neither: true as const } : {}),
      },
    ];
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
  }));
  return { a, b, thresholdPct: ab.thresholdPct, rows };
}

/** How a pair stands at a planned look: its B/A and verdict, and whether it is settled and stops. */
export interface PairAtLook {
  ratio: PairedRatio | null;
  verdict: AbVerdict;
  /**
   * Same or faster: its repeated interval decides it for good, so the pair stops and its launches
   * go to the rows still open. Slower once its p-value is below 5% over the whole family of rows
   * (Bonferroni, Holm's first step): it fails the run whatever the other rows do. A slower pair
   * short of that samples on, and only grows surer.
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
  family: number,
  reached?: number,
): PairAtLook {
  const ratio = pairedRatio(logs, looks, reached);
  const verdict = abVerdict(ratio, thresholdPct);
  const settled =
    verdict === 'same' ||
    verdict === 'faster' ||
    (verdict === 'slower' && slowerPValue(logs, thresholdPct, looks, reached) <= AB_ALPHA / family);
  return { ratio, verdict, settled };
}

/** The false-alarm rate the overall verdict holds over all rows and browsers. */
export const AB_ALPHA = 0.05;

/**
 * The share of rows that may stay unsure before the run cannot say "no row is slower": beyond a
 * third, a slowdown could be hiding among the rows it could not decide.
 */
const AB_MAX_UNSURE = 1 / 3;

export const AB_EXIT = { ok: 0, slower: 1, undecided: 3 } as const;

export interface AbDecision {
  code: (typeof AB_EXIT)[keyof typeof AB_EXIT];
  /** One line: the outcome, then the tally. */
  line: string;
  /** The rows whose slowdown stands after Holm's procedure over every row: the ones that fail the run. */
  slower: AbRow[];
  tally: Record<AbVerdict, number>;
}

/**
 * What would decide enough of the unsure rows for a verdict, in words: the passes that would (at
 * the spread the rows showed, passesToDecide), and for the rest, why more passes would not and
 * what would instead.
 */
function undecidedAdvice(
  rows: readonly AbRow[],
  thresholdPct: number,
  maxUnsure = AB_MAX_UNSURE,
): string {
  const unsure = rows.filter((r) => r.verdict === 'unsure');
  const toDecide = unsure.length - Math.floor(maxUnsure * rows.length);
  const thin = unsure.filter((r) => r.ratio === null && r.why === TOO_FEW_PASSES);
  const sideless = unsure.filter((r) => r.ratio === null && r.why !== TOO_FEW_PASSES);
  const measured = unsure.flatMap((r) => (r.ratio === null ? [] : [r.ratio]));
  const passes = measured
    .map((r) => passesToDecide(r, thresholdPct))
    .filter((k): k is number => k !== null)
    .sort((a, b) => a - b);
  const enough = passes[toDecide - 1];
  if (enough !== undefined)
    return `${AB_ADVICE_PASSES}, ${morePasses(enough)} would decide enough of them`;
  const parts: string[] = [];
  const most = passes.at(-1);
  if (most !== undefined)
    parts.push(`${passes.length} of them would be decided by ${morePasses(most)}`);
  const stuck = measured.length - passes.length;
  if (stuck > 0)
    parts.push(
      `${stuck} would stay unsure even in ${PLAN_LIMITS.maxPasses} passes, the most there can be: their B/A lies too near ±${thresholdPct}% or moves too much between passes; less noise within each pass would help (a quieter machine, or --auto ci:1% for more samples in each)`,
    );
  if (thin.length > 0)
    parts.push(
      `${thin.length} had samples on both sides in fewer than ${abPassesNeeded()} passes: a longer --budget gives each row samples in more of them`,
    );
  if (sideless.length > 0)
    parts.push(
      `${sideless.length} had a side that did not run, which no number of passes changes (see each row's why)`,
    );
  return parts.join('; ');
}

/** `k passes (--auto=passes:k, with --budget B or more, <how a sweep spends it>)`. */
function morePasses(k: number): string {
  const budget = abBudgetFor(k);
  return `${k} passes (--auto=passes:${k}${budget === null ? '' : `, with --budget ${formatDuration(budget)} or more, ${AB_LAUNCH_RULE}`})`;
}

/** Where undecidedAdvice's passes come from, as its line says it. */
const AB_ADVICE_PASSES =
  "at the spread these rows showed (their B/A's mean and spread over passes, as measured)";

/** One verdict over every row of every browser. */
export function abDecision(
  all: readonly AbRow[],
  thresholdPct: number,
  maxUnsure = AB_MAX_UNSURE,
): AbDecision {
  // A case neither store can run is not a row compared: counted as unsure, it pushed an A/A of the
  // default plan's 13 cases on idb (2 of them views) toward 'undecided'.
  const rows = all.filter((r) => !r.neither);
  const skipped = all.length - rows.length;
  const rejected = holmRejects(
    rows.map((r) => r.pSlower),
    AB_ALPHA,
  );
  const slower = rows.filter((r, i) => rejected[i] && r.verdict === 'slower');
  const tally: Record<AbVerdict, number> = { slower: 0, faster: 0, same: 0, unsure: 0 };
  for (const r of rows) tally[r.verdict]++;
  const words = `${rows.length} row${rows.length === 1 ? '' : 's'} compared: ${tally.slower} slower, ${tally.faster} faster, ${tally.same} same, ${tally.unsure} unsure (against ±${thresholdPct}%, 95% intervals over launches)${skipped > 0 ? `; ${skipped} case${skipped === 1 ? '' : 's'} neither store can run, not compared` : ''}`;
  if (slower.length > 0) {
    const named = slower
      .slice(0, 5)
      .map(
        (r) => `${r.browser} ${r.suite}/${r.case} ${r.size} ×${r.ratio?.ratio.toFixed(3) ?? '?'}`,
      );
    return {
      code: AB_EXIT.slower,
      line: `SLOWER: ${slower.length} row${slower.length === 1 ? '' : 's'} of ${rows[0]?.b ?? 'B'} slower than ${rows[0]?.a ?? 'A'} beyond ${thresholdPct}%, with the chance of any false alarm over all rows held at ${AB_ALPHA * 100}% (Holm): ${named.join('; ')}${slower.length > 5 ? '; …' : ''}. ${words}.`,
      slower,
      tally,
    };
  }
  if (rows.length === 0 || tally.unsure > maxUnsure * rows.length) {
    return {
      code: AB_EXIT.undecided,
      line: `UNDECIDED: ${rows.length === 0 ? 'no row was compared' : `${tally.unsure} of ${rows.length} rows are unsure, more than ${Math.round(maxUnsure * 100)}%: a slowdown could hide among them; ${undecidedAdvice(rows, thresholdPct, maxUnsure)}`}. ${words}.`,
      slower,
      tally,
    };
  }
  return {
    code: AB_EXIT.ok,
    line: `OK: no row of ${rows[0]?.b ?? 'B'} is slower than ${rows[0]?.a ?? 'A'} beyond ${thresholdPct}% (Holm, ${AB_ALPHA * 100}% over all rows). ${words}.`,
    slower,
    tally,
  };
}
