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
  // Every open raises the IndexedDB version (it embeds a timestamp), which fires versionchange on
  // the other connections to the same database and closes them mid-use; each connection also
  // keeps its own update sequence and document count. Writers in several Workers then fail with
  // "connection is closing" or lose updates. Seen here in Chromium with 2+ Workers.
  lacks: {
    worker: "PouchDB 9's indexeddb adapter breaks when several connections share one database (apache/pouchdb#8209; cause described in apache/pouchdb#9212)",
  },
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
