/**
 * What the results table says of each ok row against the fastest store of its case and size, and
 * the geometric means above the table: text, titles and numbers, no DOM. The numbers are
 * core/verdicts/fastest.ts's, which the sweep's closing table shows too.
 */
import type { CaseResult } from '../../core/results/results.ts';
import { INDEXEDDB_FLOOR } from '../../core/verdicts/default-findings.ts';
import {
  factorToFastest,
  factorWhy,
  fastestByGroup,
  formatFactor,
  formatMeans,
  geometricMeans,
} from '../../core/verdicts/fastest.ts';

type OkRow = Extract<CaseResult, { status: 'ok' }>;

/** One factor cell: its text, its title, the number a sort compares, and its colour's band. */
export interface FactorCell {
  text: string;
  title: string;
  /** Absent where the factor has no finite number. */
  value?: number;
  band: string;
}

/** How far from the fastest a factor is, for its cell's colour. */
function band(f: number): string {
  if (!Number.isFinite(f)) return '';
  return f <= 1.1 ? 'best' : f <= 2 ? 'near' : f <= 10 ? 'far' : 'farthest';
}

/**
 * The factor cell of each ok row of one group (one case at one size), by store, at the plan's
 * `looks` (plan.plannedLooksOf).
 */
export function groupFactorCells(
  group: readonly OkRow[],
  looks: readonly number[] | null,
): Map<string, FactorCell> {
  const cells = new Map<string, FactorCell>();
  const fastest = fastestByGroup(group).values().next().value;
  for (const row of group) {
    if (!fastest) {
      cells.set(row.adapter, { text: '—', title: 'no store of this case took more than 0 ms', band: '' });
      continue;
    }
    const factor = factorToFastest(row, fastest, looks);
    cells.set(row.adapter, {
      text: formatFactor(factor),
      title: factorWhy(factor),
      ...(Number.isFinite(factor.value) ? { value: factor.value } : {}),
      band: band(factor.value),
    });
  }
  return cells;
}

/**
 * The lines above the table: each store's geometric mean of its factor to the fastest (with two
 * stores or more), and over the IndexedDB floor where it ran. `medians` holds each group's ok
 * medians by store.
 */
export function meanLines(medians: ReadonlyMap<string, ReadonlyMap<string, number>>): string[] {
  const means = geometricMeans(medians);
  const overFloor = geometricMeans(medians, INDEXEDDB_FLOOR);
  return [
    ...(means.length > 1
      ? [
          `Geometric mean of each store’s factor to the fastest, over the cases it ran: ${formatMeans(means)}.`,
        ]
      : []),
    ...(overFloor.length > 0
      ? [
          ` Over the IndexedDB floor (${INDEXEDDB_FLOOR}, plain requests), in the cases both ran: ${formatMeans(overFloor)}.`,
        ]
      : []),
  ];
}
