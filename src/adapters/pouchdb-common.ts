import { withoutRev, type Doc, type KeyRange, type StoreAdapter, type StoreHandle } from '../core/adapter.ts';
import type { Capability } from '../core/capabilities.ts';
import { isEmptyRange } from './range.ts';

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

/** One entry of bulkDocs' answer: PouchDB resolves even when some writes fail. */
interface WriteResult {
  id?: string;
  error?: boolean | string;
  message?: string;
}

interface PouchDatabase {
  put(doc: Doc): Promise<unknown>;
  get(id: string): Promise<StoredDoc>;
  bulkDocs(docs: Doc[]): Promise<WriteResult[]>;
  allDocs(options: AllDocsOptions): Promise<{ rows: AllDocsRow[] }>;
  info(): Promise<{ doc_count: number }>;
  remove(doc: StoredDoc): Promise<unknown>;
  close(): Promise<void>;
  destroy(): Promise<unknown>;
}

export type PouchConstructor = new (name: string, options: { adapter: string }) => PouchDatabase;

/** PouchDB.prefix: PouchDB names the IndexedDB database `_pouch_<name>`. */
const PREFIX = '_pouch_';

/**
 * Both adapters ping other tabs about every write by flipping a localStorage key named after the
 * database. The idb adapter deletes that key when it destroys the database; the indexeddb adapter
 * (9.0.0) does not, so each destroyed database would leave one key behind.
 */
function forgetChangePing(name: string): void {
  if (typeof localStorage !== 'undefined') localStorage.removeItem(PREFIX + name);
}

const isNotFound = (e: unknown) => typeof e === 'object' && e !== null && (e as { status?: unknown }).status === 404;

// Omit<> over an index signature loses `_id` from the type, not from the value.
const plain = (doc: StoredDoc): Doc => withoutRev(doc) as Doc;

/** bulkDocs resolves with an error entry per failed document instead of rejecting. */
function throwOnFailures(what: string, results: readonly WriteResult[]): void {
  const failed = results.filter((r) => r.error);
  const first = failed[0];
  if (first) throw new Error(`${what}: ${failed.length} of ${results.length} failed; first ${first.id}: ${first.message ?? String(first.error)}`);
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

function handleFor(db: PouchDatabase, name: string): StoreHandle {
  return {
    async put(doc) {
      await db.put(doc);
    },
    async get(id) {
      try {
        return plain(await db.get(id));
      } catch (e) {
        if (isNotFound(e)) return undefined;
        throw e;
      }
    },
    async count() {
      return (await db.info()).doc_count;
    },
    async bulkPut(docs) {
      throwOnFailures('bulkPut', await db.bulkDocs([...docs]));
    },
    async getMany(ids) {
      const { rows } = await db.allDocs({ keys: [...ids], include_docs: true });
      return rows.map((row) => (row.doc ? plain(row.doc) : undefined));
    },
    async range(range) {
      if (isEmptyRange(range)) return [];
      const { rows } = await db.allDocs(allDocsRange(range));
      return rows.flatMap((row) => (row.doc ? [plain(row.doc)] : []));
    },
    // A PouchDB write must name the revision it replaces, so every update reads it first.
    async update(doc) {
      const current = await db.get(doc._id);
      await db.put({ ...doc, _rev: current._rev });
    },
    async bulkUpdate(docs) {
      const revs = await liveRevs(db, docs.map((d) => d._id));
      const missing = docs.find((d) => !revs.has(d._id));
      if (missing) throw new Error(`no document ${missing._id} to update`);
      throwOnFailures('bulkUpdate', await db.bulkDocs(docs.map((d) => ({ ...d, _rev: revs.get(d._id) }))));
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
    close: () => db.close(),
    async destroy() {
      await db.destroy();
      forgetChangePing(name);
    },
  };
}

export interface PouchAdapterSpec {
  id: string;
  label: string;
  /** PouchDB's adapter name, as in `new PouchDB(name, { adapter })`. */
  adapter: 'idb' | 'indexeddb';
  /**
   * Import PouchDB and install that adapter and the plugins. PouchDB reads `self` and writes
   * localStorage as it is imported, and the CLI imports the registry in Node to check names, so
   * the import waits until a page asks whether the store is supported.
   */
  load(): Promise<PouchConstructor>;
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
  'worker',
];

/** A PouchDB store on one of its IndexedDB adapters; both adapters differ only in this spec. */
export function pouchAdapter({ id, label, adapter, load }: PouchAdapterSpec): StoreAdapter {
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
    capabilities: CAPABILITIES,
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
      // waiting here makes open() cost the opening and surface its errors.
      await db.info();
      return handleFor(db, name);
    },
    // PouchDB deletes only through an instance, which opens (or creates) the database first.
    async destroy(name) {
      const PouchDB = await pouch();
      await new PouchDB(name, { adapter }).destroy();
      forgetChangePing(name);
    },
  };
}
