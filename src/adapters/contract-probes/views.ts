/**
 * The adapter contract's map/reduce views, for a store that declares `mapReduce`: persisted and
 * temporary views queried by key, range and limit, stale and fresh, each answer against the rows
 * computed from the documents themselves.
 */
import type {
  Doc,
  Scalar,
  StoreAdapter,
  StoreHandle,
  ViewQuery,
  ViewRow,
} from '../../core/store/adapter.ts';
import type { ViewCheck } from '../../core/store/contract/report.ts';
import { compareScalars } from '../../core/store/query.ts';
import { ODD, type QueryData } from './query-data.ts';
import { uniqueName } from './transcript.ts';

/** The rows a view over `field` gives for `q`, in key then id order. */
function rowsOf(from: readonly Doc[], field: string, q: ViewQuery): ViewRow[] {
  const within = (k: Scalar) =>
    (q.key === undefined || compareScalars(k, q.key) === 0) &&
    (q.startkey === undefined || compareScalars(k, q.startkey) >= 0) &&
    (q.endkey === undefined || compareScalars(k, q.endkey) <= 0);
  const rows = from.flatMap((d) =>
    d[field] !== undefined && within(d[field] as Scalar)
      ? [{ key: d[field] as Scalar, id: d._id }]
      : [],
  );
  rows.sort((a, b) => compareScalars(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows.slice(0, q.limit);
}

function viewQueries(age: number, last: string): [string, ViewQuery][] {
  return [
    ['age', {}],
    ['age', { key: age }],
    ['age', { startkey: 30, endkey: 40 }],
    ['age', { startkey: 85 }],
    ['age', { endkey: 20 }],
    ['age', { limit: 5 }],
    ['age', { startkey: 30, limit: 4 }],
    ['age', { key: true }],
    ['age', { startkey: 40, endkey: 30 }],
    ['age', { key: age, startkey: age + 1 }],
    ['age', { limit: 0 }],
    ['lastName', { key: last }],
    ['lastName', { startkey: 'B', endkey: 'M' }],
    ['lastName', { startkey: 'T', limit: 3 }],
  ];
}

export async function viewChecks(adapter: StoreAdapter, d: QueryData): Promise<ViewCheck[]> {
  // View keys are scalars (ViewRow), so this store's documents hold only scalars there.
  const scalarOdd = ['odd-boolean', 'odd-string', 'odd-fraction', 'odd-missing', 'Odd-first'];
  const viewDocs = [...d.people, ...ODD.filter((doc) => scalarOdd.includes(doc._id))];
  const views: ViewCheck[] = [];
  const check = (name: string, actual: unknown, expected: unknown) =>
    views.push({ name, actual, expected });
  const h = await adapter.open(uniqueName(adapter.id, 'views'));
  await (h.bulkPut ? h.bulkPut(viewDocs) : Promise.all(viewDocs.map((doc) => h.put(doc))));
  await h.createView!('by_age', 'age');
  await h.createView!('by_lastName', 'lastName');
  check(
    'stale query of a view never built: the index as it is, empty',
    await h.queryView!('by_age', { stale: true }),
    [],
  );
  for (const [field, q] of viewQueries(d.age, d.last)) {
    const want = rowsOf(viewDocs, field, q);
    const shown = `${field} ${JSON.stringify(q)}`;
    check(`queryView ${shown}`, await h.queryView!(`by_${field}`, q), want);
    check(
      `queryView ${shown}, stale`,
      await h.queryView!(`by_${field}`, { ...q, stale: true }),
      want,
    );
    check(`queryTemp ${shown}`, await h.queryTemp!(field, q), want);
  }
  await afterWrite(h, viewDocs, d.age, check);
  await h.destroy();
  return views;
}

/** Design documents stay out of the data, and a stale query answers from the index as it was. */
async function afterWrite(
  h: StoreHandle,
  viewDocs: readonly Doc[],
  age: number,
  check: (name: string, actual: unknown, expected: unknown) => void,
): Promise<void> {
  check('count() with two views', await h.count(), viewDocs.length);
  check('get of a design document id', await h.get('_design/by_age'), undefined);
  if (h.range)
    check(
      'range ids with two views',
      (await h.range({})).map((doc) => doc._id),
      viewDocs.map((doc) => doc._id).sort(),
    );
  // A stale query answers from the index as it was; the next fresh one brings it up to date.
  const before = rowsOf(viewDocs, 'age', { key: age });
  await h.put({ _id: 'view-late', age });
  const after = rowsOf([...viewDocs, { _id: 'view-late', age }], 'age', { key: age });
  check(
    'stale query after a write',
    await h.queryView!('by_age', { key: age, stale: true }),
    before,
  );
  check('fresh query after a write', await h.queryView!('by_age', { key: age }), after);
  check('temporary view after a write', await h.queryTemp!('age', { key: age }), after);
  check('count() after a write', await h.count(), viewDocs.length + 1);
}
