/**
 * Lookups by a name that came from a file or a flag. A store, suite, case or browser may be named
 * `constructor` or `__proto__`, and `table[name]` on a plain object then finds Object.prototype's
 * member instead of nothing: a function where a number was meant, and a +50% slowdown read as
 * "±NaN% same". Tables keyed by such names are Maps, or are read through `own`.
 */

/** The table's own value under `key`, never one it inherits. */
export function own<T>(table: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return table !== undefined && Object.hasOwn(table, key) ? table[key] : undefined;
}
