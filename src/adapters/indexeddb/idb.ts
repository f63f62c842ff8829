import * as installed from 'idb';
import type { DBSchema, IDBPDatabase, IDBPObjectStore, IDBPTransaction } from 'idb';
import type {
  Doc,
  FieldCondition,
  KeyRange,
  StoreAdapter,
  StoreHandle,
} from '../../core/store/adapter.ts';
import type { VariantBuild } from '../../core/plan/variant.ts';
import { applyFind, countMatches } from '../../core/store/query.ts';
import {
  boundsRange,
  durabilityHint,
  idbKeyRange,
  indexesOf,
  INDEXEDDB_CAPABILITIES,
  IndexUpgrades,
  closeAndDestroy,
  supportedWithLibrary,
} from './indexeddb-features.ts';
import { planIndex, type IndexPlan } from './index-plan.ts';
import { Library } from '../variants/library.ts';
import { isEmptyRange } from '../range.ts';

const STORE = 'docs';

/** What the adapter calls of `idb`: the installed package, or a variant's build of it. */
type Idb = Pick<typeof installed, 'openDB' | 'deleteDB'>;

interface Schema extends DBSchema {
  /** Secondary indexes are named by their fields, joined with commas, and made at run time. */
  docs: { key: string; value: Doc; indexes: { [fields: string]: IDBValidKey } };
}

type Store<Mode extends IDBTransactionMode> = IDBPObjectStore<Schema, ['docs'], 'docs', Mode>;

/**
 * Run `work` in one transaction. A write resolves only once its transaction has committed; a read
 * is done when its requests succeed, without waiting for the complete event. If `work` fails,
 * the transaction is aborted.
 */
async function inTransaction<Mode extends IDBTransactionMode, T>(
  tx: IDBPTransaction<Schema, ['docs'], Mode>,
  work: (store: Store<Mode>) => Promise<T>,
): Promise<T> {
  // A failed request aborts the transaction and rejects `done` as well as the request; this
  // handler keeps that second rejection from surfacing as unhandled (writes still await `done`).
  tx.done.catch(() => {});
  try {
    const result = await work(tx.store);
    if (tx.mode === 'readwrite') await tx.done;
    return result;
  } catch (e) {
    try {
      tx.abort();
    } catch {
      // Already aborted by the failed request, or already finished.
    }
    throw e;
  }
}

async function readRange(store: Store<'readonly'>, range: KeyRange): Promise<Doc[]> {
  const keys = idbKeyRange(range);
  // getAll is one request for the whole answer, but it only walks forward and cannot skip.
  if (!range.descending && !range.skip) return store.getAll(keys, range.limit);
  const out: Doc[] = [];
  const limit = range.limit ?? Infinity;
  let cursor = await store.openCursor(keys, range.descending ? 'prev' : 'next');
  if (cursor && range.skip) cursor = await cursor.advance(range.skip);
  while (cursor && out.length < limit) {
    out.push(cursor.value);
    cursor = await cursor.continue();
  }
  return out;
}

const indexName = (fields: readonly string[]) => fields.join(',');

/** The plan (see index-plan.ts) over the store's indexes. */
function plan(store: Store<'readonly'>, where: readonly FieldCondition[]): IndexPlan | undefined {
  return planIndex(indexesOf(store), where, (a, b) => indexedDB.cmp(a, b));
}

/** The documents that may match: those in the plan's range, or all of them. */
async function candidates(store: Store<'readonly'>, p: IndexPlan | undefined): Promise<Doc[]> {
  if (!p) return store.getAll();
  return p.bounds ? store.index(p.index).getAll(boundsRange(p.bounds)) : [];
}

/**
 * Open the database at its current version, creating it with its object store if it is new;
 * or at `version`, adding an index in the upgrade.
 */
function connect(
  idb: Idb,
  name: string,
  version?: number,
  addIndex?: (store: Store<'versionchange'>) => void,
): Promise<IDBPDatabase<Schema>> {
  return idb.openDB<Schema>(name, version, {
    upgrade(db, _oldVersion, _newVersion, tx) {
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: '_id' });
      addIndex?.(tx.objectStore(STORE));
    },
    // Someone is deleting this database (the runner cleaning up after a hung case) or adding an
    // index through another connection: close instead of blocking them until this page goes.
    // This connection's later operations then fail, as raw IndexedDB's would.
    blocking(_current, _blocked, event) {
      (event.target as IDBDatabase).close();
    },
  });
}

/**
 * The handle's connection, which createIndex replaces with one at the next version: reads and
 * writes wait for an upgrade in progress, then run in one transaction of their own.
 */
class Connection {
  readonly upgrades = new IndexUpgrades((fields) => this.addIndex(fields));

  constructor(
    private readonly idb: Idb,
    public db: IDBPDatabase<Schema>,
    private readonly txOptions: IDBTransactionOptions | undefined,
  ) {}

  // async, so that db.transaction() throwing on a closed connection becomes a rejection.
  async read<T>(work: (store: Store<'readonly'>) => Promise<T>): Promise<T> {
    if (this.upgrades.current) await this.upgrades.current;
    return inTransaction(this.db.transaction(STORE, 'readonly'), work);
  }

  async write<T>(work: (store: Store<'readwrite'>) => Promise<T>): Promise<T> {
    if (this.upgrades.current) await this.upgrades.current;
    return inTransaction(this.db.transaction(STORE, 'readwrite', this.txOptions), work);
  }

  /**
   * An index can only be made in a version change, which needs every connection closed: this
   * one closes and a new one opens at the next version. Operations started meanwhile wait for it.
   */
  private async addIndex(fields: readonly string[]): Promise<void> {
    const name = indexName(fields);
    const exists = await inTransaction(this.db.transaction(STORE, 'readonly'), async (store) =>
      store.indexNames.contains(name),
    );
    if (exists) return;
    const version = this.db.version + 1;
    this.db.close();
    this.db = await connect(this.idb, this.db.name, version, (store) => {
      store.createIndex(name, fields.length === 1 ? (fields[0] as string) : [...fields]);
    });
  }
}

/** Reject, and so abort the transaction, unless every id is in the store. */
async function requireAll(store: Store<'readwrite'>, ids: readonly string[]): Promise<void> {
  const keys = await Promise.all(ids.map((id) => store.getKey(id)));
  const missing = ids.find((_, i) => keys[i] === undefined);
  if (missing !== undefined) throw new Error(`no document ${missing} to update`);
}

function handleFor(idb: Idb, conn: Connection): StoreHandle {
  const read = <T>(work: (store: Store<'readonly'>) => Promise<T>) => conn.read(work);
  const write = <T>(work: (store: Store<'readwrite'>) => Promise<T>) => conn.write(work);
  return {
    async put(doc) {
      await write((store) => store.put(doc));
    },
    get: (id) => read((store) => store.get(id)),
    count: () => read((store) => store.count()),
    async bulkPut(docs) {
      await write((store) => Promise.all(docs.map((doc) => store.put(doc))));
    },
    getMany: (ids) => read((store) => Promise.all(ids.map((id) => store.get(id)))),
    async range(range) {
      if (isEmptyRange(range)) return [];
      return read((store) => readRange(store, range));
    },
    async update(doc) {
      await write(async (store) => {
        await requireAll(store, [doc._id]);
        await store.put(doc);
      });
    },
    async bulkUpdate(docs) {
      await write(async (store) => {
        await requireAll(
          store,
          docs.map((d) => d._id),
        );
        await Promise.all(docs.map((doc) => store.put(doc)));
      });
    },
    async remove(id) {
      await write((store) => store.delete(id));
    },
    async bulkRemove(ids) {
      await write((store) => Promise.all(ids.map((id) => store.delete(id))));
    },
    createIndex: (fields) => conn.upgrades.create(fields),
    find: (query) =>
      read(async (store) => applyFind(await candidates(store, plan(store, query.where)), query)),
    countWhere: (query) =>
      read(async (store) => {
        const p = plan(store, query.where);
        if (p?.exact) return p.bounds ? store.index(p.index).count(boundsRange(p.bounds)) : 0;
        return countMatches(await candidates(store, p), query);
      }),
    ...closeAndDestroy(
      conn.upgrades,
      () => conn.db,
      (name) => idb.deleteDB(name),
    ),
  };
}

/** Raw IndexedDB through `idb`: one object store, `docs`, keyed by `_id`, with native indexes on fields. */
function idbStore(id: string, label: string, library: Library<Idb>): StoreAdapter {
  return {
    id,
    label,
    backend: 'indexeddb',
    capabilities: INDEXEDDB_CAPABILITIES,
    supported: supportedWithLibrary(library),
    async open(name, options) {
      const idb = await library.get();
      // No fixed version: each index createIndex adds raises it.
      const db = await connect(idb, name);
      const durability = durabilityHint(options?.durability);
      return handleFor(idb, new Connection(idb, db, durability ? { durability } : undefined));
    },
    async destroy(name) {
      await (await library.get()).deleteDB(name);
    },
    wraps: { packages: ['idb'] },
    variant: (build: VariantBuild) =>
      idbStore(
        build.id,
        `IndexedDB (${build.what})`,
        Library.lazy(async () => (await build.load())[0] as Idb),
      ),
  };
}

export const idbAdapter: StoreAdapter = idbStore(
  'idb',
  'IndexedDB (idb)',
  Library.of<Idb>(installed),
);
