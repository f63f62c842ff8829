/**
 * What a study is: the published experiment storebench reruns (its parts are sweep plans), the
 * figures it published (data, each with its source and unit), and the findings a report checks
 * against today's rows, each with a verdict that comes from a 95% interval.
 *
 * Pure data and one pure function (verdictOf); src/studies/report.ts applies them to results.
 */

/** Where a published figure or claim comes from. */
export interface Source {
  /** Title and author as published. */
  title: string;
  author: string;
  /** As precise as the source gives it: 2014-04-19, 2023, ... */
  date: string;
  /** Null where the page could not be found again; `note` then says so. */
  url: string | null;
  /** The setup it measured on, as the source states it. */
  setup: string;
  note?: string;
}

/** One part of a study's experiment: a sweep plan, as `npm run sweep` flags, full and quick. */
export interface StudyPart {
  /** Short id, unique in the study: `paging`, `inserts`. */
  id: string;
  title: string;
  /** Sweep flags without --browsers, --out, --study: e.g. ['--suites', 'paginate', ...]. */
  full: string[];
  /** The reduced plan of `--quick`: the same cases, smaller and fewer. */
  quick: string[];
}

/** A figure as published: a number, its unit, and where in the source it stands. */
export interface PublishedFigure {
  value: number;
  unit: 'ms' | '×';
  /** The table, figure or sentence it comes from, e.g. "table 'Persisted views', Chrome IDB". */
  where: string;
  /** The browser or setup the source measured it in (e.g. 'Chrome 34, IndexedDB'). */
  measuredIn: string;
}

/** A row of today's results, found by its case and size (any store and browser). */
export interface RowRef {
  suite: string;
  case: string;
  /**
   * Which size of the part's rows: an exact one, the largest the results have for the case, or
   * the one just below it (the quick plans run smaller sizes than the full ones).
   */
  size: number | 'largest' | 'next-largest';
  /**
   * Only this store; absent: every store that ran the case. A finding whose two rows name two
   * stores compares those (two versions of a store) on its case, once per browser.
   */
  adapter?: string;
}

/**
 * A claim to check, per browser and store: the ratio median(slower) / median(faster) of two rows.
 * - `faster`: the study says `faster` takes less time than `slower` (ratio > 1).
 * - `about`: the study's ratio is `value`; today's agrees when it lies within ÷/× `tolerance`.
 */
export type Claim = { kind: 'faster' } | { kind: 'about'; value: number; tolerance: number };

export interface Finding {
  id: string;
  /** The claim in words, as the study put it. */
  says: string;
  /** The part whose rows it reads. */
  part: string;
  /** The ratio is median(slower) / median(faster): above 1 when the claim holds. */
  slower: RowRef;
  faster: RowRef;
  claim: Claim;
  /** Published figures behind it, if the source gives numbers. */
  published: PublishedFigure[];
  /**
   * Why it cannot be measured here, if it cannot (no WebSQL in any current engine, a version
   * no longer in the registry, ...): the report says so instead of giving a verdict.
   */
  notMeasurable?: string;
}

/** Published figures shown beside today's rows without a verdict (absolute times on other hardware). */
export interface Reference {
  id: string;
  says: string;
  part: string;
  row: RowRef;
  published: PublishedFigure[];
}

export interface Study {
  id: string;
  title: string;
  source: Source;
  /** What the study measured, in one paragraph. */
  summary: string;
  parts: StudyPart[];
  findings: Finding[];
  references: Reference[];
  /** A part whose rows' every sample the report describes as a distribution (the insertion profile's histogram). */
  distribution?: { part: string; says: string };
  /** A part of growth rows whose batches the report compares, the first ones against the last ones. */
  growth?: { part: string; says: string; batches: number };
  /**
   * The pairs of versions the report's version table compares, by adapter id (`pouchdb-idb@2.0.2`
   * against `pouchdb-idb@2.2.0`); absent: each `store@VERSION` that ran against the store.
   */
  versions?: { older: string; newer: string }[];
}

/**
 * A finding's verdict in one browser and store:
 * - `reproduced`: the ratio's 95% interval lies wholly on the claim's side (or within its band);
 * - `reversed`: wholly on the other side of 1 (a `faster` claim);
 * - `differs`: wholly outside the band (an `about` claim);
 * - `inconclusive`: the interval reaches both ways, or a row has too few samples for one;
 * - `not measurable`: the experiment cannot run here, with the reason.
 */
export type Verdict = 'reproduced' | 'reversed' | 'differs' | 'inconclusive' | 'not measurable';

export const VERDICTS: readonly Verdict[] = ['reproduced', 'reversed', 'differs', 'inconclusive', 'not measurable'];

/** The verdict of a claim from the 95% interval [lo, hi] of today's ratio; null: no interval. */
export function verdictOf(claim: Claim, interval: { lo: number; hi: number } | null): Exclude<Verdict, 'not measurable'> {
  if (interval === null) return 'inconclusive';
  if (claim.kind === 'faster') {
    if (interval.lo > 1) return 'reproduced';
    if (interval.hi < 1) return 'reversed';
    return 'inconclusive';
  }
  const low = claim.value / claim.tolerance;
  const high = claim.value * claim.tolerance;
  if (interval.lo >= low && interval.hi <= high) return 'reproduced';
  if (interval.hi < low || interval.lo > high) return 'differs';
  return 'inconclusive';
}
