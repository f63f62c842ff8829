/**
 * The adapter contract's queries, for a store that declares `query`: the same queries on the
 * store and on the memory store, with no index, with a compound index, with single-field ones,
 * after writes and after reopening; each answer against the memory store's and against applyFind
 * over the documents (src/core/store/query.ts).
 */
import type { Doc, FindQuery, StoreAdapter, StoreHandle } from '../../core/store/adapter.ts';
import type { QueryReport, Step } from '../../core/store/contract/report.ts';
import { applyFind, countMatches } from '../../core/store/query.ts';
import { memoryAdapter } from '../memory.ts';
import { uniqueName } from './transcript.ts';
import { viewChecks } from './views.ts';
import { queries, queryData, RANGES, type QueryData } from './query-data.ts';

/** Every query with find and countWhere, then count, ranges and getMany, which indexes must leave as they were. */
async function ask(
  h: StoreHandle,
  has: (c: string) => boolean,
  list: FindQuery[],
  phase: string,
  steps: Step[],
): Promise<void> {
  for (const [i, q] of list.entries()) {
    const name = `${i} | ${JSON.stringify(q)}`;
    steps.push({ contract: 'find', name: `${phase} | find | ${name}`, value: await h.find!(q) });
    steps.push({
      contract: 'countWhere',
      name: `${phase} | count | ${name}`,
      value: await h.countWhere!(q),
    });
  }
  steps.push({ contract: 'count', name: `${phase} | count()`, value: await h.count() });
  if (has('keyRange'))
    for (const r of RANGES)
      steps.push({
        contract: 'range',
        name: `${phase} | range ${JSON.stringify(r)}`,
        value: (await h.range!(r)).map((d) => d._id),
      });
  if (has('getMany'))
    steps.push({
      contract: 'getMany',
      name: `${phase} | getMany`,
      value: await h.getMany!(['odd-string', 'doc-0000000002']),
    });
}

/**
 * The same query steps on any store: with no index; with a compound index alone; with
 * single-field ones too; after writes; after reopening. What runs depends on the store under
 * test (`caps`), so the memory store runs the same steps.
 */
async function queryTranscript(
  store: StoreAdapter,
  caps: readonly string[],
  d: QueryData,
): Promise<Step[]> {
  const steps: Step[] = [];
  const has = (c: string) => caps.includes(c);
  const list = queries(d);
  const name = uniqueName(store.id, 'query');
  let h = await store.open(name);
  if (has('bulkWrite')) await h.bulkPut!(d.docs);
  else for (const doc of d.docs) await h.put(doc);
  await ask(h, has, list, 'no index', steps);
  if (has('secondaryIndex')) {
    // A compound index alone first: a query on age only must still find the document that has
    // no lastName. Reopened, so the handle knows the index only from the store.
    await h.createIndex!(['age', 'lastName']);
    await h.close();
    h = await store.open(name);
    await ask(h, has, list, 'a compound index on age, lastName', steps);
    await h.createIndex!(['age']);
    await h.createIndex!(['lastName']);
    await h.createIndex!(['age']);
    await ask(h, has, list, 'and indexes on age and on lastName', steps);
    // The data still changes under an index.
    await h.put({ _id: 'odd-late', age: d.age, lastName: d.last });
    if (has('update')) await h.update!({ ...(d.people[3] as Doc), age: d.age + 1 });
    if (has('remove')) await h.remove!((d.people[5] as Doc)._id);
    await ask(h, has, list, 'after changes', steps);
    // What a new handle learns of the indexes when it opens.
    await h.close();
    h = await store.open(name);
    await ask(h, has, list, 'after reopening', steps);
  }
  await h.destroy();
  return steps;
}

/** The query part of a report, without the storage left (the caller looks at that). */
export async function queryReport(adapter: StoreAdapter): Promise<Omit<QueryReport, 'left'>> {
  const d = queryData();
  const list = queries(d);
  const reference = await queryTranscript(memoryAdapter, adapter.capabilities, d);
  const steps = await queryTranscript(adapter, adapter.capabilities, d);
  const views = adapter.capabilities.includes('mapReduce')
    ? await viewChecks(adapter, d)
    : undefined;
  return {
    reference,
    steps,
    expected: {
      find: list.map((q) => applyFind(d.docs, q)),
      count: list.map((q) => countMatches(d.docs, q)),
    },
    docCount: d.docs.length,
    ids: d.docs.map((doc) => doc._id).sort(),
    ...(views && { views }),
  };
}
