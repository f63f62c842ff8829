/**
 * The adapter contract's side in the page (adapters-contract.spec.ts): everything that runs there
 * for one store, as a module the Vite dev server serves and the page imports by URL, so each
 * phase is a function of its own. `exercise` runs them all and reports what the spec checks.
 */
import type {
  Doc,
  Durability,
  FindQuery,
  KeyRange,
  Scalar,
  StoreAdapter,
  StoreHandle,
  ViewQuery,
  ViewRow,
} from '../../src/core/adapter.ts';
import type { Capability } from '../../src/core/capabilities.ts';
import { adapterById } from '../../src/adapters/registry.ts';
import { memoryDatabaseNames } from '../../src/adapters/memory.ts';
import { applyFind, compareScalars, countMatches } from '../../src/core/query.ts';
import { fixtureShape, makeDocs } from '../../fixtures/index.ts';

/** Where the page finds the registry, for the Worker that imports it by URL. */
const REGISTRY_MODULE = '/src/adapters/registry.ts';

export interface Footprint {
  idb: string[];
  localStorage: string[];
  memory: string[];
}

type Step = [name: string, value: unknown];

/** A view answer next to the rows computed from the documents: [what was asked, actual, expected]. */
type ViewCheck = [name: string, actual: unknown, expected: unknown];

interface QueryReport {
  /** The memory store's transcript and the adapter's, step for step. */
  reference: Step[];
  steps: Step[];
  /** applyFind and countMatches over the documents, per query number. */
  expected: { find: Doc[][]; count: number[] };
  /** How many documents the query store holds, and its ids in order. */
  docCount: number;
  ids: string[];
  views?: ViewCheck[];
  /** Storage the query stores left behind (PouchDB's views live in databases of their own). */
  left: Footprint;
}

interface DeletedByName {
  footprint: Footprint;
  countWhenReopened: number;
}

type WorkerReport = { ok: boolean; count?: number; doc?: unknown; error?: string };

export type Report =
  | { supported: string; openWhenUnsupported: string }
  | {
      supported: true;
      /** As declared in the page: some depend on the engine (durability), so Node's copy may differ. */
      capabilities: Capability[];
      backend: StoreAdapter['backend'];
      methods: string[];
      reference: Step[];
      steps: Step[];
      before: Footprint;
      filled: Footprint;
      afterDestroy: Footprint;
      afterSecondDestroy: Footprint;
      byNameClosed: DeletedByName;
      byNameOpen: DeletedByName;
      durability?: Record<Durability, string[]>;
      worker?: WorkerReport;
      afterWorker: Footprint;
      queries?: QueryReport;
    };

/** A database name no other step of this page uses. */
type Unique = (tag: string) => string;

const settle = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    () => 'rejected',
  );

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms),
    ),
  ]);

/** Every database and key the page holds, per kind of storage. */
async function footprint(): Promise<Footprint> {
  return {
    idb: (await indexedDB.databases()).map((d) => d.name ?? '').sort(),
    localStorage: Object.keys(localStorage).sort(),
    memory: memoryDatabaseNames().sort(),
  };
}

/** Everything the contract checks of one store, run in the page. */
export async function exercise(id: string): Promise<Report> {
  const adapter = adapterById(id);
  const unique: Unique = (tag) =>
    `contract-${id}-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const supported = await adapter.supported();
  if (supported !== true) {
    // A store that says it cannot run here must not quietly open something else instead.
    return {
      supported,
      openWhenUnsupported: await settle(
        within(adapter.open(unique('unsupported')), 10_000, 'open'),
      ),
    };
  }
  const reference = await transcript(adapterById('memory'), adapter.capabilities, unique);
  const before = await footprint();
  let filled = before;
  let afterDestroy = before;
  const steps = await transcript(adapter, adapter.capabilities, unique, {
    filled: async () => {
      filled = await footprint();
    },
    destroyed: async () => {
      afterDestroy = await footprint();
    },
  });
  const afterSecondDestroy = await footprint();
  const methods = await methodsOf(adapter, unique);
  const byNameClosed = await deleteByName(adapter, unique, false);
  const byNameOpen = await deleteByName(adapter, unique, true);
  const queries = adapter.capabilities.includes('query')
    ? await queryReport(adapter, unique)
    : undefined;
  const durability = adapter.capabilities.includes('durability')
    ? await durabilityReport(adapter, unique)
    : undefined;
  const worker = adapter.capabilities.includes('worker')
    ? await workerReport(id, unique)
    : undefined;
  const afterWorker = await footprint();
  return {
    supported,
    capabilities: [...adapter.capabilities],
    backend: adapter.backend,
    methods,
    reference,
    steps,
    before,
    filled,
    afterDestroy,
    afterSecondDestroy,
    byNameClosed,
    byNameOpen,
    ...(durability && { durability }),
    ...(worker && { worker }),
    afterWorker,
    ...(queries && { queries }),
  };
}

/** The methods a handle of the store has. */
async function methodsOf(adapter: StoreAdapter, unique: Unique): Promise<string[]> {
  const probe = await adapter.open(unique('methods'));
  const methods = Object.entries(probe).flatMap(([k, v]) => (typeof v === 'function' ? [k] : []));
  await probe.destroy();
  return methods;
}

/** What a transcript's phases share: the handle (reopened as it goes), its documents, and the steps so far. */
interface Session {
  h: StoreHandle;
  has: (c: string) => boolean;
  note: (name: string, value: unknown) => void;
  docs: Doc[];
  ids: string[];
  at: (i: number) => string;
  doc: (i: number) => Doc;
}

/** The same operations on any store; `caps` decides which optional ones run. */
async function transcript(
  store: StoreAdapter,
  caps: readonly string[],
  unique: Unique,
  look?: { filled(): Promise<void>; destroyed(): Promise<void> },
): Promise<Step[]> {
  const steps: Step[] = [];
  const docs = makeDocs(fixtureShape('person'), 42, 50);
  const ids = docs.map((d) => d._id);
  const name = unique(store.id);
  const s: Session = {
    h: await store.open(name),
    has: (c) => caps.includes(c),
    note: (step, value) => {
      steps.push([step, value]);
    },
    docs,
    ids,
    at: (i) => ids[i] as string,
    doc: (i) => docs[i] as Doc,
  };
  await fillAndRead(s);
  if (s.has('keyRange'))
    for (const r of firstRanges(s.at)) s.note(`range ${JSON.stringify(r)}`, await s.h.range!(r));
  await updates(s);
  await removals(s);
  await closeReopenDestroy(s, store, name, look);
  return steps;
}

/** Empty reads, 50 puts (in bulk where the store can), and every way to read them back. */
async function fillAndRead({ h, has, note, docs, ids, at }: Session): Promise<void> {
  note('count, empty', await h.count());
  note('get, empty', await h.get(at(0)));
  for (const d of docs.slice(0, 10)) await h.put(d);
  note('count after 10 puts', await h.count());
  const rest = docs.slice(10);
  if (has('bulkWrite')) await h.bulkPut!(rest);
  else for (const d of rest) await h.put(d);
  note('count after 50', await h.count());
  note('get each', await Promise.all(ids.map((i) => h.get(i))));
  note('get missing', await h.get('doc-missing'));
  note(
    'inputs left as given',
    docs.every((d) => Object.keys(d).every((k) => !k.startsWith('_') || k === '_id')),
  );
  if (has('getMany')) {
    note('getMany', await h.getMany!([at(3), 'doc-missing', at(40), at(3), at(49)]));
    note('getMany, no ids', await h.getMany!([]));
  }
}

/** Key ranges over the 50 documents: bounds, direction, skip and limit, empty and reversed ones. */
function firstRanges(at: (i: number) => string): KeyRange[] {
  return [
    {},
    { gte: at(10), lte: at(20) },
    { gte: at(10), lte: at(20), descending: true },
    { gte: at(5), limit: 7 },
    { lte: at(30), skip: 3, limit: 4, descending: true },
    { gte: at(45), descending: true },
    { lte: at(2), descending: true },
    { skip: 45 },
    { skip: 60 },
    { skip: 48, limit: 10, descending: true },
    { limit: 0 },
    { gte: at(12), lte: at(12) },
    { gte: `${at(7)}5`, lte: `${at(12)}~` },
    { gte: 'a', lte: 'b' },
    { gte: at(20), lte: at(10) },
    { gte: at(20), lte: at(10), descending: true },
  ];
}

/** update and bulkUpdate, and that one with a missing id fails and changes nothing. */
async function updates({ h, has, note, at, doc }: Session): Promise<void> {
  if (has('update')) {
    await h.update!({ ...doc(5), age: 99, note: 'updated' });
    await h.update!({ _id: at(6), replaced: true });
    note('get after update', [await h.get(at(5)), await h.get(at(6))]);
    note('update of a missing id', await settle(h.update!({ _id: 'doc-missing', x: 1 })));
    note('get missing after failed update', await h.get('doc-missing'));
    note('count after update', await h.count());
  }
  if (has('bulkUpdate')) {
    await h.bulkUpdate!([
      { ...doc(11), age: 1 },
      { _id: at(12), tiny: 'x' },
    ]);
    note('get after bulkUpdate', [await h.get(at(11)), await h.get(at(12))]);
    note(
      'bulkUpdate with a missing id',
      await settle(
        h.bulkUpdate!([
          { ...doc(13), age: 2 },
          { _id: 'doc-missing', y: 1 },
        ]),
      ),
    );
    note('bulkUpdate with a missing id changed nothing', [
      await h.get(at(13)),
      await h.get('doc-missing'),
    ]);
  }
}

/** remove and bulkRemove, missing ids included, and ranges over what is left. */
async function removals({ h, has, note, at }: Session): Promise<void> {
  if (has('remove')) {
    await h.remove!(at(7));
    note('get removed', await h.get(at(7)));
    note('remove of a missing id', await settle(h.remove!('doc-missing')));
    note('count after remove', await h.count());
  }
  if (has('bulkRemove')) {
    await h.bulkRemove!([at(8), at(20), 'doc-missing', at(8)]);
    note('get bulk-removed', await Promise.all([at(8), at(20), at(21)].map((i) => h.get(i))));
    note('count after bulkRemove', await h.count());
    if (has('getMany')) note('getMany after removes', await h.getMany!([at(7), at(8), at(9)]));
  }
  if (has('keyRange')) {
    const after: KeyRange[] = [
      { gte: at(5), limit: 5 },
      { lte: at(22), descending: true, skip: 1, limit: 4 },
      { skip: 5, limit: 3 },
    ];
    for (const r of after) note(`range after changes ${JSON.stringify(r)}`, await h.range!(r));
  }
}

/** The data survives a close and a reopen, and is gone after destroy. */
async function closeReopenDestroy(
  s: Session,
  store: StoreAdapter,
  name: string,
  look?: { filled(): Promise<void>; destroyed(): Promise<void> },
): Promise<void> {
  const { has, note, ids, at } = s;
  const everything = async () =>
    has('keyRange') ? s.h.range!({}) : Promise.all(ids.map((i) => s.h.get(i)));
  note('count before close', await s.h.count());
  note('all documents before close', await everything());
  await s.h.close();
  note('get after close', await settle(s.h.get(at(0))));
  s.h = await store.open(name);
  note('count after reopen', await s.h.count());
  note('all documents after reopen', await everything());
  await look?.filled();
  await s.h.destroy();
  await look?.destroyed();
  s.h = await store.open(name);
  note('count after destroy and reopen', await s.h.count());
  note('get after destroy and reopen', await s.h.get(at(0)));
  await s.h.destroy();
}

/** Delete by name, as the runner does after a case hung or threw, with the handle closed or not. */
async function deleteByName(
  adapter: StoreAdapter,
  unique: Unique,
  keepOpen: boolean,
): Promise<DeletedByName> {
  const name = unique(keepOpen ? 'byname-open' : 'byname');
  const h = await adapter.open(name);
  await h.put({ _id: 'x', n: 1 });
  if (!keepOpen) await h.close();
  await within(adapter.destroy(name), 20_000, `destroy(${name})`);
  const fp = await footprint();
  if (keepOpen) await settle(h.close());
  const again = await adapter.open(name);
  const countWhenReopened = await again.count();
  await again.destroy();
  return { footprint: fp, countWhenReopened };
}

/**
 * Fixture people plus documents whose queried fields are missing or of other types; the
 * upper-case id sorts before PouchDB's `_design/` ids and the others after them.
 */
const ODD: readonly Doc[] = [
  { _id: 'Odd-first', age: 18, lastName: 'Aaberg', city: 'Cork' },
  { _id: 'odd-missing', firstName: 'Nobody' },
  { _id: 'odd-boolean', age: true, lastName: false },
  { _id: 'odd-null', age: null, lastName: null },
  { _id: 'odd-string', age: '42', lastName: 'Berg' },
  { _id: 'odd-array', age: [30, 40], lastName: ['Berg'] },
  { _id: 'odd-object', age: { years: 30 }, lastName: { name: 'Berg' } },
  { _id: 'odd-fraction', age: 30.5, lastName: 'Zz' },
  { _id: 'odd-no-last-name', age: 33 },
];

/** The query store's documents and the values its queries ask for. */
interface QueryData {
  people: Doc[];
  docs: Doc[];
  age: number;
  last: string;
}

function queryData(): QueryData {
  const people = makeDocs(fixtureShape('person'), 7, 120);
  return {
    people,
    docs: [...people, ...ODD],
    age: (people[3] as Doc).age as number,
    last: (people[5] as Doc).lastName as string,
  };
}

/** Queries on one field and on two, with projections, skip and limit, and ones that find nothing. */
function queryList({ people, age, last }: QueryData): FindQuery[] {
  return [
    { where: [{ field: 'age', eq: age }] },
    { where: [{ field: 'age', gt: 60 }] },
    { where: [{ field: 'age', gte: 30, lt: 40 }] },
    { where: [{ field: 'age', ne: age }] },
    { where: [{ field: 'age', lte: 25 }] },
    { where: [{ field: 'age', gt: 89 }] },
    { where: [{ field: 'age', gte: 45, lte: 45 }] },
    { where: [{ field: 'age', gt: 50, lt: 40 }] },
    { where: [{ field: 'age', gt: 200 }] },
    { where: [{ field: 'age', eq: true }] },
    {
      where: [
        { field: 'age', eq: age },
        { field: 'age', gt: age - 1 },
      ],
    },
    { where: [{ field: 'age', gt: 30 }], fields: ['age', 'city'] },
    { where: [{ field: 'age', gt: 30 }], skip: 5, limit: 7 },
    { where: [{ field: 'age', gte: 20 }], fields: ['lastName'], skip: 3, limit: 4 },
    { where: [{ field: 'age', gte: 30 }], skip: 1000 },
    { where: [{ field: 'age', gte: 30 }], limit: 0 },
    { where: [{ field: 'lastName', eq: last }] },
    { where: [{ field: 'lastName', gt: 'M' }] },
    { where: [{ field: 'lastName', gte: 'C', lt: 'H' }] },
    { where: [{ field: 'lastName', ne: last }] },
    { where: [{ field: 'lastName', lt: 'D' }] },
    {
      where: [{ field: 'lastName', gt: 'B' }],
      fields: ['lastName', 'age'],
      skip: 2,
      limit: 3,
    },
    {
      where: [
        { field: 'age', gte: 30 },
        { field: 'lastName', eq: last },
      ],
    },
    {
      where: [
        { field: 'age', gt: 40 },
        { field: 'lastName', lt: 'M' },
      ],
      fields: ['firstName'],
    },
    {
      where: [
        { field: 'lastName', gte: 'K' },
        { field: 'age', lt: 50 },
      ],
      skip: 1,
      limit: 5,
    },
    { where: [{ field: 'city', eq: (people[0] as Doc).city as string }] },
    { where: [], skip: 2, limit: 3 },
  ];
}

const QUERY_RANGES: readonly KeyRange[] = [
  {},
  { skip: 1, limit: 3 },
  { lte: 'doc-0000000003', descending: true, skip: 1, limit: 3 },
  { gte: 'O', lte: 'p' },
  { skip: 125 },
];

/** The query transcripts of the store and of the memory store, what the documents say, and its views. */
async function queryReport(adapter: StoreAdapter, unique: Unique): Promise<QueryReport> {
  const data = queryData();
  const list = queryList(data);
  const reference = await queryTranscript(adapterById('memory'), adapter, data, list, unique);
  const steps = await queryTranscript(adapter, adapter, data, list, unique);
  const expected = {
    find: list.map((q) => applyFind(data.docs, q)),
    count: list.map((q) => countMatches(data.docs, q)),
  };
  const views = adapter.capabilities.includes('mapReduce')
    ? await viewChecks(adapter, data, unique)
    : undefined;
  return {
    reference,
    steps,
    expected,
    docCount: data.docs.length,
    ids: data.docs.map((d) => d._id).sort(),
    ...(views && { views }),
    left: await footprint(),
  };
}

/**
 * The same query steps on any store: with no index; with a compound index alone; with
 * single-field ones too; after writes; after reopening. Each asks every query with find and
 * countWhere, then count, ranges and getMany, which indexes must leave as they were.
 */
async function queryTranscript(
  store: StoreAdapter,
  adapter: StoreAdapter,
  { docs, people, age, last }: QueryData,
  list: readonly FindQuery[],
  unique: Unique,
): Promise<Step[]> {
  const steps: Step[] = [];
  // What runs depends on the adapter under test, so the memory store runs the same steps.
  const has = (c: string) => adapter.capabilities.includes(c as never);
  const name = unique(`query-${store.id}`);
  let h = await store.open(name);
  if (has('bulkWrite')) await h.bulkPut!(docs);
  else for (const d of docs) await h.put(d);
  const ask = async (phase: string) => {
    for (const [i, q] of list.entries()) {
      steps.push([`${phase} | find | ${i} | ${JSON.stringify(q)}`, await h.find!(q)]);
      steps.push([`${phase} | count | ${i} | ${JSON.stringify(q)}`, await h.countWhere!(q)]);
    }
    steps.push([`${phase} | count()`, await h.count()]);
    if (has('keyRange'))
      for (const r of QUERY_RANGES)
        steps.push([
          `${phase} | range ${JSON.stringify(r)}`,
          (await h.range!(r)).map((d) => d._id),
        ]);
    if (has('getMany'))
      steps.push([`${phase} | getMany`, await h.getMany!(['odd-string', 'doc-0000000002'])]);
  };
  await ask('no index');
  if (has('secondaryIndex')) {
    // A compound index alone first: a query on age only must still find the document
    // that has no lastName. Reopened, so the handle knows the index only from the store.
    await h.createIndex!(['age', 'lastName']);
    await h.close();
    h = await store.open(name);
    await ask('a compound index on age, lastName');
    await h.createIndex!(['age']);
    await h.createIndex!(['lastName']);
    await h.createIndex!(['age']);
    await ask('and indexes on age and on lastName');
    // The data still changes under an index.
    await h.put({ _id: 'odd-late', age: age, lastName: last });
    if (has('update')) await h.update!({ ...(people[3] as Doc), age: age + 1 });
    if (has('remove')) await h.remove!((people[5] as Doc)._id);
    await ask('after changes');
    // What a new handle learns of the indexes when it opens.
    await h.close();
    h = await store.open(name);
    await ask('after reopening');
  }
  await h.destroy();
  return steps;
}

/** The rows a view of `field` gives for `q`, computed from the documents. */
function rowsOf(from: readonly Doc[], field: string, q: ViewQuery): ViewRow[] {
  const inRange = (k: Scalar) =>
    (q.key === undefined || compareScalars(k, q.key) === 0) &&
    (q.startkey === undefined || compareScalars(k, q.startkey) >= 0) &&
    (q.endkey === undefined || compareScalars(k, q.endkey) <= 0);
  const rows = from.flatMap((d) =>
    d[field] !== undefined && inRange(d[field] as Scalar)
      ? [{ key: d[field] as Scalar, id: d._id }]
      : [],
  );
  rows.sort((a, b) => compareScalars(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rows.slice(0, q.limit);
}

/** Persisted and temporary views against the rows the documents give, fresh and stale. */
async function viewChecks(
  adapter: StoreAdapter,
  { people, age, last }: QueryData,
  unique: Unique,
): Promise<ViewCheck[]> {
  // View keys are scalars (ViewRow), so this store's documents hold only scalars there.
  const viewDocs = [
    ...people,
    ...ODD.filter((d) =>
      ['odd-boolean', 'odd-string', 'odd-fraction', 'odd-missing', 'Odd-first'].includes(d._id),
    ),
  ];
  const viewQueries: [string, ViewQuery][] = [
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
  const views: ViewCheck[] = [];
  const h = await adapter.open(unique('views'));
  await (h.bulkPut ? h.bulkPut(viewDocs) : Promise.all(viewDocs.map((d) => h.put(d))));
  await h.createView!('by_age', 'age');
  await h.createView!('by_lastName', 'lastName');
  views.push([
    'stale query of a view never built: the index as it is, empty',
    await h.queryView!('by_age', { stale: true }),
    [],
  ]);
  for (const [field, q] of viewQueries) {
    const want = rowsOf(viewDocs, field, q);
    const asked = `${field} ${JSON.stringify(q)}`;
    views.push([`queryView ${asked}`, await h.queryView!(`by_${field}`, q), want]);
    views.push([
      `queryView ${asked}, stale`,
      await h.queryView!(`by_${field}`, { ...q, stale: true }),
      want,
    ]);
    views.push([`queryTemp ${asked}`, await h.queryTemp!(field, q), want]);
  }
  views.push(...(await viewsBesideDocuments(h, viewDocs)));
  views.push(...(await viewsAfterAWrite(h, viewDocs, age)));
  await h.destroy();
  return views;
}

/** Views are not documents: count, get and range leave the design documents out. */
async function viewsBesideDocuments(
  h: StoreHandle,
  viewDocs: readonly Doc[],
): Promise<ViewCheck[]> {
  const views: ViewCheck[] = [
    ['count() with two views', await h.count(), viewDocs.length],
    ['get of a design document id', await h.get('_design/by_age'), undefined],
  ];
  if (h.range)
    views.push([
      'range ids with two views',
      (await h.range({})).map((d) => d._id),
      viewDocs.map((d) => d._id).sort(),
    ]);
  return views;
}

/** A stale query answers from the index as it was; the next fresh one brings it up to date. */
async function viewsAfterAWrite(
  h: StoreHandle,
  viewDocs: readonly Doc[],
  age: number,
): Promise<ViewCheck[]> {
  const before = rowsOf(viewDocs, 'age', { key: age });
  await h.put({ _id: 'view-late', age });
  const after = rowsOf([...viewDocs, { _id: 'view-late', age }], 'age', { key: age });
  return [
    ['stale query after a write', await h.queryView!('by_age', { key: age, stale: true }), before],
    ['fresh query after a write', await h.queryView!('by_age', { key: age }), after],
    ['temporary view after a write', await h.queryTemp!('age', { key: age }), after],
    ['count() after a write', await h.count(), viewDocs.length + 1],
  ];
}

/** The durability of every readwrite transaction the engine created, per level the store was opened with. */
async function durabilityReport(
  adapter: StoreAdapter,
  unique: Unique,
): Promise<Record<Durability, string[]>> {
  const proto = IDBDatabase.prototype;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, which the patch calls with its own `this`
  const original = proto.transaction;
  let seen: string[] = [];
  proto.transaction = function (this: IDBDatabase, ...args: Parameters<typeof original>) {
    const tx = original.apply(this, args);
    if (tx.mode === 'readwrite') seen.push(tx.durability);
    return tx;
  } as typeof original;
  const durability: Record<Durability, string[]> = { relaxed: [], strict: [], default: [] };
  try {
    for (const level of ['relaxed', 'strict', 'default'] as const) {
      seen = [];
      const h = await adapter.open(unique(`durability-${level}`), { durability: level });
      await h.put({ _id: 'a', n: 1 });
      await h.bulkPut?.([{ _id: 'b', n: 2 }]);
      await h.update?.({ _id: 'a', n: 3 });
      await h.destroy();
      durability[level] = seen;
    }
  } finally {
    proto.transaction = original;
  }
  return durability;
}

/** The store opened, written and read in a dedicated Worker of its own. */
async function workerReport(id: string, unique: Unique): Promise<WorkerReport> {
  const source = `
    try {
      const { adapterById } = await import(${JSON.stringify(new URL(REGISTRY_MODULE, location.href).href)});
      const adapter = adapterById(${JSON.stringify(id)});
      const supported = await adapter.supported();
      if (supported !== true) throw new Error('not supported in a Worker: ' + supported);
      const h = await adapter.open(${JSON.stringify(unique('worker'))});
      await h.put({ _id: 'a', n: 1 });
      await h.put({ _id: 'b', n: 2 });
      const result = { ok: true, count: await h.count(), doc: await h.get('b') };
      await h.destroy();
      postMessage(result);
    } catch (e) {
      postMessage({ ok: false, error: String((e && e.stack) || e) });
    }`;
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const w = new Worker(url, { type: 'module' });
  try {
    return await within(
      new Promise<WorkerReport>((resolve, reject) => {
        w.onmessage = (e: MessageEvent<WorkerReport>) => resolve(e.data);
        w.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
      }),
      30_000,
      'worker',
    );
  } catch (e) {
    return { ok: false, error: String(e) };
  } finally {
    w.terminate();
    URL.revokeObjectURL(url);
  }
}
