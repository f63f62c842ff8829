import { deleteDB, openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction } from 'idb';
import type { Doc, KeyRange, StoreAdapter, StoreHandle } from '../core/adapter.ts';
import type { Capability } from '../core/capabilities.ts';
import { isEmptyRange } from './range.ts';

const STORE = 'docs';

interface Schema extends DBSchema {
  docs: { key: string; value: Doc };
}

type Store<Mode extends IDBTransactionMode> = IDBPObjectStore<Schema, ['docs'], 'docs', Mode>;

/**
 * The durability hint is Baseline only since 2024, Firefox 126 being the last to ship it
 * (https://developer.mozilla.org/docs/Web/API/IDBTransaction/durability). An older engine would
 * ignore the option silently, so the capability is declared only where the engine has it.
 */
const hasDurability = typeof IDBTransaction !== 'undefined' && 'durability' in IDBTransaction.prototype;

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

function idbRange({ gte, lte }: KeyRange): IDBKeyRange | undefined {
  if (gte !== undefined && lte !== undefined) return IDBKeyRange.bound(gte, lte);
  if (gte !== undefined) return IDBKeyRange.lowerBound(gte);
  if (lte !== undefined) return IDBKeyRange.upperBound(lte);
  return undefined;
}

async function readRange(store: Store<'readonly'>, range: KeyRange): Promise<Doc[]> {
  const keys = idbRange(range);
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

function handleFor(db: IDBPDatabase<Schema>, txOptions: IDBTransactionOptions | undefined): StoreHandle {
  // async, so that db.transaction() throwing on a closed connection becomes a rejection.
  const read = async <T>(work: (store: Store<'readonly'>) => Promise<T>) => inTransaction(db.transaction(STORE, 'readonly'), work);
  const write = async <T>(work: (store: Store<'readwrite'>) => Promise<T>) =>
    inTransaction(db.transaction(STORE, 'readwrite', txOptions), work);
  const requireAll = async (store: Store<'readwrite'>, ids: readonly string[]) => {
    const keys = await Promise.all(ids.map((id) => store.getKey(id)));
    const missing = ids.find((_, i) => keys[i] === undefined);
    if (missing !== undefined) throw new Error(`no document ${missing} to update`);
  };
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
        await requireAll(store, docs.map((d) => d._id));
        await Promise.all(docs.map((doc) => store.put(doc)));
      });
    },
    async remove(id) {
      await write((store) => store.delete(id));
    },
    async bulkRemove(ids) {
      await write((store) => Promise.all(ids.map((id) => store.delete(id))));
    },
    async close() {
      db.close();
    },
    async destroy() {
      db.close();
      await deleteDB(db.name);
    },
  };
}

const capabilities: readonly Capability[] = [
  'bulkWrite',
  'getMany',
  'keyRange',
  'skip',
  'count',
  'update',
  'bulkUpdate',
  'remove',
  'bulkRemove',
  ...(hasDurability ? (['durability'] as const) : []),
  'worker',
];

/** Raw IndexedDB through `idb`: one object store, `docs`, keyed by `_id`. */
export const idbAdapter: StoreAdapter = {
  id: 'idb',
  label: 'IndexedDB (idb)',
  backend: 'indexeddb',
  capabilities,
  supported: () => (typeof indexedDB === 'undefined' ? 'IndexedDB is not available here' : true),
  async open(name, options) {
    const db = await openDB<Schema>(name, 1, {
      upgrade(db) {
        db.createObjectStore(STORE, { keyPath: '_id' });
      },
      // Someone is deleting this database, such as the runner cleaning up after a hung case:
      // close instead of blocking the delete until this page goes away.
      blocking(_current, _blocked, event) {
        (event.target as IDBDatabase).close();
      },
    });
    const durability = options?.durability;
    return handleFor(db, hasDurability && durability && durability !== 'default' ? { durability } : undefined);
  },
  async destroy(name) {
    await deleteDB(name);
  },
};
