import type { Doc, FieldCondition, FindQuery, Scalar } from './adapter.ts';

/**
 * FindQuery evaluated in JavaScript: the one place the meaning of a query is defined. Stores
 * with no query engine of their own (memory, localForage, localStorage) answer with it, stores
 * with an index use it for the conditions the index does not serve, and the suites use it to
 * compute the answer they verify against. So every store answers a query the same way.
 */

/** Compare like IndexedDB and CouchDB collation for the scalars the fixtures use: numbers before strings. */
export function compareScalars(a: Scalar, b: Scalar): number {
  const rank = (v: Scalar) => (typeof v === 'boolean' ? 0 : typeof v === 'number' ? 1 : 2);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  return a < b ? -1 : a > b ? 1 : 0;
}

function isScalar(v: unknown): v is Scalar {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

function matchesCondition(doc: Doc, c: FieldCondition): boolean {
  const v = doc[c.field];
  if (!isScalar(v)) return false; // a missing field matches nothing, as in Mango
  if (c.eq !== undefined && compareScalars(v, c.eq) !== 0) return false;
  if (c.ne !== undefined && compareScalars(v, c.ne) === 0) return false;
  if (c.gt !== undefined && !(compareScalars(v, c.gt) > 0)) return false;
  if (c.gte !== undefined && !(compareScalars(v, c.gte) >= 0)) return false;
  if (c.lt !== undefined && !(compareScalars(v, c.lt) < 0)) return false;
  if (c.lte !== undefined && !(compareScalars(v, c.lte) <= 0)) return false;
  return true;
}

function matches(doc: Doc, where: readonly FieldCondition[]): boolean {
  return where.every((c) => matchesCondition(doc, c));
}

/** A top-level field named by an identifier: what a key path (IndexedDB) or an unquoted JSON path (SQLite) can index. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export const isIndexableField = (field: string): boolean => IDENTIFIER.test(field);

/** Only the named fields, plus `_id`. */
export function project(doc: Doc, fields: readonly string[] | undefined): Doc {
  if (!fields) return doc;
  const out: Doc = { _id: doc._id };
  for (const f of fields) if (f in doc) out[f] = doc[f];
  return out;
}

/** Filter, order by `_id`, skip, limit and project: the whole FindQuery over candidate documents. */
export function applyFind(candidates: Iterable<Doc>, query: FindQuery): Doc[] {
  const hits: Doc[] = [];
  for (const doc of candidates) if (matches(doc, query.where)) hits.push(doc);
  hits.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  const skip = query.skip ?? 0;
  const page = hits.slice(skip, query.limit === undefined ? undefined : skip + query.limit);
  return page.map((d) => project(d, query.fields));
}

export function countMatches(candidates: Iterable<Doc>, query: FindQuery): number {
  let n = 0;
  for (const doc of candidates) if (matches(doc, query.where)) n++;
  return n;
}
