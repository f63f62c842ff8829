/**
 * Shards: one plan split over several jobs (`--shard i/n`, `?shard=i/n`), e.g. a CI matrix.
 * Every shard of one plan sees the same groups (suite, case, size) in the same order, so each
 * one can pick its own share without talking to the others, and `npm run merge` puts the
 * shares back together.
 */

import { quoted } from '../base/shown.ts';

/** Shard `index` of `count`, 1-based as people write it: 1/4 … 4/4. */
export interface Shard {
  index: number;
  count: number;
}

/** Enough for a CI matrix; more shards than groups only makes empty shards. */
export const MAX_SHARDS = 1000;

export class ShardError extends Error {
  override readonly name = 'ShardError';
}

/** Parse `i/n`. Throws ShardError saying what is allowed. */
export function parseShard(text: string): Shard {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!m)
    throw new ShardError(
      `${quoted(text)} is not i/n; write e.g. 2/4 for the second of four shards`,
    );
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS)
    throw new ShardError(
      `${quoted(text)}: the shard count ${count} is out of range; allowed: 1 to ${MAX_SHARDS}`,
    );
  if (index < 1 || index > count)
    throw new ShardError(
      `${quoted(text)}: shard ${index} does not exist; allowed: 1 to ${count} (shards count from 1)`,
    );
  return { index, count };
}

export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * The items of one shard, in their original order. Items are dealt round-robin over a canonical
 * order: by size, smallest first, then as given. Dealing within each size, rather than over the
 * plan's suite → case → size order, keeps shards alike in cost: with sizes 100 and 1000 and two
 * shards, the plain order would give one shard every size-100 group and the other every
 * size-1000 group. Every item lands in exactly one shard, and a shard may be empty when there
 * are more shards than items.
 */
export function selectShard<T>(
  items: readonly T[],
  shard: Shard | undefined,
  sizeOf: (item: T) => number,
): T[] {
  if (!shard || shard.count === 1) return [...items];
  const canonical = items
    .map((item, i) => ({ i, size: sizeOf(item) }))
    .sort((a, b) => a.size - b.size || a.i - b.i);
  const mine = new Set<number>();
  canonical.forEach((entry, position) => {
    if (position % shard.count === shard.index - 1) mine.add(entry.i);
  });
  return items.filter((_, i) => mine.has(i));
}
