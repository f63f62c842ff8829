import type { KeyRange } from '../core/adapter.ts';

/**
 * Apply a KeyRange to keys already sorted ascending: bounds, direction, then skip and limit.
 * For stores with no native range (memory, localStorage, localForage's iterate) so they all
 * answer a range exactly as IndexedDB and PouchDB do.
 */
export function selectRange(sortedKeys: readonly string[], range: KeyRange): string[] {
  let keys = sortedKeys.filter((k) => (range.gte === undefined || k >= range.gte) && (range.lte === undefined || k <= range.lte));
  if (range.descending) keys = keys.slice().reverse();
  const skip = range.skip ?? 0;
  return keys.slice(skip, range.limit === undefined ? undefined : skip + range.limit);
}
