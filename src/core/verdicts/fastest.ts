/**
 * Each row against the fastest store of its case and size: its factor, with its 95% interval
 * where it has one, and each store's geometric mean of those factors. One computation, which the
 * page's results table, its explorer and the sweep's closing table all show, with the same
 * rounding, so the page and the terminal give one answer for one row.
 *
 * The factor is a ratio of two rows as every comparison of two rows takes it (row-ratio.ts): paired
 * by pass where the two rows share passes, else the ratio of the two medians, with an interval from
 * each median's own, or none where a median has none.
 */
import type { CaseResult } from '../schema/results-schema.ts';
import { rowRatio } from './row-ratio.ts';

type OkRow = CaseResult & { status: 'ok' };

/** Rows of one case at one size, whose medians a factor compares: the key of their group. */
export function groupKey(r: Pick<CaseResult, 'suite' | 'case' | 'size'>): string {
  return `${r.suite}\u0000${r.case}\u0000${r.size}`;
}

/** One row of a group: its group's key and its store. */
export function rowKey(r: Pick<CaseResult, 'suite' | 'case' | 'size' | 'adapter'>): string {
  return `${groupKey(r)}\u0000${r.adapter}`;
}

/**
 * The fastest ok row of each group: the least median above 0. A 0 ms median (under the timer's
 * step) is no time to compare with; its own factor reads 0.
 */
export function fastestByGroup(rows: readonly CaseResult[]): Map<string, OkRow> {
  const best = new Map<string, OkRow>();
  for (const r of rows) {
    if (r.status !== 'ok' || !(r.stats.median > 0)) continue;
    const known = best.get(groupKey(r));
    if (!known || r.stats.median < known.stats.median) best.set(groupKey(r), r);
  }
  return best;
}

/** How a factor was reached. */
export type FactorMethod =
  /** The row is the fastest: ×1.00. */
  | 'fastest'
  /** Paired by pass: the geometric mean of each shared pass's ratio, Student's t over passes. */
  | 'paired'
  /** The ratio of the two medians, its interval from each median's own (Price and Bonett). */
  | 'unpaired'
  /** The ratio of the two medians alone: a median without an interval (too few samples). */
  | 'medians';

export interface Factor {
  /** The row's median over the fastest's: 1 for the fastest row itself. */
  value: number;
  /** Its 95% interval, or null where it has none. */
  interval: { lo: number; hi: number } | null;
  method: FactorMethod;
  /** Paired: the passes the interval is over. */
  passes?: number;
}

/** A row's factor to the fastest row of its group, at the plan's looks (plan.plannedLooksOf). */
export function factorToFastest(
  row: OkRow,
  fastest: OkRow,
  looks: readonly number[] | null,
): Factor {
  if (row === fastest) return { value: 1, interval: null, method: 'fastest' };
  const r = rowRatio(row, fastest, looks);
  if (r === null)
    return { value: row.stats.median / fastest.stats.median, interval: null, method: 'medians' };
  return {
    value: r.ratio,
    interval: { lo: r.lo, hi: r.hi },
    method: r.method,
    ...(r.passes !== undefined ? { passes: r.passes } : {}),
  };
}

/** A factor's number as a table shows it: `1.00`, `3.42`, `11.5`, `115`. */
function factorNumber(f: number): string {
  return f < 10 ? f.toFixed(2) : f < 100 ? f.toFixed(1) : f.toFixed(0);
}

/** A factor as the page and the terminal show it: `×1.00`, `×3.42 [3.10, 3.80]`, `×-` with no number. */
export function formatFactor(f: Factor): string {
  if (!Number.isFinite(f.value)) return '×-';
  const { interval } = f;
  return interval === null
    ? `×${factorNumber(f.value)}`
    : `×${factorNumber(f.value)} [${factorNumber(interval.lo)}, ${factorNumber(interval.hi)}]`;
}

/** What a factor is, in words, for a cell's title. */
export function factorWhy(f: Factor): string {
  switch (f.method) {
    case 'fastest':
      return 'the fastest store';
    case 'paired':
      return `paired by pass over ${f.passes ?? 0} passes: the geometric mean of each pass's ratio of medians, with its 95% interval (Student's t over passes)`;
    case 'unpaired':
      return "the ratio of the two medians, with its 95% interval from each median's own (Price and Bonett)";
    case 'medians':
      return 'the ratio of the two medians; no interval (too few samples)';
  }
}

/**
 * Each store's geometric mean of its factor to the fastest store, over the groups it has an ok
 * median in (js-framework-benchmark's summary): a ratio averages as a product, and one slow case
 * does not swamp the rest. Fastest store first. With `reference`, the factor is to that store
 * instead, over the groups it ran (the IndexedDB floor, `indexeddb-raw`), and it is left out.
 * `medians` holds each group's ok medians by store, keyed by groupKey.
 */
export function geometricMeans(
  medians: ReadonlyMap<string, ReadonlyMap<string, number>>,
  reference?: string,
): { adapter: string; factor: number; cases: number }[] {
  const logs = new Map<string, number[]>();
  for (const group of medians.values()) {
    const base = reference === undefined ? Math.min(...group.values()) : group.get(reference);
    if (base === undefined || !(base > 0)) continue;
    for (const [adapter, median] of group) {
      if (adapter === reference) continue;
      const list = logs.get(adapter) ?? [];
      list.push(Math.log(median / base));
      logs.set(adapter, list);
    }
  }
  return [...logs]
    .map(([adapter, l]) => ({
      adapter,
      factor: Math.exp(l.reduce((a, b) => a + b, 0) / l.length),
      cases: l.length,
    }))
    .sort((a, b) => a.factor - b.factor);
}

/** Geometric means as a line lists them: `memory ×1.00 (2), idb ×3.42 (2)`, rounded as a factor is. */
export function formatMeans(
  means: readonly { adapter: string; factor: number; cases: number }[],
): string {
  return means.map((m) => `${m.adapter} ×${factorNumber(m.factor)} (${m.cases})`).join(', ');
}
