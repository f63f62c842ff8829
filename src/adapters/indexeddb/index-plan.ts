import type { FieldCondition, Scalar } from '../../core/store/adapter.ts';
import { compareScalars } from '../../core/store/query.ts';

/**
 * Which IndexedDB index, and which key range of it, can answer a FindQuery without changing its
 * answer. For stores that query through IndexedDB indexes (idb, Dexie); the JS evaluator in
 * src/core/store/query.ts still checks every candidate, so a plan only has to keep every match in.
 */

/** An index over one field, or a compound index over several (first field first). */
export interface IndexInfo {
  name: string;
  fields: readonly string[];
}

/** A key range as IDBKeyRange.bound takes it. */
export interface KeyBounds {
  lower: IDBValidKey;
  upper: IDBValidKey;
  lowerOpen: boolean;
  upperOpen: boolean;
}

export interface IndexPlan {
  index: string;
  /** `undefined` when the range is empty: nothing can match. */
  bounds: KeyBounds | undefined;
  /** The range alone counts the matches: one condition, on the index's only field, said wholly by the range. */
  exact: boolean;
}

/** Numbers (but NaN) and strings; IndexedDB cannot index booleans, so they never bound a range. */
const isKey = (v: Scalar | undefined): v is string | number =>
  typeof v === 'string' || (typeof v === 'number' && !Number.isNaN(v));

interface Bound {
  value: string | number;
  open: boolean;
}

/** The narrower of two lower (`sign` 1) or upper (`sign` -1) bounds; for equal values the open one. */
function narrower(a: Bound | undefined, b: Bound, sign: 1 | -1): Bound {
  if (!a) return b;
  const c = compareScalars(b.value, a.value) * sign;
  return c > 0 || (c === 0 && b.open) ? b : a;
}

/**
 * The interval of values that the conditions on one field allow, as far as a key range can say
 * it, and whether it says all of it. There must be a lower bound (eq, gt or gte with a number or
 * string): every value at or above one is a number or a string, which IndexedDB indexes. Without
 * one, documents whose value is a boolean would match but are not in the index.
 */
function interval(
  conditions: readonly FieldCondition[],
): { lower: Bound; upper?: Bound; exact: boolean } | undefined {
  let lower: Bound | undefined;
  let upper: Bound | undefined;
  let exact = true;
  for (const c of conditions) {
    if (c.ne !== undefined) exact = false;
    for (const v of [c.eq, c.gt, c.gte, c.lt, c.lte])
      if (v !== undefined && !isKey(v)) exact = false;
    if (isKey(c.eq)) {
      lower = narrower(lower, { value: c.eq, open: false }, 1);
      upper = narrower(upper, { value: c.eq, open: false }, -1);
    }
    if (isKey(c.gt)) lower = narrower(lower, { value: c.gt, open: true }, 1);
    if (isKey(c.gte)) lower = narrower(lower, { value: c.gte, open: false }, 1);
    if (isKey(c.lt)) upper = narrower(upper, { value: c.lt, open: true }, -1);
    if (isKey(c.lte)) upper = narrower(upper, { value: c.lte, open: false }, -1);
  }
  return lower && { lower, ...(upper && { upper }), exact };
}

/**
 * The key range over an index for an interval of its first field. Keys of a compound index are
 * arrays: [v] sorts before every [v, ...], and [v, []] after every [v, x] whose x is not an
 * array. The default upper bound, an empty array, keeps out array values, which IndexedDB
 * indexes and a FieldCondition never matches. `undefined` when the range is empty.
 */
function keyBounds(
  compound: boolean,
  lower: Bound,
  upper: Bound | undefined,
  cmp: (a: IDBValidKey, b: IDBValidKey) => number,
): KeyBounds | undefined {
  const below = (v: string | number): IDBValidKey => (compound ? [v] : v);
  const above = (v: string | number): IDBValidKey => (compound ? [v, []] : v);
  const lo = lower.open ? above(lower.value) : below(lower.value);
  const hi: IDBValidKey = upper
    ? upper.open
      ? below(upper.value)
      : above(upper.value)
    : compound
      ? [[]]
      : [];
  const lowerOpen = lower.open;
  const upperOpen = upper ? upper.open : true;
  const c = cmp(lo, hi);
  if (c > 0 || (c === 0 && (lowerOpen || upperOpen))) return undefined;
  return { lower: lo, upper: hi, lowerOpen, upperOpen };
}

/**
 * Pick an index for the conditions. An index serves them when every field of the index has a
 * condition with a lower bound (see `interval`): a document lacking any of them, or holding a
 * boolean there, is missing from the index, and must not match. The range covers the index's
 * first field; the caller filters the candidates for the rest. An equality on the first field
 * is preferred. `cmp` is indexedDB.cmp.
 */
export function planIndex(
  indexes: readonly IndexInfo[],
  where: readonly FieldCondition[],
  cmp: (a: IDBValidKey, b: IDBValidKey) => number,
): IndexPlan | undefined {
  let best: IndexPlan | undefined;
  let bestIsEquality = false;
  for (const { name, fields } of indexes) {
    const intervals = fields.map((f) => interval(where.filter((c) => c.field === f)));
    const first = intervals[0];
    if (!first || intervals.some((i) => !i)) continue;
    const isEquality = where.some((c) => c.field === fields[0] && isKey(c.eq));
    if (best && (bestIsEquality || !isEquality)) continue;
    const bounds = keyBounds(fields.length > 1, first.lower, first.upper, cmp);
    best = { index: name, bounds, exact: first.exact && fields.length === 1 && where.length === 1 };
    bestIsEquality = isEquality;
  }
  return best;
}
