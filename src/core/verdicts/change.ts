/**
 * The gate's question, asked one way of every change storebench judges: B against A in one run
 * (`--ab`, ab.ts, and the page's A/B), a new run against a base (compare.ts), a series' newest
 * change (core/history/verdicts.ts). The question a maintainer's CI asks is one-sided: is B slower
 * than A by more than the threshold T? Pure: estimates in, verdicts out (docs/gate.md, "The rule").
 *
 * A change is an estimate of log(B/A) with its standard error and degrees of freedom (Student's t
 * over passes; Infinity where its error is taken as normal), and the 95% interval shown with it.
 * Over the family a run judges (every row of every browser):
 * - `slower`: the estimate is beyond +T, and the one-sided test against no change rejects with the
 *   chance of any false alarm over the family held at 5% (Holm): it fails the run. Both, because
 *   a slowdown that is real but smaller than T is not one to fail a build on, and one beyond T that
 *   the noise could have made is not one either (Perfherder and tachometer ask the same two things);
 * - `faster`: the mirror image, beyond −T and shown faster by the same test;
 * - `same`: the 95% interval lies within ±T: any difference is smaller than the threshold
 *   (equivalence), the strongest answer a run can give;
 * - `undecided`: none of these.
 * A change that is not slower says how large a slowdown this run could have caught: its detectable
 * slowdown (detectableSlowdown). Identical code then passes, and says what it would have seen.
 */
import { holmRejects } from '../stats/paired.ts';
import {
  chiSquarePdf,
  normalCdf,
  tOrNormalCdf,
  tOrNormalQuantile,
} from '../stats/distributions.ts';
import { median } from '../stats/stats.ts';
import {
  LEGACY_VERDICT_WORDS,
  type ChangeVerdict,
  type FindingVerdict,
} from '../schema/vocabulary.ts';

/** The chance of any false `slower` over a run's family of changes: what a build sees. */
export const FAMILY_ALPHA = 0.05;

/** The probability with which a run catches its detectable slowdown: 80%, the usual power of a test. */
const DETECT_POWER = 0.8;

/** A run with more than this share of rows that could not have caught `--detect` cannot vouch for them. */
export const MAX_UNDETECTED_SHARE = 1 / 3;

/** A change as the rule reads it: log(B/A), its standard error and degrees of freedom, and its 95% interval. */
export interface Change {
  log: number;
  se: number;
  /** Student's t over this many degrees of freedom; Infinity: a normal error. */
  df: number;
  /** The 95% interval shown with the change, on the log scale (a repeated one where it was decided at a planned look). */
  lo: number;
  hi: number;
}

/** A change judged within its family. */
export interface Judged {
  verdict: ChangeVerdict;
  /** One-sided p-value of "B is no slower than A", the test Holm takes over the family. */
  pSlower: number;
  /** The smallest B/A this run would have flagged with DETECT_POWER probability; null without a change. */
  detectable: number | null;
}

/** P(an estimate this far above 0 or further | no change): the one-sided test of "no slower". */
export function pSlowerOf(c: Change): number {
  if (c.se === 0) return c.log > 0 ? 0 : 1;
  return 1 - tOrNormalCdf(c.log / c.se, c.df);
}

/** Points and weights of V's density for powerAt (Simpson's rule, 64 steps), made once per df. */
const GRIDS = new Map<number, { v: number[]; w: number[] }>();

function gridOf(df: number): { v: number[]; w: number[] } {
  const known = GRIDS.get(df);
  if (known) return known;
  const steps = 64;
  const h = (df + 12 * Math.sqrt(2 * df) + 10) / steps;
  const grid = { v: [] as number[], w: [] as number[] };
  for (let i = 0; i <= steps; i++) {
    grid.v.push(Math.sqrt((i * h) / df));
    grid.w.push(
      (chiSquarePdf(i * h, df) * h * (i === 0 || i === steps ? 1 : i % 2 === 1 ? 4 : 2)) / 3,
    );
  }
  if (GRIDS.size > 256) GRIDS.clear();
  GRIDS.set(df, grid);
  return grid;
}

/**
 * The probability that a change whose true log ratio is `lambda` standard errors above 0 is
 * flagged `slower`: its estimate must clear both +T (`bound`, in standard errors) and the test's
 * critical value `c` times its estimated standard error, which varies with the passes as
 * √(V/df), V chi-square on df degrees of freedom. Exact for normal per-pass noise: the integral
 * of Φ(λ − max(bound, c·√(V/df))) over V's density; with a normal error (df Infinity) the
 * estimated error is the true one.
 */
function powerAt(lambda: number, bound: number, c: number, df: number): number {
  if (df === Infinity) return normalCdf(lambda - Math.max(bound, c));
  const { v, w } = gridOf(df);
  let sum = 0;
  for (let i = 0; i < v.length; i++)
    sum += (w[i] as number) * normalCdf(lambda - Math.max(bound, c * (v[i] as number)));
  return sum;
}

/**
 * The smallest B/A this change's noise and passes would have flagged as `slower` with
 * DETECT_POWER probability, among `family` changes: the estimate must clear both +T and the test's
 * critical value at α/family (the first step of Holm's procedure: what one slowed row among
 * unchanged ones faces), with the row's own standard error taken as the true one (powerAt).
 * The seeded simulation in tests/unit/core/verdicts/change.test.ts checks it is caught 80% of the
 * time (docs/method.md, "The gate's error rates").
 */
export function detectableSlowdown(c: Change, thresholdPct: number, family: number): number {
  const bound = Math.log1p(thresholdPct / 100);
  if (c.se === 0) return Math.exp(bound);
  const critical = tOrNormalQuantile(1 - FAMILY_ALPHA / Math.max(1, family), c.df);
  const b = bound / c.se;
  let lo = 0;
  let hi = Math.max(b, critical) + 20;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (powerAt(mid, b, critical, c.df) < DETECT_POWER) lo = mid;
    else hi = mid;
  }
  return Math.exp(hi * c.se);
}

/** Each change of a family judged against ±thresholdPct; a null change (no interval) is `undecided`. */
export function judgeChanges(changes: readonly (Change | null)[], thresholdPct: number): Judged[] {
  const up = Math.log1p(thresholdPct / 100);
  const down = Math.log1p(-Math.min(thresholdPct, 99.99) / 100);
  const present = changes.flatMap((c) => (c ? [c] : []));
  const family = present.length;
  const slowerP = present.map(pSlowerOf);
  const fasterP = present.map((c) => pSlowerOf({ ...c, log: -c.log }));
  const shownSlower = holmRejects(slowerP, FAMILY_ALPHA);
  const shownFaster = holmRejects(fasterP, FAMILY_ALPHA);
  let i = -1;
  return changes.map((c) => {
    if (c === null) return { verdict: 'undecided', pSlower: 1, detectable: null };
    i++;
    const verdict: ChangeVerdict =
      c.log > up && shownSlower[i]
        ? 'slower'
        : c.log < down && shownFaster[i]
          ? 'faster'
          : c.lo >= down && c.hi <= up
            ? 'same'
            : 'undecided';
    return {
      verdict,
      pSlower: slowerP[i] as number,
      detectable: detectableSlowdown(c, thresholdPct, family),
    };
  });
}

/** Each change verdict as a table cell says it, in the terminal's legends and the page's tables alike. */
export const CHANGE_VERDICT_TEXT: Readonly<Record<ChangeVerdict, string>> = {
  slower: 'slower beyond the threshold',
  faster: 'faster beyond the threshold',
  same: 'same, within the threshold',
  undecided: 'undecided',
};

/** How a run ends for a build: each outcome one word, one exit code. */
export type RunOutcome = 'pass' | 'fail' | 'undecided';
export const RUN_EXIT: Readonly<Record<RunOutcome, 0 | 1 | 3>> = {
  pass: 0,
  fail: 1,
  undecided: 3,
};

/**
 * What a run could have caught, over its judged rows not shown slower (a slower row caught its
 * slowdown, and its cell shows none): the median detectable slowdown and, with --detect, how many
 * rows reach it.
 */
export interface Power {
  rows: number;
  /** Rows left out for being shown slower. */
  slower: number;
  /** Median of the rows' detectable slowdowns, rows without one counting as uncatchable; null without rows. */
  median: number | null;
  lowest: number | null;
  highest: number | null;
  /** With a --detect target: the rows that answer it (meetsDetect). */
  within?: number;
  detectPct?: number;
}

/** A judged row as --detect and the power line read it: its verdict and its detectable slowdown, a B/A. */
export type DetectableRow = Pick<Judged, 'detectable'> & { verdict: string };

/**
 * Whether a row answers --detect P: its detectable slowdown is within 1 + P, or it is `same`, its
 * whole interval within ±T, which rules out a slowdown of P > T as firmly as the interval holds.
 * A row that settled as same at a planned look stopped sampling there, so its detectable
 * slowdown is over those passes only: had it been P slower, it would not have settled, and would
 * have sampled on to the end.
 */
export function meetsDetect(j: DetectableRow, detectPct: number, thresholdPct: number): boolean {
  if (j.verdict === 'same' && detectPct > thresholdPct) return true;
  return j.detectable !== null && j.detectable <= 1 + detectPct / 100 + 1e-12;
}

export function powerOf(
  all: readonly DetectableRow[],
  detectPct: number | null,
  thresholdPct: number,
): Power {
  const judged = all.filter((j) => j.verdict !== 'slower');
  const ds = judged.map((j) => j.detectable ?? Infinity);
  const finite = ds.filter(Number.isFinite);
  return {
    rows: judged.length,
    slower: all.length - judged.length,
    median: ds.length > 0 && Number.isFinite(median(ds)) ? median(ds) : null,
    lowest: finite.length > 0 ? Math.min(...finite) : null,
    highest: finite.length > 0 ? Math.max(...finite) : null,
    ...(detectPct === null
      ? {}
      : {
          detectPct,
          within: judged.filter((j) => meetsDetect(j, detectPct, thresholdPct)).length,
        }),
  };
}

/**
 * The detectable slowdown a row shows (a B/A here, a % in compare-text): none for a row shown
 * slower, which caught its slowdown (the power line leaves it out too, powerOf), nor for one
 * without an interval.
 */
export function shownDetectable(j: DetectableRow): number | null {
  return j.verdict === 'slower' ? null : j.detectable;
}

/** A row's detectable slowdown as its cell shows it, `×1.07`, or `none` (shownDetectable). */
export function detectableCell(j: DetectableRow, none: string): string {
  const d = shownDetectable(j);
  return d === null ? none : times(d);
}

/** `×1.07` */
export const times = (ratio: number, digits = 2) => `×${ratio.toFixed(digits)}`;

/** How a power line names what it judged and writes a slowdown: a run's B/A as ×1.07, a comparison's change as +7.0%. */
export interface PowerWords {
  noun: string;
  /** A detectable slowdown, given as a B/A. */
  slowdown: (ratio: number) => string;
  /** The --detect target, given in %. */
  goal: (pct: number) => string;
}

/** An A/B run's words: B/A ratios. */
const RUN_POWER: PowerWords = {
  noun: 'run',
  slowdown: (ratio) => times(ratio),
  goal: (pct) => times(1 + pct / 100),
};

/**
 * The power line a run ends on: "this run would have caught ×1.09 or more at its median row
 * (×1.05 to ×1.31), ×1.10 or more, or shown same, in 21 of 25 rows (--detect 10%)"; a
 * comparison's says the same in its own words (gate.ts).
 */
export function powerText(p: Power, w: PowerWords = RUN_POWER): string {
  if (p.rows === 0 && p.slower > 0) return 'every row compared is slower: each caught its slowdown';
  if (p.rows === 0 || p.median === null) return 'no row had an interval to catch a slowdown with';
  const range =
    p.lowest !== null && p.highest !== null && w.slowdown(p.lowest) !== w.slowdown(p.highest)
      ? ` (rows: ${w.slowdown(p.lowest)} to ${w.slowdown(p.highest)})`
      : '';
  const of = p.slower > 0 ? ` of the ${p.rows} row${p.rows === 1 ? '' : 's'} not shown slower` : '';
  const detect =
    p.detectPct === undefined
      ? ''
      : `; ${w.goal(p.detectPct)} or more, or shown same, in ${p.within ?? 0} of ${p.rows} rows (--detect ${p.detectPct}%)`;
  return `this ${w.noun} would have caught a slowdown of ${w.slowdown(p.median)} or more at its median row${of}${range}${detect}`;
}

/**
 * A run's outcome from its judged rows: `fail` with any row slower; else `undecided` when no row
 * was judged, when more than MAX_UNDETECTED_SHARE of them have no interval, or, with a --detect
 * target, do not answer it (meetsDetect); else `pass`.
 */
export function runOutcome(
  judged: readonly Judged[],
  detectPct: number | null,
  thresholdPct: number,
): RunOutcome {
  if (judged.some((j) => j.verdict === 'slower')) return 'fail';
  if (judged.length === 0) return 'undecided';
  const missed = judged.filter((j) =>
    detectPct === null ? j.detectable === null : !meetsDetect(j, detectPct, thresholdPct),
  ).length;
  return missed > MAX_UNDETECTED_SHARE * judged.length ? 'undecided' : 'pass';
}

/** A verdict word as files written before one vocabulary have it, read as today's word. */
export function currentWord<W extends string>(word: W): FindingVerdict | ChangeVerdict | W {
  return (LEGACY_VERDICT_WORDS as Record<string, FindingVerdict | ChangeVerdict>)[word] ?? word;
}
