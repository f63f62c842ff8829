/**
 * One side of a comparison as rows by key: the rows of several results files, a row run in more
 * than one pooling its samples and passes, with what decides whether two rows may be compared at
 * all (their parameters, their CPU throttling). Pure: documents in, pooled rows out.
 */
import type { CaseResult, ResultsFile } from '../schema/results-schema.ts';
import { medianWithCi, type MedianWithCi } from '../stats/stats.ts';

export interface Pooled {
  row: CaseResult;
  /** The row's own samples while it comes from one file; a copy once a second file's are added. */
  samples: readonly number[];
  /** Samples per pass, file after file: each file's passes (one, without a record) count as passes of the pooled row. */
  perPass: readonly number[];
  files: number;
  /** The CPU throttling rate the rows ran under (1: none); different rates are not compared. */
  throttle: number;
  /** One document held the row twice, with other parameters (a validated document holds no exact twin): not pooled, not compared. */
  twice: boolean;
  /** The median and its interval, from the pooled samples, taken once (summaryOf). */
  summary?: MedianWithCi;
}

/** A pooled row's key: JSON of [browser, suite, case, adapter, size], which compare.ts reads back. */
const keyOf = (browser: string, r: Pick<CaseResult, 'suite' | 'case' | 'adapter' | 'size'>) =>
  JSON.stringify([browser, r.suite, r.case, r.adapter, r.size]);

/**
 * The parameters two rows both record, where they differ; empty when the rows measured the same
 * thing. Only shared names count: older files record their suite's whole parameter set, newer
 * ones only what the case uses, and a name only one side has is one the other's case never read.
 */
export function paramsDiffer(
  a: Readonly<Record<string, unknown>>,
  b: Readonly<Record<string, unknown>>,
): string[] {
  return Object.keys(a).filter((k) => k in b && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

/** The rows of one side by key; a case run in several files pools its samples. */
export function pool(side: readonly ResultsFile[]): Map<string, Pooled> {
  const out = new Map<string, Pooled>();
  for (const file of side) {
    const inThisFile = new Set<string>();
    for (const row of file.cases) {
      const key = keyOf(file.run.browser, row);
      const seen = out.get(key);
      if (!seen)
        out.set(key, {
          row,
          samples: row.samples,
          perPass: samplesPerPassOf(row),
          files: 1,
          throttle: file.run.plan.cpuThrottle ?? 1,
          twice: false,
        });
      else if (inThisFile.has(key)) seen.twice = true;
      else addRun(seen, row);
      inThisFile.add(key);
    }
  }
  return out;
}

/** Another file's run of a pooled row: its samples and passes after the others', in a loop (a spread of a million samples overflows the stack). */
function addRun(seen: Pooled, row: CaseResult): void {
  seen.files++;
  // Pooling repeated runs counts their spread between runs as noise too: the honest choice.
  if (row.status === 'ok' && seen.row.status === 'ok') {
    seen.samples = appended(seen.samples, row.samples, seen.files === 2);
    seen.perPass = appended(seen.perPass, samplesPerPassOf(row), seen.files === 2);
  } else if (row.status !== 'ok') seen.row = row; // a failure anywhere is the row's status
}

/** `to` with `more` after it: `to` itself when it is already the pool's own copy. */
function appended(to: readonly number[], more: readonly number[], copy: boolean): number[] {
  const out = copy ? to.slice() : (to as number[]);
  for (const x of more) out.push(x);
  return out;
}

/** A row's samples per pass: its record, or one pass of all of them. */
const samplesPerPassOf = (row: CaseResult): number[] => row.samplesPerPass ?? [row.samples.length];

/** A pooled row's median and interval, taken once for its side and its ratio. */
export function summaryOf(p: Pooled): MedianWithCi {
  p.summary ??= medianWithCi(p.samples, p.perPass);
  return p.summary;
}
