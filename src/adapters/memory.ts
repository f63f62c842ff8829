import type { Doc, KeyRange, StoreAdapter, StoreHandle } from '../core/store/adapter.ts';
import { applyFind, countMatches } from '../core/store/query.ts';
import { selectRange } from './range.ts';

/**
 * A Map in the page: no persistence, no serialization, no I/O. The floor every store is
 * compared with. Documents are cloned on the way in and out, as a real store would, so the
 * floor includes the copying every store must do.
 */
const databases = new Map<string, Map<string, Doc>>();

/** Names of the memory databases that exist now; the runner tests use it to check cleanup. */
export function memoryDatabaseNames(): string[] {
  return [...databases.keys()];
}

function handleFor(name: string): StoreHandle {
  let db: Map<string, Doc> | undefined = databases.get(name);
  const live = () => {
    if (!db) throw new Error(`memory database ${name} is closed`);
    return db;
  };
  return {
    async put(doc) {
      live().set(doc._id, structuredClone(doc));
    },
    async get(id) {
      const doc = live().get(id);
      return doc && structuredClone(doc);
    },
    async count() {
      return live().size;
    },
    async bulkPut(docs) {
      const map = live();
      for (const doc of docs) map.set(doc._id, structuredClone(doc));
    },
    async getMany(ids) {
      const map = live();
      return ids.map((id) => {
        const doc = map.get(id);
        return doc && structuredClone(doc);
      });
    },
    async range(range: KeyRange) {
      const map = live();
      return selectRange([...map.keys()].sort(), range).map((id) =>
        structuredClone(map.get(id) as Doc),
      );
    },
    async update(doc) {
      const map = live();
      if (!map.has(doc._id)) throw new Error(`no document ${doc._id} to update`);
      map.set(doc._id, structuredClone(doc));
    },
    async bulkUpdate(docs) {
      const map = live();
      const missing = docs.find((d) => !map.has(d._id));
      if (missing) throw new Error(`no document ${missing._id} to update`);
      for (const doc of docs) map.set(doc._id, structuredClone(doc));
    },
    async remove(id) {
      live().delete(id);
    },
    async bulkRemove(ids) {
      const map = live();
      for (const id of ids) map.delete(id);
    },
    async createIndex() {
      // A Map has no index to build; the memory floor answers every query with a scan.
    },
    async find(query) {
      return applyFind(live().values(), query).map((d) => structuredClone(d));
    },
    async countWhere(query) {
      return countMatches(live().values(), query);
    },
    async close() {
      db = undefined;
    },
    async destroy() {
      db = undefined;
      databases.delete(name);
    },
  };
}

export const memoryAdapter: StoreAdapter = {
  id: 'memory',
  label: 'Memory (Map)',
  backend: 'memory',
  // No `worker`: each Worker would get a Map of its own, so writers there would not share a store.
  capabilities: [
    'bulkWrite',
    'getMany',
    'keyRange',
    'skip',
    'count',
    'update',
    'bulkUpdate',
    'remove',
    'bulkRemove',
    'query',
  ],
  supported: () => true,
  async open(name) {
    if (!databases.has(name)) databases.set(name, new Map());
    return handleFor(name);
  },
  async destroy(name) {
    databases.delete(name);
  },
};
