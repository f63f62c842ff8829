import type { KeyRange } from '../core/store/adapter.ts';

/**
 * Apply a KeyRange to keys already sorted ascending: bounds, direction, then skip and limit.
 * For stores with no native range (memory, localStorage, localForage's iterate) so they all
 * answer a range exactly as IndexedDB and PouchDB do.
 */
export function selectRange(sortedKeys: readonly string[], range: KeyRange): string[] {
  let keys = sortedKeys.filter(
    (k) =>
      (range.gte === undefined || k >= range.gte) && (range.lte === undefined || k <= range.lte),
  );
  if (range.descending) keys = keys.slice().reverse();
  const skip = range.skip ?? 0;
  return keys.slice(skip, range.limit === undefined ? undefined : skip + range.limit);
}

/**
 * True when the range cannot match anything. IndexedDB's `IDBKeyRange.bound` throws a DataError
 * and PouchDB's allDocs rejects when lower > upper, and `getAll(range, 0)` means "no limit",
 * so stores with native ranges answer these before asking the store.
 */
export function isEmptyRange(range: KeyRange): boolean {
  return (
    range.limit === 0 ||
    (range.gte !== undefined && range.lte !== undefined && range.gte > range.lte)
  );
}
