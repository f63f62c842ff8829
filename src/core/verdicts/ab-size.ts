/**
 * A budget sized to the question (the sweep's --budget auto and --budget-max): once an A/B run
 * has taken its first passes it knows how much each row's B/A moves from pass to pass, and from
 * that how many passes would let enough of its rows catch a slowdown of the size asked
 * (--detect, or twice the threshold). The sweep extends its run to those passes within its cap;
 * every A/B run, sized or not, says the figure (the terminal, the Markdown, the page's A/B view).
 *
 * The choice reads only the rows' spread, never their B/A, so it cannot steer the verdict toward
 * a failure: the simulation in tests/unit/core/verdicts/ab-sized-simulated.slow.test.ts measures the
 * false alarms of sized runs (docs/method.md, "Passes sized to the question"). Pure: samples in,
 * passes and words out.
 */
import { formatDuration } from '../base/format.ts';
import { PLAN_LIMITS } from '../plan/defaults.ts';
import { passesOf } from '../plan/plan.ts';
import type { ResultsFile } from '../schema/results-schema.ts';
import { passLogRatios, PAIRED_MIN_PASSES, type PairSide } from '../stats/paired.ts';
import { variance } from '../stats/stats.ts';
import { detectableSlowdown, MAX_UNDETECTED_SHARE, times } from './change.ts';

/**
 * The slowdown a run is sized to catch: --detect, or twice the threshold without it. Twice: a run
 * that would catch ×1.10 tells a change that costs 5% from one that costs 10%, while catching
 * ×1.05 itself takes passes without end (a row must clear +T before it fails).
 */
export function sizingGoalPct(thresholdPct: number, detectPct: number | null | undefined): number {
  return detectPct ?? 2 * thresholdPct;
}

/** The fewest rows, of `rows`, that must reach --detect for a run not to be undecided (change.runOutcome). */
export function rowsToReach(rows: number): number {
  return rows - Math.floor(MAX_UNDETECTED_SHARE * rows);
}

/**
 * The fewest passes, from `from` up, at which a row whose B/A moves by `logSd` from pass to pass
 * (the standard deviation of its per-pass log ratios) would have a detectable slowdown within
 * ×(1 + detectPct/100) among `family` rows: the fewest k with max(ln(1+T), t(1−α/m, k−1)·s/√k)
 * + t(0.8, k−1)·s/√k within ln(1 + detect). Null when no k up to PLAN_LIMITS.maxPasses does (a
 * goal at or under the threshold, or a spread too large). A projection, not a promise: the next
 * passes may move more or less.
 */
export function passesToDetect(
  logSd: number,
  from: number,
  thresholdPct: number,
  detectPct: number,
  family: number,
): number | null {
  const reaches = (k: number) =>
    detectableSlowdown(
      { log: 0, se: logSd / Math.sqrt(k), df: k - 1, lo: 0, hi: 0 },
      thresholdPct,
      family,
    ) <=
    1 + detectPct / 100;
  let lo = Math.max(from, PAIRED_MIN_PASSES);
  let hi: number = PLAN_LIMITS.maxPasses;
  if (lo > hi || !reaches(hi)) return null;
  // The detectable slowdown shrinks as passes grow (a smaller error, more degrees of freedom):
  // halve the range down to the first pass count that reaches the goal.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (reaches(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** A row of an A/B run as the sizing reads it: which case, which store, and its samples by pass. */
export interface SizedRow extends PairSide {
  suite: string;
  case: string;
  size: number;
  params: Readonly<Record<string, unknown>>;
  adapter: string;
}

/**
 * How much each pair's B/A moves from pass to pass: the standard deviation of its per-pass log
 * ratios, one per case either store sampled; null for a case with fewer than two passes with
 * samples on both sides (or a store missing), which no number of passes is known to fix.
 */
export function pairSpreads(rows: readonly SizedRow[], a: string, b: string): (number | null)[] {
  const key = (r: SizedRow) => JSON.stringify([r.suite, r.case, r.size, r.params]);
  const sides = new Map<string, { a?: SizedRow; b?: SizedRow }>();
  for (const r of rows) {
    if (r.adapter !== a && r.adapter !== b) continue;
    const pair = sides.get(key(r)) ?? {};
    pair[r.adapter === a ? 'a' : 'b'] = r;
    sides.set(key(r), pair);
  }
  return [...sides.values()].map((pair) => {
    if (!pair.a || !pair.b) return null;
    const logs = passLogRatios(pair.a, pair.b);
    return logs.length >= PAIRED_MIN_PASSES ? Math.sqrt(variance(logs)) : null;
  });
}

/**
 * How much more a row's B/A moves over a whole run than over its first passes. The 2/3 quantile
 * over rows of the spread over all passes was 1.22 times that over the first 3 at the median of
 * 18 A/A runs here, in three engines (docs/figures.md, "Passes sized to the question"): a launch
 * drifts from the ones before it, which three adjacent ones do not show. Sized without it, half
 * the runs fell short of their goal by more than the spreads' own error explains.
 */
const EARLY_SPREAD_SCALE = 1.22;

/** The spreads over the first passes as the whole run's would be (EARLY_SPREAD_SCALE), for sizing a run after them. */
export function earlySpreads(spreads: readonly (number | null)[]): (number | null)[] {
  return spreads.map((sd) => (sd === null ? null : sd * EARLY_SPREAD_SCALE));
}

/** What the sizing found: the passes the question needs, and the passes the run takes. */
export interface Sizing {
  /** Passes the spreads were measured over. */
  after: number;
  /** The slowdown, in %, the run is sized to catch (sizingGoalPct). */
  goalPct: number;
  /** Rows compared, and the fewest of them that must reach the goal (rowsToReach). */
  rows: number;
  reach: number;
  /** Passes with which that many rows reach the goal at the spread measured; null when none up to PLAN_LIMITS.maxPasses do. */
  needed: number | null;
  /** The passes the run takes: `needed` within `least` and `most`. */
  passes: number;
  least: number;
  most: number;
}

/**
 * The passes a run needs for `rowsToReach` of its rows to catch ×(1 + goalPct/100), at the
 * spreads measured (pairSpreads; each row's own passesToDetect, the family being every row), and
 * the passes it takes: that, never fewer than `least` nor more than `most`. Passes without end
 * (needed null) take `most`: the cap is then the answer the run can give.
 */
export function sizePasses(
  spreads: readonly (number | null)[],
  o: { thresholdPct: number; goalPct: number; after: number; least: number; most: number },
): Sizing {
  const rows = spreads.length;
  const reach = rowsToReach(rows);
  const each = spreads
    .map((sd) =>
      sd === null ? null : passesToDetect(sd, PAIRED_MIN_PASSES, o.thresholdPct, o.goalPct, rows),
    )
    .map((k) => k ?? Infinity)
    .sort((x, y) => x - y);
  const kth = rows === 0 ? Infinity : (each[reach - 1] as number);
  const needed = Number.isFinite(kth) ? kth : null;
  const passes = Math.min(o.most, Math.max(o.least, needed ?? o.most));
  return {
    after: o.after,
    goalPct: o.goalPct,
    rows,
    reach,
    needed,
    passes,
    least: o.least,
    most: o.most,
  };
}

/** How a run's passes were sized, in the words of the sweep's --budget flags. */
export interface SizingRecord extends Sizing {
  /** --budget-max: the most the run's browsers may each spend, in ms. */
  maxMs: number;
  /** The budget each browser's run was given for its passes, in ms. */
  budgetMs: number;
}

/** A judged row as the end of a run reads it: its B/A's spread over the passes it is over (paired.PairedRatio), if it has one. */
interface SpreadRow {
  ratio: { logSd: number; passes: number } | null;
  /** Neither store could run the case: no row of the family. */
  neither?: true;
  /** The row's verdict: one shown slower has caught its slowdown, and needs no more passes. */
  verdict?: string;
}

/**
 * What every A/B run ends on: the passes its question needs at the spread its rows not shown
 * slower showed, and the passes it had, or, sized by --budget auto, how it was sized (`sized`,
 * the results' record).
 */
export function passesText(
  rows: readonly SpreadRow[],
  ab: { thresholdPct: number; detectPct?: number | undefined },
  passes: number,
  sized?: SizingRecord,
): string {
  if (sized) return sizingText(sized);
  const compared = rows.filter((r) => !r.neither);
  // As the power line (change.powerOf): a row shown slower has caught its slowdown already.
  const open = compared.filter((r) => r.verdict !== 'slower');
  if (open.length === 0 && compared.length > 0)
    return `every row compared is slower: no more passes were needed to catch it; this run had ${passes}`;
  const s = sizePasses(
    open.map((r) => r.ratio?.logSd ?? null),
    {
      thresholdPct: ab.thresholdPct,
      goalPct: sizingGoalPct(ab.thresholdPct, ab.detectPct),
      after: passes,
      least: 1,
      most: PLAN_LIMITS.maxPasses,
    },
  );
  return `${sizingText(s)}; this run had ${passes} (--budget auto sizes a run to what it needs)`;
}

/** passesText for an A/B run's results documents (its browsers'), from the first one's plan and sizing; null for another kind of run. */
export function runPassesText(
  rows: readonly SpreadRow[],
  docs: readonly ResultsFile[],
): string | null {
  const run = docs[0]?.run;
  if (!run?.plan.ab) return null;
  return passesText(rows, run.plan.ab, passesOf(run.plan.auto), run.sizing);
}

/**
 * The sizing in one line: "catching ×1.10 in 17 of 25 rows needs 22 passes at the spread over the
 * first 3", then, for a run --budget auto sized, the passes and budget it was given.
 */
export function sizingText(s: Sizing | SizingRecord): string {
  const goal = `catching ${times(1 + s.goalPct / 100)} in ${s.reach} of ${s.rows} row${s.rows === 1 ? '' : 's'}`;
  const over = 'maxMs' in s ? `the first ${s.after} passes` : `its ${s.after} passes`;
  const needs =
    s.needed === null
      ? `${goal} would need more than ${PLAN_LIMITS.maxPasses} passes (the most there can be) at the spread over ${over}`
      : `${goal} needs ${s.needed} passes at the spread over ${over}`;
  if (!('maxMs' in s)) return needs;
  const cap = `--budget-max ${formatDuration(s.maxMs)}`;
  const budget = `--budget ${formatDuration(s.budgetMs)} per browser`;
  if (s.needed !== null && s.needed < s.least)
    return `${needs}; sized to ${s.passes} passes, the fewest --auto=passes:N sets (${budget})`;
  if (s.needed === null || s.needed > s.most)
    return `${needs}; sized to ${s.passes} passes, the most ${cap} gives (${budget})`;
  return `${needs}; sized to ${s.passes} passes, ${budget} (--budget auto, at most ${cap})`;
}
