/**
 * The runner's side of --ab (paired.ts has the statistics): A's and B's rows of a case sample as
 * one pair. They take their samples in adjacent slots, in balanced order (AB, then BA); they stop
 * and fail together, so no allocation step can leave one side sampling alone; and they run their
 * bodies the same number of times per sample, because a sample's length is part of what it measures.
 */
import { pairOf, pairPrecision } from '../../stats/paired.ts';
import type { Row } from '../row.ts';

/** Make a group's two rows a pair, A (the plan's first store) then B; a group of any other size has none. */
export function pairUp(rows: readonly Row[]): void {
  const [a, b] = rows;
  if (rows.length !== 2 || !a || !b) return;
  a.pair = { side: 'A', other: b };
  b.pair = { side: 'B', other: a };
}

/**
 * A round's order: a pair as the group's turn says (AB or BA, alternating from a seeded start, so
 * each store goes first as often as the other); any other rows as `shuffle` deals them.
 */
export function roundOrder(
  rows: readonly Row[],
  aFirst: boolean,
  shuffle: (rows: readonly Row[]) => Row[],
): Row[] {
  const [x, y] = rows;
  if (rows.length !== 2 || !x || !y || x.pair?.other !== y) return shuffle(rows);
  const [a, b] = x.pair.side === 'A' ? [x, y] : [y, x];
  return aFirst ? [a, b] : [b, a];
}

/** The rows with their pairs' other sides added: a pair never samples one side alone. */
export function withPartners(rows: readonly Row[]): Row[] {
  const out = new Set<Row>();
  for (const row of rows) {
    out.add(row);
    if (row.pair) out.add(row.pair.other);
  }
  return [...out];
}

/** The precision the allocator judges a paired row by: its pair's B/A over passes (paired.pairPrecision). */
export function pairedPrecision(row: Row): number | null {
  if (!row.pair) return row.precision;
  const [a, b] = row.pair.side === 'A' ? [row, row.pair.other] : [row.pair.other, row];
  return pairPrecision(pairOf(a, b));
}

/** Both sides of a pair run their bodies as often per sample as the side that needs more. */
export function equalRepeats(row: Row): void {
  if (!row.pair) return;
  const repeats = Math.max(row.repeats, row.pair.other.repeats);
  row.repeats = repeats;
  row.pair.other.repeats = repeats;
}
