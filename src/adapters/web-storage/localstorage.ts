import type { Doc, StoreAdapter, StoreHandle } from '../../core/store/adapter.ts';
import type { Capability } from '../../core/store/capabilities.ts';
import { applyFind, countMatches } from '../../core/store/query.ts';
import { selectRange } from '../range.ts';

/**
 * Raw localStorage: each document is JSON under the key `<name>/<id>`, with the database name
 * URI-encoded so it holds no `/` and one database's prefix is never another's.
 *
 * There is no key index: count, range and queries scan every key of the origin's localStorage
 * for the prefix (O(keys in the origin), plus parsing the documents a range or query returns).
 * A stored index would have to be rewritten whole on every put, which makes N single inserts
 * cost O(N²), and could disagree with the keys after a failed write; the scan is always right,
 * and localStorage's quota (about 5 MB per origin in every engine) keeps it small.
 *
 * localStorage has no batch calls and no transactions, so bulkWrite, getMany, bulkUpdate and
 * bulkRemove are not declared: those cases show as unsupported rather than timing a loop under
 * a batch's name. It does not exist in Workers.
 */
const CAPABILITIES: readonly Capability[] = ['keyRange', 'count', 'update', 'remove', 'query'];

const prefixOf = (name: string) => `${encodeURIComponent(name)}/`;

function storage(): Storage {
  let s: Storage | undefined;
  try {
    s = globalThis.localStorage;
  } catch (e) {
    // Reading the property throws a SecurityError where the user blocked site data.
    throw new Error(
      `localStorage is blocked here: ${e instanceof Error ? e.message : String(e)}`.split('\n')[0],
      { cause: e },
    );
  }
  if (!s) throw new Error('localStorage is not available here (never in a Worker)');
  return s;
}

/** The ids of the database, unsorted: every key of the origin with its prefix, prefix removed. */
function idsOf(s: Storage, prefix: string): string[] {
  const ids: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const key = s.key(i);
    if (key !== null && key.startsWith(prefix)) ids.push(key.slice(prefix.length));
  }
  return ids;
}

function handleFor(name: string): StoreHandle {
  const prefix = prefixOf(name);
  // localStorage has no connection to close: closing only ends this handle.
  let open = true;
  const live = () => {
    if (!open) throw new Error(`localStorage database ${name} is closed`);
    return storage();
  };
  const read = (s: Storage, id: string): Doc | undefined => {
    const text = s.getItem(prefix + id);
    return text === null ? undefined : (JSON.parse(text) as Doc);
  };
  const all = (s: Storage) => idsOf(s, prefix).map((id) => read(s, id) as Doc);
  return {
    async put(doc) {
      live().setItem(prefix + doc._id, JSON.stringify(doc));
    },
    async get(id) {
      return read(live(), id);
    },
    async count() {
      return idsOf(live(), prefix).length;
    },
    async range(range) {
      const s = live();
      // The default sort compares UTF-16 code units, the order IndexedDB uses for string keys.
      return selectRange(idsOf(s, prefix).sort(), range).map((id) => read(s, id) as Doc);
    },
    async update(doc) {
      const s = live();
      if (s.getItem(prefix + doc._id) === null) throw new Error(`no document ${doc._id} to update`);
      s.setItem(prefix + doc._id, JSON.stringify(doc));
    },
    async remove(id) {
      live().removeItem(prefix + id);
    },
    find: async (query) => applyFind(all(live()), query),
    countWhere: async (query) => countMatches(all(live()), query),
    async close() {
      open = false;
    },
    async destroy() {
      open = false;
      removeAll(name);
    },
  };
}

function removeAll(name: string): void {
  const s = storage();
  const prefix = prefixOf(name);
  // Collect first: removing while walking by index would skip keys.
  for (const id of idsOf(s, prefix)) s.removeItem(prefix + id);
}

export const localstorageAdapter: StoreAdapter = {
  id: 'localstorage',
  label: 'localStorage (raw, JSON)',
  backend: 'localstorage',
  capabilities: CAPABILITIES,
  lacks: {
    bulkWrite:
      'localStorage has no batch call; a loop of setItem would be timed under a batch name',
    getMany: 'localStorage has no batch call',
    bulkUpdate: 'localStorage has no batch call or transaction',
    bulkRemove: 'localStorage has no batch call',
    worker: 'localStorage does not exist in Workers',
  },
  supported() {
    try {
      storage();
      return true;
    } catch (e) {
      return (e as Error).message;
    }
  },
  async open(name) {
    storage();
    return handleFor(name);
  },
  async destroy(name) {
    removeAll(name);
  },
};
