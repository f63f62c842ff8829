import type {
  Doc,
  FieldCondition,
  FindQuery,
  KeyRange,
  Scalar,
  StoreAdapter,
  StoreHandle,
  ViewQuery,
  ViewRow,
} from '../../core/store/adapter.ts';
import type { Capability } from '../../core/store/capabilities.ts';
import { withTimeout } from '../../core/base/errors.ts';
import { applyFind, compareScalars, countMatches } from '../../core/store/query.ts';
import type { VariantBuild, Wraps } from '../../core/plan/variant.ts';
import { isEmptyRange } from '../range.ts';

/**
 * The few PouchDB calls the adapters make, typed narrowly. @types/pouchdb-core types documents
 * through a `Content` generic that does not fit `Doc`'s index signature, and it does not type the
 * per-key error rows that allDocs({ keys }) returns.
 */
interface StoredDoc extends Doc {
  _rev: string;
}

interface AllDocsRow {
  key: string;
  id?: string;
  /** `not_found` for an id that was never written. */
  error?: string;
  value?: { rev: string; deleted?: boolean };
  /** null for a deleted document when `include_docs` is set. */
  doc?: StoredDoc | null;
}

interface AllDocsOptions {
  include_docs?: boolean;
  keys?: string[];
  startkey?: string;
  endkey?: string;
  descending?: boolean;
  skip?: number;
  limit?: number;
}

/** pouchdb-find's request, as far as the adapter uses it. */
interface FindRequest {
  selector: Record<string, Record<string, Scalar | null>>;
  fields?: string[];
  limit: number;
  /** [design doc, view] of the index to use. */
  use_index?: [string, string];
}

/** A pouchdb-find index: its design document and view, and its fields (as Mango names them) in order. */
interface MangoIndex {
  ddoc: string;
  name: string;
  fields: string[];
}

interface QueryOptions {
  key?: Scalar;
  startkey?: Scalar;
  endkey?: Scalar;
  limit?: number;
  stale?: 'ok';
  reduce: false;
}

/**
 * A temporary view's map. PouchDB calls a two-argument map as it is, with `emit` passed in
 * (@types/pouchdb-mapreduce marks it optional).
 */
type TempMap = (doc: Doc, emit?: (key: unknown) => void) => void;

/** A design document holding map functions, as CouchDB stores them: source text. */
interface DesignDoc extends Doc {
  views: Record<string, { map: string }>;
}

/** A design document as pouchdb-find writes one: `language: 'query'`, the fields in each view's options. */
interface StoredDesignDoc extends Doc {
  language?: string;
  views?: Record<string, { options?: { def?: { fields?: (string | Record<string, string>)[] } } }>;
}

/** One entry of bulkDocs' answer: PouchDB resolves even when some writes fail. */
interface WriteResult {
  id?: string;
  error?: boolean | string;
  message?: string;
}

interface PouchCore {
  put(doc: Doc): Promise<unknown>;
  get(id: string): Promise<StoredDoc>;
  bulkDocs(docs: Doc[]): Promise<WriteResult[]>;
  /** total_rows counts every live document, design documents included. */
  allDocs(options: AllDocsOptions): Promise<{ rows: AllDocsRow[]; total_rows: number }>;
  remove(doc: StoredDoc): Promise<unknown>;
  close(): Promise<void>;
  destroy(): Promise<unknown>;
}

/**
 * What pouchdb-find and the mapreduce plugin add. Their @types declare these methods with a
 * callback overload first and documents typed by `Content`, which TypeScript cannot relate to
 * a narrow signature, so they are not checked against @types the way PouchCore is.
 */
interface PouchPlugins {
  /** With `fields`, the documents hold only those fields. */
  find(request: FindRequest): Promise<{ docs: Doc[] }>;
  createIndex(request: { index: { fields: string[] } }): Promise<{ id: string; name: string }>;
  /** A persisted view by `design/view` name, or a temporary one from its map function (or its source text). */
  query(
    view: string | { map: TempMap | string },
    options: QueryOptions,
  ): Promise<{ rows: { id: string; key: unknown }[] }>;
}

export type PouchDatabase = PouchCore & PouchPlugins;

type PouchOptions = { adapter: string };

export type PouchConstructor = new (name: string, options: PouchOptions) => PouchDatabase;

/** PouchDB with pouchdb-find installed: the core methods are checked here, the plugins' are asserted. */
export function withPlugins(
  PouchDB: new (name: string, options: PouchOptions) => PouchCore,
): PouchConstructor {
  return PouchDB as PouchConstructor;
}

/** PouchDB.prefix: PouchDB names the IndexedDB database `_pouch_<name>`. */
const PREFIX = '_pouch_';

/**
 * Both adapters ping other tabs about every write by flipping a localStorage key named after the
 * database. The idb adapter deletes that key when it destroys the database; the indexeddb adapter
 * (9.0.0) does not, so each destroyed database would leave one key behind, and so would each
 * database a view or a temporary view kept its index in (`<name>-mrview-<hash>`).
 */
/**
 * Destroy through PouchDB, within DESTROY_MS; where that fails or hangs, delete its IndexedDB
 * databases directly. After a quota error the idb adapter marks the database as failed ("global
 * failure") and its destroy never settles: 2 to 4 `_pouch_storebench-*` databases stayed behind a
 * full disk's run.
 */
async function destroyPouch(destroy: () => Promise<unknown>, name: string): Promise<void> {
  try {
    await withTimeout(destroy(), DESTROY_MS, `PouchDB's destroy of ${name}`);
  } catch {
    await deleteDatabases(name);
  } finally {
    forgetChangePing(name);
  }
}

/** Under the runner's own cleanup limit (15 s), so the direct delete still has its time. */
const DESTROY_MS = 5_000;

/** The IndexedDB databases PouchDB keeps a database in: `_pouch_<name>`, and one per view index. */
export async function deleteDatabases(name: string): Promise<void> {
  const main = PREFIX + name;
  const listed =
    typeof indexedDB.databases === 'function'
      ? (await indexedDB.databases()).map((d) => d.name ?? '')
      : [];
  const names = [main, ...listed.filter((n) => n.startsWith(`${main}-mrview-`))];
  for (const db of names) {
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.deleteDatabase(db);
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error ?? new Error(`cannot delete ${db}`));
    });
  }
}

function forgetChangePing(name: string): void {
  if (typeof localStorage === 'undefined') return;
  const views = `${PREFIX}${name}-mrview-`;
  // Collected first: removing a key may reorder what localStorage.key(i) returns.
  const keys = Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i));
  for (const key of keys)
    if (key !== null && (key === PREFIX + name || key.startsWith(views)))
      localStorage.removeItem(key);
}

const isNotFound = (e: unknown) =>
  typeof e === 'object' && e !== null && (e as { status?: unknown }).status === 404;

/**
 * Strip `_rev`, and put `_id` first again: both adapters store the body apart from the id and
 * append `_id` and `_rev` when they read a document, so without this the fields come back in
 * another order than they were written (which JSON.stringify comparisons notice).
 */
function plain(doc: Doc): Doc {
  const { _id, _rev: _ignored, ...rest } = doc;
  return { _id, ...rest };
}

/**
 * Design documents (pouchdb-find's indexes and the map/reduce views) live among the documents:
 * allDocs returns them and doc_count counts them. The handle hides them, so a store with an
 * index holds the same documents as one without. PouchDB accepts no other `_id` that starts
 * with an underscore (besides `_local/`, which allDocs never returns), and every `_design/` id
 * sorts between these two keys, so they form one block in `_id` order.
 */
const DESIGN_LOW = '_design/';
const DESIGN_HIGH = '_design0';
const isDesign = (id: string) => id.startsWith(DESIGN_LOW);

/** bulkDocs resolves with an error entry per failed document instead of rejecting. */
function throwOnFailures(what: string, results: readonly WriteResult[]): void {
  const failed = results.filter((r) => r.error);
  const first = failed[0];
  if (first)
    throw new Error(
      `${what}: ${failed.length} of ${results.length} failed; first ${first.id}: ${first.message ?? String(first.error)}`,
    );
}

/** Current revisions of the live documents among `ids`; missing and deleted ones are left out. */
async function liveRevs(db: PouchDatabase, ids: readonly string[]): Promise<Map<string, string>> {
  const { rows } = await db.allDocs({ keys: [...ids] });
  const revs = new Map<string, string>();
  for (const row of rows) if (row.value && !row.value.deleted) revs.set(row.key, row.value.rev);
  return revs;
}

/** allDocs options for a key range. PouchDB swaps the bounds' roles when descending. */
function allDocsRange(range: KeyRange): AllDocsOptions {
  const descending = range.descending ?? false;
  const [start, end] = descending ? [range.lte, range.gte] : [range.gte, range.lte];
  return {
    include_docs: true,
    descending,
    ...(start !== undefined && { startkey: start }),
    ...(end !== undefined && { endkey: end }),
    ...(range.skip !== undefined && { skip: range.skip }),
    ...(range.limit !== undefined && { limit: range.limit }),
  };
}

const docsOf = (rows: readonly AllDocsRow[]) =>
  rows.flatMap((row) => (row.doc && !isDesign(row.key) ? [plain(row.doc)] : []));

/**
 * A key range without the design documents. PouchDB's own skip and limit count them, so when
 * the range holds any, it is read with the limit raised by their number, and the design
 * documents that the skip passed over are made up for by skipping as many more rows. `design`
 * is what the handle knows (see DesignState), so a range with none costs no more than allDocs.
 */
async function rangeWithoutDesign(
  db: PouchDatabase,
  range: KeyRange,
  design: ReadonlySet<string>,
): Promise<Doc[]> {
  const inRange = [...design].filter(
    (id) =>
      (range.gte === undefined || id >= range.gte) && (range.lte === undefined || id <= range.lte),
  );
  if (inRange.length === 0) return docsOf((await db.allDocs(allDocsRange(range))).rows);
  const limit = range.limit === undefined ? undefined : range.limit + inRange.length;
  const { rows } = await db.allDocs(allDocsRange({ ...range, limit }));
  const start = rows[0]?.key;
  if (start === undefined) return [];
  const skippedDesign = inRange.filter((id) => (range.descending ? id > start : id < start)).length;
  return docsOf(rows).slice(
    skippedDesign,
    range.limit === undefined ? undefined : skippedDesign + range.limit,
  );
}

/**
 * pouchdb-find answers 25 documents when no limit is given (CouchDB's default). IndexedDB's
 * getAll takes at most 2^32 - 1, and PouchDB adds the skip and the number of indexes to the
 * limit before it gets there, so "everything" is 2^31 - 1.
 */
const FIND_ALL = 2 ** 31 - 1;

const MANGO_OPERATORS = {
  eq: '$eq',
  ne: '$ne',
  gt: '$gt',
  gte: '$gte',
  lt: '$lt',
  lte: '$lte',
} as const;

/** pouchdb-find reads `a.b` as a path into `a`; a FindQuery field is always top-level. */
const mangoField = (field: string) => field.replace(/[.$]/g, (c) => `\\${c}`);

/**
 * The Mango selector for the conditions. It may match more than the FindQuery (the results
 * are checked with `matches` afterwards) but never less: a field and operator that repeat keep
 * their first value, because pouchdb-find merges repeated bounds with JS `<` rather than with
 * CouchDB collation.
 */
function mangoSelector(where: readonly FieldCondition[]): FindRequest['selector'] {
  // pouchdb-find needs a condition to plan with; every _id is greater than null.
  if (where.length === 0) return { _id: { $gt: null } };
  const selector: FindRequest['selector'] = {};
  for (const c of where) {
    const ops = (selector[mangoField(c.field)] ??= {});
    for (const [key, op] of Object.entries(MANGO_OPERATORS)) {
      const value = c[key as keyof typeof MANGO_OPERATORS];
      if (value !== undefined && !(op in ops)) ops[op] = value;
    }
    // Mango's $ne (and an empty condition) also match documents without the field; a
    // FieldCondition never does.
    if (Object.keys(ops).length === 0 || '$ne' in ops) ops.$exists = true;
  }
  return selector;
}

/**
 * What a handle knows of the design documents: read when it opens, then kept up to date by its
 * own createIndex and createView, so ranges and finds need no extra read to allow for them.
 * Design documents that another connection adds or deletes while the handle is open are still
 * kept out of every answer, but a range page that crosses them may come out a few rows off.
 */
interface DesignState {
  ids: Set<string>;
  /** pouchdb-find's indexes, for guardCompound. */
  indexes: MangoIndex[];
}

function designState(rows: readonly AllDocsRow[]): DesignState {
  const ids = new Set<string>();
  const indexes: MangoIndex[] = [];
  for (const row of rows) {
    if (!isDesign(row.key) || !row.doc) continue;
    ids.add(row.key);
    const doc = row.doc as StoredDesignDoc;
    if (doc.language !== 'query') continue;
    for (const [name, view] of Object.entries(doc.views ?? {})) {
      const fields = (view.options?.def?.fields ?? []).flatMap((f) =>
        typeof f === 'string' ? [f] : Object.keys(f),
      );
      indexes.push({ ddoc: row.key, name, fields });
    }
  }
  return { ids, indexes };
}

/**
 * The indexeddb adapter keeps pouchdb-find's indexes as native IndexedDB indexes, and a
 * compound one holds only documents that have every field of it. pouchdb-find still uses an
 * index whose leading fields are all the query asks about (index [age, lastName] for a query on
 * age; a single-field index can lose the tie to it), and then misses the documents that lack
 * lastName. The idb adapter's map/reduce index emits those with a null, so only this adapter
 * needs the guard: point pouchdb-find at an index the query covers wholly, or, when there is
 * none, put `_id` in the selector, which no index holds, so it scans.
 */
function guardCompound(request: FindRequest, indexes: readonly MangoIndex[]): FindRequest {
  const fields = Object.keys(request.selector);
  const leadsWith = (index: MangoIndex) =>
    index.fields.length > fields.length &&
    index.fields.slice(0, fields.length).every((f) => fields.includes(f));
  if (!indexes.some(leadsWith)) return request;
  const covered = indexes.filter((index) => index.fields.every((f) => fields.includes(f)));
  const best = covered.reduce<MangoIndex | undefined>(
    (a, b) => (a && a.fields.length >= b.fields.length ? a : b),
    undefined,
  );
  if (best) return { ...request, use_index: [best.ddoc, best.name] };
  return { ...request, selector: { ...request.selector, _id: { $gt: null } } };
}

/**
 * The documents that match, in no particular order: pouchdb-find returns them in the order of
 * the index it chose. Only `fields` (plus `_id` and the queried fields, so the results can be
 * checked) are kept when given. `indexes` are known for the adapter that needs guardCompound.
 */
async function mangoCandidates(
  db: PouchDatabase,
  indexes: readonly MangoIndex[] | undefined,
  query: FindQuery,
  fields: readonly string[] | undefined,
): Promise<Doc[]> {
  const wanted = fields && [...new Set(['_id', ...fields, ...query.where.map((c) => c.field)])];
  const request: FindRequest = {
    selector: mangoSelector(query.where),
    limit: FIND_ALL,
    ...(wanted && { fields: wanted.map(mangoField) }),
  };
  const { docs } = await db.find(indexes ? guardCompound(request, indexes) : request);
  return docs.filter((d) => !isDesign(d._id));
}

/** The map function of a view over `field`, as source text: design documents store it that way. */
function mapSource(field: string): string {
  const f = JSON.stringify(field);
  return `function (doc) { if (doc[${f}] !== undefined) emit(doc[${f}]); }`;
}

/**
 * The query options, or `undefined` when no row can match. PouchDB rejects a startkey above the
 * endkey, and ignores startkey and endkey when `key` is given; a ViewQuery asks for all of them.
 */
function viewOptions(q: ViewQuery): QueryOptions | undefined {
  const below = (a: Scalar | undefined, b: Scalar | undefined) =>
    a !== undefined && b !== undefined && compareScalars(a, b) > 0;
  if (
    q.limit === 0 ||
    below(q.startkey, q.endkey) ||
    below(q.startkey, q.key) ||
    below(q.key, q.endkey)
  )
    return undefined;
  return {
    reduce: false,
    ...(q.key !== undefined
      ? { key: q.key }
      : {
          ...(q.startkey !== undefined && { startkey: q.startkey }),
          ...(q.endkey !== undefined && { endkey: q.endkey }),
        }),
    ...(q.limit !== undefined && { limit: q.limit }),
    ...(q.stale && { stale: 'ok' as const }),
  };
}

async function queryRows(
  db: PouchDatabase,
  view: string | { map: TempMap | string },
  q: ViewQuery,
): Promise<ViewRow[]> {
  const options = viewOptions(q);
  if (!options) return [];
  const { rows } = await db.query(view, options);
  return rows.map((row) => ({ key: row.key as Scalar, id: row.id }));
}

/** Reads and plain writes by id; design documents are PouchDB's, never a stored document. */
function documents(
  db: PouchDatabase,
  design: DesignState,
): Pick<StoreHandle, 'put' | 'get' | 'count' | 'bulkPut' | 'getMany' | 'range'> {
  return {
    async put(doc) {
      await db.put(doc);
    },
    async get(id) {
      if (isDesign(id)) return undefined;
      try {
        return plain(await db.get(id));
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },
    // One allDocs gives both the total (design documents included) and the design documents.
    async count() {
      const { rows, total_rows } = await db.allDocs({ startkey: DESIGN_LOW, endkey: DESIGN_HIGH });
      return total_rows - rows.filter((row) => isDesign(row.key)).length;
    },
    async bulkPut(docs) {
      throwOnFailures('bulkPut', await db.bulkDocs([...docs]));
    },
    async getMany(ids) {
      const { rows } = await db.allDocs({ keys: [...ids], include_docs: true });
      return rows.map((row) => (row.doc && !isDesign(row.key) ? plain(row.doc) : undefined));
    },
    async range(range) {
      if (isEmptyRange(range)) return [];
      return rangeWithoutDesign(db, range, design.ids);
    },
  };
}

/** Updates and removals: a PouchDB write must name the revision it replaces, so each reads it first. */
function revisions(
  db: PouchDatabase,
): Pick<StoreHandle, 'update' | 'bulkUpdate' | 'remove' | 'bulkRemove'> {
  return {
    async update(doc) {
      const current = await db.get(doc._id);
      await db.put({ ...doc, _rev: current._rev });
    },
    async bulkUpdate(docs) {
      const revs = await liveRevs(
        db,
        docs.map((d) => d._id),
      );
      const missing = docs.find((d) => !revs.has(d._id));
      if (missing) throw new Error(`no document ${missing._id} to update`);
      throwOnFailures(
        'bulkUpdate',
        await db.bulkDocs(docs.map((d) => ({ ...d, _rev: revs.get(d._id) }))),
      );
    },
    async remove(id) {
      let current: StoredDoc;
      try {
        current = await db.get(id);
      } catch (e) {
        if (isNotFound(e)) return;
        throw e;
      }
      await db.remove(current);
    },
    async bulkRemove(ids) {
      const revs = await liveRevs(db, ids);
      if (revs.size === 0) return;
      const tombstones = [...revs].map(([_id, _rev]) => ({ _id, _rev, _deleted: true }));
      throwOnFailures('bulkRemove', await db.bulkDocs(tombstones));
    },
  };
}

/** Mango queries through pouchdb-find; `guard`: the adapter's compound indexes need guardCompound. */
function mangoQueries(
  db: PouchDatabase,
  design: DesignState,
  guard: boolean,
): Pick<StoreHandle, 'createIndex' | 'find' | 'countWhere'> {
  const indexes = guard ? design.indexes : undefined;
  return {
    // pouchdb-find builds the index here, not on the first query.
    async createIndex(fields) {
      const mango = fields.map(mangoField);
      const made = await db.createIndex({ index: { fields: mango } });
      design.ids.add(made.id);
      if (!design.indexes.some((i) => i.ddoc === made.id && i.name === made.name))
        design.indexes.push({ ddoc: made.id, name: made.name, fields: mango });
    },
    /**
     * pouchdb-find orders by the index it uses and pages in that order, so skip and limit are
     * applied here, after ordering by _id: every match is read even when a page is asked for.
     */
    async find(query) {
      return applyFind((await mangoCandidates(db, indexes, query, query.fields)).map(plain), query);
    },
    // pouchdb-find has no count: this reads the matches, keeping only the fields it checks.
    async countWhere(query) {
      return countMatches(await mangoCandidates(db, indexes, query, []), query);
    },
  };
}

/**
 * Map/reduce views, persisted in design documents or temporary. `legacy`: PouchDB 2.x, which
 * evaluates a temporary view's map from its source text, so a closure would lose `field`.
 */
function views(
  db: PouchDatabase,
  design: DesignState,
  legacy: boolean,
): Pick<StoreHandle, 'createView' | 'queryView' | 'queryTemp'> {
  return {
    async createView(view, field) {
      const ddoc: DesignDoc = {
        _id: DESIGN_LOW + view,
        views: { [view]: { map: mapSource(field) } },
      };
      try {
        const current = await db.get(ddoc._id);
        await db.put({ ...ddoc, _rev: current._rev });
      } catch (e) {
        if (!isNotFound(e)) throw e;
        await db.put(ddoc);
      }
      design.ids.add(ddoc._id);
    },
    queryView: (view, q) => queryRows(db, `${view}/${view}`, q),
    /**
     * The map that mapSource writes, as a closure: PouchDB calls a two-argument map as it is
     * (and evaluates a persisted view's source text once), so both kinds run the same code per
     * document.
     */
    queryTemp(field, q) {
      if (legacy) return queryRows(db, { map: mapSource(field) }, q);
      const map: TempMap = (doc, emit) => {
        if (doc[field] !== undefined) emit?.(doc[field]);
      };
      return queryRows(db, { map }, q);
    },
  };
}

function handleFor(
  db: PouchDatabase,
  name: string,
  design: DesignState,
  guard: boolean,
  legacy: boolean,
): StoreHandle {
  return {
    ...documents(db, design),
    ...revisions(db),
    ...mangoQueries(db, design, guard),
    ...views(db, design, legacy),
    close: () => db.close(),
    destroy: () => destroyPouch(() => db.destroy(), name),
  };
}

export interface PouchAdapterSpec {
  id: string;
  label: string;
  /** PouchDB's adapter name, as in `new PouchDB(name, { adapter })`. */
  adapter: 'idb' | 'indexeddb';
  /** Its compound indexes leave out documents that lack a field (see guardCompound). */
  compoundIndexNeedsEveryField: boolean;
  /** Capabilities this adapter must not declare, each with the reason (see StoreAdapter.lacks). */
  lacks?: Readonly<Partial<Record<Capability, string>>>;
  /**
   * Import PouchDB and install that adapter and the plugins. PouchDB reads `self` and writes
   * localStorage as it is imported, and the CLI imports the registry in Node to check names, so
   * the import waits until a page asks whether the store is supported.
   */
  load: () => Promise<PouchConstructor>;
  /** PouchDB 2.x through pouchdb-legacy.ts: no pouchdb-find, and not tried in a Worker. */
  legacy?: boolean;
  /** The packages it is a build of, and how it builds on another build of them (StoreAdapter.variant). */
  wraps?: Wraps;
  variant?: (build: VariantBuild) => StoreAdapter;
}

const CAPABILITIES: readonly Capability[] = [
  'bulkWrite',
  'getMany',
  'keyRange',
  // allDocs takes `skip` itself: the indexeddb adapter advances a key cursor, the idb adapter
  // reads the skipped rows' metadata in its transaction but never fetches their documents.
  'skip',
  'count',
  'update',
  'bulkUpdate',
  'remove',
  'bulkRemove',
  'secondaryIndex',
  'query',
  'mapReduce',
  'worker',
];

/** What PouchDB 2.x lacks of the capabilities, and why. */
const LEGACY_LACKS: Readonly<Partial<Record<Capability, string>>> = {
  secondaryIndex: 'PouchDB before 6.2 had no pouchdb-find released with it',
  query: 'PouchDB before 6.2 had no pouchdb-find released with it',
  worker: 'PouchDB 2.x, bundled from its CommonJS for browserify, is not run in Workers here',
};

/** A PouchDB store on one of its IndexedDB adapters; both adapters differ only in this spec. */
export function pouchAdapter(spec: PouchAdapterSpec): StoreAdapter {
  const { id, label, adapter, compoundIndexNeedsEveryField, load, legacy = false } = spec;
  const lacks = legacy ? { ...spec.lacks, ...LEGACY_LACKS } : spec.lacks;
  let loading: Promise<PouchConstructor> | undefined;
  const pouch = () =>
    (loading ??= load().catch((e: unknown) => {
      loading = undefined;
      throw e;
    }));
  return {
    id,
    label,
    backend: 'indexeddb',
    capabilities: lacks ? CAPABILITIES.filter((c) => !(c in lacks)) : CAPABILITIES,
    ...(lacks && { lacks }),
    // The exact version that ran, from the package itself (PouchDB.version).
    async describe() {
      const { version } = (await pouch()) as unknown as { version?: unknown };
      return { version: typeof version === 'string' ? version : 'unknown' };
    },
    // The runner asks before any case, so loading here keeps the import out of timed samples.
    async supported() {
      if (typeof indexedDB === 'undefined') return 'IndexedDB is not available here';
      await pouch();
      return true;
    },
    async open(name) {
      const PouchDB = await pouch();
      const db = new PouchDB(name, { adapter });
      // The constructor opens IndexedDB in the background and queues calls until it is ready;
      // waiting here makes open() cost the opening and surface its errors. The wait is the
      // read of the design documents the handle needs to know (usually none).
      const { rows } = await db.allDocs({
        startkey: DESIGN_LOW,
        endkey: DESIGN_HIGH,
        include_docs: true,
      });
      return handleFor(db, name, designState(rows), compoundIndexNeedsEveryField, legacy);
    },
    // PouchDB deletes only through an instance, which opens (or creates) the database first.
    async destroy(name) {
      const PouchDB = await pouch();
      await destroyPouch(() => new PouchDB(name, { adapter }).destroy(), name);
    },
    ...(spec.wraps && { wraps: spec.wraps }),
    ...(spec.variant && { variant: spec.variant }),
  };
}
