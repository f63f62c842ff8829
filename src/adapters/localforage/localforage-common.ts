import installed from 'localforage';
import type { Backend, Doc, StoreAdapter, StoreHandle } from '../../core/store/adapter.ts';
import type { Capability } from '../../core/store/capabilities.ts';
import { applyFind, countMatches } from '../../core/store/query.ts';
import type { VariantBuild } from '../../core/plan/variant.ts';
import { Library } from '../variants/library.ts';
import { selectRange } from '../range.ts';
import { drained } from '../indexeddb/drain.ts';

/** The localforage object: the installed package's, or a variant's build of it. */
type Localforage = typeof installed;

/**
 * localForage is a key-value API with one call per key: no batch write, batch read or batch
 * remove, so bulkWrite, getMany and bulkRemove are not declared and those cases show as
 * unsupported rather than timing a loop under a batch's name. Ranges are answered from the
 * sorted key list, as range.ts intends, with no native skip. Queries read every document
 * with iterate and filter them in JS: localForage has no index to declare.
 */
const CAPABILITIES: readonly Capability[] = ['keyRange', 'count', 'update', 'remove', 'query'];

/** Every document, in one pass of iterate (a cursor on IndexedDB, a SELECT on WebSQL, the keys in turn on localStorage). */
async function allDocs(store: LocalForage): Promise<Doc[]> {
  const docs: Doc[] = [];
  // iterate stops at the first callback that returns anything but undefined.
  await store.iterate<Doc, void>((doc) => {
    docs.push(doc);
  });
  return docs;
}

/**
 * Drop the database, and make sure it is gone. localForage's localStorage driver removes keys
 * while walking localStorage.key(i) from the end, but removing a key may reorder the others
 * (Chromium does), so with thousands of keys one can survive the walk. Collect the leftover keys
 * first, then remove them.
 */
async function drop(store: LocalForage, name: string, localStorageDriver: boolean): Promise<void> {
  // dropInstance closes the shared connection and deletes at once; its last transaction first.
  const connection = (store as unknown as { _dbInfo?: { db?: unknown } })._dbInfo?.db;
  if (typeof IDBDatabase !== 'undefined' && connection instanceof IDBDatabase)
    await drained(connection);
  await store.dropInstance({ name });
  if (!localStorageDriver) return;
  const prefix = `${name}/`;
  const leftover: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith(prefix)) leftover.push(key);
  }
  for (const key of leftover) localStorage.removeItem(key);
}

function handleFor(store: LocalForage, name: string, localStorageDriver: boolean): StoreHandle {
  // localForage has no close(): it keeps one connection per database name for the page's
  // lifetime and shares it between instances. Closing only ends this handle.
  let open = true;
  const live = () => {
    if (!open) throw new Error(`localForage database ${name} is closed`);
    return store;
  };
  return {
    async put(doc) {
      await live().setItem(doc._id, doc);
    },
    async get(id) {
      return (await live().getItem<Doc>(id)) ?? undefined;
    },
    count: async () => live().length(),
    async range(range) {
      const s = live();
      // The default sort compares UTF-16 code units, the order IndexedDB uses for string keys.
      const ids = selectRange((await s.keys()).sort(), range);
      const docs = await Promise.all(ids.map((id) => s.getItem<Doc>(id)));
      return docs.filter((d): d is Doc => d !== null);
    },
    async update(doc) {
      const s = live();
      if ((await s.getItem(doc._id)) === null) throw new Error(`no document ${doc._id} to update`);
      await s.setItem(doc._id, doc);
    },
    async remove(id) {
      await live().removeItem(id);
    },
    find: async (query) => applyFind(await allDocs(live()), query),
    countWhere: async (query) => countMatches(await allDocs(live()), query),
    async close() {
      open = false;
    },
    async destroy() {
      open = false;
      await drop(store, name, localStorageDriver);
    },
  };
}

export interface LocalforageSpec {
  id: string;
  label: string;
  backend: Backend;
  /** The driver, by the name of its constant on localforage. */
  driver: 'INDEXEDDB' | 'LOCALSTORAGE' | 'WEBSQL';
  /** The one-line reason shown when the driver is missing here. */
  unavailable: string;
  /** Whether the driver's storage exists in a dedicated Worker (localStorage never does). */
  worker: boolean;
}

/** localForage pinned to one driver, so each storage is measured on its own. */
export function localforageAdapter(
  spec: LocalforageSpec,
  library: Library<Localforage> = Library.of(installed),
): StoreAdapter {
  const localStorageDriver = spec.driver === 'LOCALSTORAGE';
  const instance = async (name: string) => {
    const localforage = await library.get();
    return localforage.createInstance({ name, driver: localforage[spec.driver] });
  };
  return {
    id: spec.id,
    label: spec.label,
    backend: spec.backend,
    capabilities: spec.worker ? [...CAPABILITIES, 'worker'] : CAPABILITIES,
    async supported() {
      const localforage = await library.get();
      return localforage.supports(localforage[spec.driver]) ? true : spec.unavailable;
    },
    async open(name) {
      const store = await instance(name);
      // createInstance returns at once and connects lazily; ready() makes open() do the connecting.
      await store.ready();
      return handleFor(store, name, localStorageDriver);
    },
    // Without a storeName, dropInstance removes the whole database: IndexedDB's deleteDatabase,
    // every `name/` key in localStorage, or every table in the WebSQL database.
    async destroy(name) {
      await drop(await instance(name), name, localStorageDriver);
    },
    wraps: { packages: ['localforage'] },
    variant: (build: VariantBuild) =>
      localforageAdapter(
        { ...spec, id: build.id, label: `${spec.label}, ${build.what}` },
        Library.lazy(async () => ((await build.load())[0] as { default: Localforage }).default),
      ),
  };
}
