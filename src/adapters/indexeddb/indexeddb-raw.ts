/**
 * The floor under every IndexedDB store: plain IndexedDB requests, no library. The same layout
 * as the `idb` adapter (one object store `docs` keyed by `_id`, native indexes named by their
 * fields), so the two differ only in the `idb` package's promise wrappers, and every IndexedDB
 * store's time can be read as a factor over this one.
 *
 * Each operation is one transaction whose requests are issued together; a write resolves on the
 * transaction's `complete`, a read when its last request succeeds.
 */
import type {
  Doc,
  FieldCondition,
  KeyRange,
  StoreAdapter,
  StoreHandle,
} from '../../core/store/adapter.ts';
import { applyFind, countMatches } from '../../core/store/query.ts';
import {
  boundsRange,
  durabilityHint,
  idbKeyRange,
  indexedDbSupported,
  indexesOf,
  INDEXEDDB_CAPABILITIES,
  IndexUpgrades,
  closeAndDestroy,
} from './indexeddb-features.ts';
import { planIndex, type IndexPlan } from './index-plan.ts';
import { isEmptyRange } from '../range.ts';

const STORE = 'docs';

/** The result of one request, or its error. */
function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/** Open `name` (at `version`, creating the store and calling `upgrade` in a version change). */
function openDatabase(
  name: string,
  version?: number,
  upgrade?: (store: IDBObjectStore) => void,
): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = version === undefined ? indexedDB.open(name) : indexedDB.open(name, version);
    req.onupgradeneeded = () => {
      const db = req.result;
      const store = db.objectStoreNames.contains(STORE)
        ? req.transaction!.objectStore(STORE)
        : db.createObjectStore(STORE, { keyPath: '_id' });
      upgrade?.(store);
    };
    req.onsuccess = () => {
      // Another connection deleting the database or adding an index: give way, as the idb adapter does.
      req.result.onversionchange = () => req.result.close();
      resolve(req.result);
    };
    req.onerror = () => reject(req.error ?? new Error(`cannot open ${name}`));
    req.onblocked = () => {};
  });
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error ?? new Error(`cannot delete ${name}`));
  });
}

/** Documents of a key range by one getAll, or by a cursor where it must skip or walk backwards. */
function rangeDocs(store: IDBObjectStore, range: KeyRange): Promise<Doc[]> {
  const keys = idbKeyRange(range);
  if (!range.descending && !range.skip)
    return request(store.getAll(keys, range.limit) as IDBRequest<Doc[]>);
  return new Promise((resolve, reject) => {
    const out: Doc[] = [];
    const limit = range.limit ?? Infinity;
    let skipped = !range.skip;
    const req = store.openCursor(keys, range.descending ? 'prev' : 'next');
    req.onerror = () => reject(req.error ?? new Error('IndexedDB cursor failed'));
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor || out.length >= limit) return resolve(out);
      if (!skipped) {
        skipped = true;
        return cursor.advance(range.skip as number);
      }
      out.push(cursor.value as Doc);
      cursor.continue();
    };
  });
}

function indexPlan(store: IDBObjectStore, where: readonly FieldCondition[]): IndexPlan | undefined {
  return planIndex(indexesOf(store), where, (a, b) => indexedDB.cmp(a, b));
}

function candidates(store: IDBObjectStore, p: IndexPlan | undefined): Promise<Doc[]> {
  if (!p) return request(store.getAll() as IDBRequest<Doc[]>);
  if (!p.bounds) return Promise.resolve([]);
  return request(store.index(p.index).getAll(boundsRange(p.bounds)) as IDBRequest<Doc[]>);
}

/**
 * The handle's connection, which createIndex replaces with one at the next version: reads and
 * writes wait for an upgrade in progress, then run in one transaction of their own.
 */
class Connection {
  readonly upgrades = new IndexUpgrades((fields) => this.addIndex(fields));

  constructor(
    public db: IDBDatabase,
    private readonly txOptions: IDBTransactionOptions | undefined,
  ) {}

  async read<T>(work: (store: IDBObjectStore) => Promise<T>): Promise<T> {
    if (this.upgrades.current) await this.upgrades.current;
    return work(this.db.transaction(STORE, 'readonly').objectStore(STORE));
  }

  /** Issue the requests, then wait for the commit: the write is durable (as the mode allows) when this resolves. */
  async write(work: (store: IDBObjectStore) => Promise<unknown> | void): Promise<void> {
    if (this.upgrades.current) await this.upgrades.current;
    const tx = this.db.transaction(STORE, 'readwrite', this.txOptions);
    const done = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
    try {
      await work(tx.objectStore(STORE));
    } catch (e) {
      try {
        tx.abort();
      } catch {
        // Already aborted by the failed request.
      }
      done.catch(() => {});
      throw e;
    }
    await done;
  }

  private async addIndex(fields: readonly string[]): Promise<void> {
    const name = fields.join(',');
    if (this.db.transaction(STORE, 'readonly').objectStore(STORE).indexNames.contains(name)) return;
    const version = this.db.version + 1;
    this.db.close();
    this.db = await openDatabase(this.db.name, version, (store) =>
      store.createIndex(name, fields.length === 1 ? (fields[0] as string) : [...fields]),
    );
  }
}

/** Reject, and so abort the transaction, unless every id is in the store. */
async function requireAll(store: IDBObjectStore, ids: readonly string[]): Promise<void> {
  const keys = await Promise.all(ids.map((id) => request(store.getKey(id))));
  const missing = ids.find((_, i) => keys[i] === undefined);
  if (missing !== undefined) throw new Error(`no document ${missing} to update`);
}

function handleFor(conn: Connection): StoreHandle {
  const read = <T>(work: (store: IDBObjectStore) => Promise<T>) => conn.read(work);
  const write = (work: (store: IDBObjectStore) => Promise<unknown> | void) => conn.write(work);
  return {
    put: (doc) => write((store) => void store.put(doc)),
    get: (id) => read((store) => request(store.get(id) as IDBRequest<Doc | undefined>)),
    count: () => read((store) => request(store.count())),
    bulkPut: (docs) => write((store) => docs.forEach((doc) => store.put(doc))),
    getMany: (ids) =>
      read((store) =>
        Promise.all(ids.map((id) => request(store.get(id) as IDBRequest<Doc | undefined>))),
      ),
    async range(range) {
      if (isEmptyRange(range)) return [];
      return read((store) => rangeDocs(store, range));
    },
    update: (doc) =>
      write(async (store) => {
        await requireAll(store, [doc._id]);
        store.put(doc);
      }),
    bulkUpdate: (docs) =>
      write(async (store) => {
        await requireAll(
          store,
          docs.map((d) => d._id),
        );
        docs.forEach((doc) => store.put(doc));
      }),
    remove: (id) => write((store) => void store.delete(id)),
    bulkRemove: (ids) => write((store) => ids.forEach((id) => store.delete(id))),
    createIndex: (fields) => conn.upgrades.create(fields),
    find: (query) =>
      read(async (store) =>
        applyFind(await candidates(store, indexPlan(store, query.where)), query),
      ),
    countWhere: (query) =>
      read(async (store) => {
        const p = indexPlan(store, query.where);
        if (p?.exact)
          return p.bounds ? request(store.index(p.index).count(boundsRange(p.bounds))) : 0;
        return countMatches(await candidates(store, p), query);
      }),
    ...closeAndDestroy(
      conn.upgrades,
      () => conn.db,
      (name) => deleteDatabase(name),
    ),
  };
}

export const indexeddbRawAdapter: StoreAdapter = {
  id: 'indexeddb-raw',
  label: 'IndexedDB (plain requests)',
  backend: 'indexeddb',
  capabilities: INDEXEDDB_CAPABILITIES,
  supported: indexedDbSupported,
  async open(name, options) {
    const durability = durabilityHint(options?.durability);
    const db = await openDatabase(name);
    return handleFor(new Connection(db, durability ? { durability } : undefined));
  },
  destroy: deleteDatabase,
};
