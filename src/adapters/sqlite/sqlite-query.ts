import type { FieldCondition, Scalar } from '../../core/store/adapter.ts';
import { isIndexableField } from '../../core/store/query.ts';

/**
 * FindQuery conditions as an SQLite WHERE clause over documents stored as JSON text in a column
 * `json`, with the same answers as matchesCondition in src/core/store/query.ts. Values are always
 * bound parameters; only field names, checked to be identifiers, go into the SQL text.
 *
 * How the two orders line up. compareScalars ranks booleans < numbers < strings. SQLite's
 * json_extract() returns a JSON number as INTEGER or REAL, a string as TEXT, true and false as
 * the integers 1 and 0, arrays and objects as their JSON TEXT, and NULL for null or a missing
 * field; SQLite orders NULL < numbers < TEXT (https://sqlite.org/datatype3.html#sort_order).
 * So a comparison on json_extract() agrees with compareScalars once json_type() has ruled out
 * what a FieldCondition never matches (missing, null, arrays, objects) and, where it matters,
 * the booleans that pose as 0 and 1. Each condition keeps the bare `json_extract(...) op ?`
 * term, so an index on that expression (createIndex) can serve it.
 *
 * One difference remains: SQLite compares TEXT by memcmp over UTF-8, which is code point order,
 * while JS compares UTF-16 code units. They differ only between U+E000..U+FFFF and characters
 * beyond U+FFFF, which the fixtures never contain (the WebSQL adapter has the same caveat).
 */

/** `json_extract(json, '$."age"')`: one spelling everywhere, so the planner matches it to the index. */
export const extractSql = (field: string) => `json_extract(json, '$."${field}"')`;
const typeSql = (field: string) => `json_type(json, '$."${field}"')`;

const SCALAR_TYPES = ['true', 'false', 'integer', 'real', 'text'];
const NUMBER_TYPES = ['integer', 'real'];
const BOOLEAN_TYPES = ['true', 'false'];

type Op = 'eq' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte';
const OPS: readonly Op[] = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'];
const SQL_OP: Record<Op, string> = { eq: '=', ne: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };
const HOLDS: Record<Op, (c: number) => boolean> = {
  eq: (c) => c === 0,
  ne: (c) => c !== 0,
  gt: (c) => c > 0,
  gte: (c) => c >= 0,
  lt: (c) => c < 0,
  lte: (c) => c <= 0,
};

export interface SqlFilter {
  /** Conditions joined by AND; `1` when there are none. */
  sql: string;
  params: (string | number)[];
  /** False when some condition could not be said in SQL; the caller must still filter in JS. */
  complete: boolean;
}

const typeIn = (t: string, types: readonly string[]) =>
  types.length === 0 ? '0' : `${t} IN (${types.map((x) => `'${x}'`).join(', ')})`;

/** One operator of one condition, or undefined when SQL cannot say it exactly. */
function term(
  field: string,
  op: Op,
  value: Scalar,
  params: (string | number)[],
): string | undefined {
  const x = extractSql(field);
  const t = typeSql(field);
  if (typeof value === 'boolean') {
    // Only the type decides: false < true < every number < every string.
    const rank = (type: string) => (type === 'false' ? 0 : type === 'true' ? 1 : 2);
    const v = value ? 1 : 0;
    return typeIn(
      t,
      SCALAR_TYPES.filter((type) => HOLDS[op](Math.sign(rank(type) - v))),
    );
  }
  if (typeof value === 'number' && Number.isNaN(value)) return undefined; // compareScalars makes NaN "equal" to every number
  // oo1 binds a whole JS number as a 64-bit integer, which wraps beyond 2^63 (1e20 arrives as
  // 7766279631452241920); such a number goes in as text and SQL turns it back into a double.
  // The `+ 0` drops the REAL affinity CAST gives, which would turn TEXT like '42' into a number
  // before comparing (https://sqlite.org/datatype3.html#affinity_of_expressions).
  const huge = typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value);
  params.push(huge ? String(value) : value);
  const cmp = `${x} ${SQL_OP[op]} ${huge ? '(CAST(? AS REAL) + 0)' : '?'}`;
  const own = typeof value === 'number' ? NUMBER_TYPES : ['text'];
  switch (op) {
    case 'eq':
      return `(${cmp} AND ${typeIn(t, own)})`;
    case 'ne':
      return `(${typeIn(t, SCALAR_TYPES)} AND NOT (${cmp} AND ${typeIn(t, own)}))`;
    case 'gt':
    case 'gte':
      // Above a number: greater numbers and every string (TEXT sorts after numbers in SQLite too).
      // Above a string: greater strings only.
      return `(${cmp} AND ${typeIn(t, typeof value === 'number' ? [...NUMBER_TYPES, 'text'] : ['text'])})`;
    case 'lt':
    case 'lte':
      // Below a string: every boolean and number (0, 1 and numbers sort before TEXT) and lesser strings.
      if (typeof value === 'string') return `(${cmp} AND ${typeIn(t, SCALAR_TYPES)})`;
      // Below a number: lesser numbers and every boolean, whatever 0 or 1 says.
      return `((${cmp} AND ${typeIn(t, NUMBER_TYPES)}) OR ${typeIn(t, BOOLEAN_TYPES)})`;
  }
}

/** All conditions as one WHERE clause, with as many of them as SQL can say exactly. */
export function sqlWhere(where: readonly FieldCondition[]): SqlFilter {
  const terms: string[] = [];
  const params: (string | number)[] = [];
  let complete = true;
  for (const c of where) {
    if (!isIndexableField(c.field)) {
      complete = false;
      continue;
    }
    const ops = OPS.filter((op) => c[op] !== undefined);
    // A condition with no operator still requires a scalar there, as matchesCondition does.
    if (ops.length === 0) terms.push(typeIn(typeSql(c.field), SCALAR_TYPES));
    for (const op of ops) {
      const own: (string | number)[] = [];
      const sql = term(c.field, op, c[op] as Scalar, own);
      if (sql === undefined) complete = false;
      else {
        terms.push(sql);
        params.push(...own);
      }
    }
  }
  return { sql: terms.length > 0 ? terms.join(' AND ') : '1', params, complete };
}

/**
 * The ORDER BY term for `_id` order. Where an index could serve a condition (its first field is
 * `leading`), let it: `+id` keeps SQLite from walking the primary key to save the sort, which it
 * otherwise prefers for any range, not knowing how narrow the range is (that takes STAT4,
 * https://sqlite.org/fileformat2.html#stat4tab). The matches are then sorted, as every
 * IndexedDB store sorts what its index range returned.
 */
export function orderById(where: readonly FieldCondition[], leading: ReadonlySet<string>): string {
  return where.some((c) => leading.has(c.field)) ? '+id' : 'id';
}
