/**
 * Comparing and showing what a store answered: equality as strict as the contract test's
 * (a property set to undefined is not a missing one; the order of an array counts), and a value
 * in a few words for a line of `storebench check`.
 */

/** Strict structural equality of JSON-like values (objects, arrays, primitives, undefined). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => i in b === i in a && sameValue(x, b[i]));
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.prototype.hasOwnProperty.call(b, k) &&
        sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

const MAX_TEXT = 120;

/** A list of documents by its ids, the first and last few. */
function documents(list: readonly { _id: string }[]): string {
  const ids = list.map((d) => d._id);
  const shown = ids.length <= 2 ? ids.join(', ') : `${ids[0]} … ${ids.at(-1)}`;
  return `${list.length} document${list.length === 1 ? '' : 's'} [${shown}]`;
}

const isDoc = (v: unknown): v is { _id: string } =>
  typeof v === 'object' && v !== null && typeof (v as { _id?: unknown })._id === 'string';

/** A value in a few words: a list of documents by count and ids, anything else as short JSON. */
export function showValue(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v) && v.length > 0 && v.every(isDoc)) return documents(v);
  let text: string;
  try {
    text = JSON.stringify(v, (_k, x: unknown) => (x === undefined ? '(undefined)' : x)) ?? typeof v;
  } catch {
    text = `a ${typeof v} JSON cannot hold`;
  }
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

/**
 * Two different values in words that tell them apart: when both lists of documents have the same
 * ids, the first document that differs, shown whole.
 */
export function showDifference(expected: unknown, actual: unknown): [string, string] {
  if (Array.isArray(expected) && Array.isArray(actual) && expected.length === actual.length) {
    const i = expected.findIndex((e, j) => !sameValue(e, actual[j]));
    const [e, a] = [showValue(expected), showValue(actual)];
    if (i >= 0 && e === a)
      return [`[${i}] ${showValue(expected[i])}`, `[${i}] ${showValue(actual[i])}`];
    return [e, a];
  }
  const [e, a] = [showValue(expected), showValue(actual)];
  if (e === a && isDoc(expected) && isDoc(actual))
    return [JSON.stringify(expected), JSON.stringify(actual)];
  return [e, a];
}
