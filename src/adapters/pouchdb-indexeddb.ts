import { pouchAdapter, withPlugins } from './pouchdb-common.ts';

/**
 * PouchDB's newer `indexeddb` adapter: one object store of whole documents with their revision
 * trees, and native IndexedDB indexes for pouchdb-find. It refuses a database that the idb adapter
 * created ("Incorrect adapter"), so the two never share a name.
 */
export const pouchdbIndexeddbAdapter = pouchAdapter({
  id: 'pouchdb-indexeddb',
  label: 'PouchDB (indexeddb adapter)',
  adapter: 'indexeddb',
  compoundIndexNeedsEveryField: true,
  // Installing a plugin twice is harmless: PouchDB.plugin only (re)assigns adapters and methods.
  async load() {
    const [{ default: PouchDB }, { default: IndexeddbAdapter }, { default: PouchFind }] = await Promise.all([
      import('pouchdb-browser'),
      import('pouchdb-adapter-indexeddb'),
      import('pouchdb-find'),
    ]);
    return withPlugins(PouchDB.plugin(IndexeddbAdapter).plugin(PouchFind));
  },
});
