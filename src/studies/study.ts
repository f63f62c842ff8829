/**
 * What a study is: the published experiment storebench reruns (its parts are sweep plans), the
 * figures it published (data, each with its source and unit), and the findings a report checks
 * against today's rows, each with a verdict that comes from a 95% interval.
 *
 * Pure data; what a finding is and how its verdict is reached is core/verdicts/findings.ts, the rule the
 * default plan's findings follow too, and src/studies/report.ts applies it to a study's results.
 */
import type { Finding, RowRef } from '../core/verdicts/findings.ts';

/** Where a published figure or claim comes from. */
export interface Source {
  /** Title and author as published. */
  title: string;
  author: string;
  /** As precise as the source gives it: a day, a month or a year. */
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

/**
 * A study's finding: the one kind of finding (core/verdicts/findings.ts), read from one part's rows, with
 * the figures the study published behind it.
 */
export interface StudyFinding extends Finding {
  /** The part whose rows it reads. */
  part: string;
  /** Published figures behind it, if the source gives numbers. */
  published: PublishedFigure[];
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
  findings: StudyFinding[];
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
