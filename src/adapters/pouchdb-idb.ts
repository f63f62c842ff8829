import { pouchAdapter, withPlugins } from './pouchdb-common.ts';

/** PouchDB 9's default browser adapter: one IndexedDB database with by-sequence and doc stores. */
export const pouchdbIdbAdapter = pouchAdapter({
  id: 'pouchdb-idb',
  label: 'PouchDB (idb adapter)',
  adapter: 'idb',
  compoundIndexNeedsEveryField: false,
  // pouchdb-browser bundles the idb adapter and map/reduce; pouchdb-find is installed for the suites that query.
  async load() {
    const [{ default: PouchDB }, { default: PouchFind }] = await Promise.all([import('pouchdb-browser'), import('pouchdb-find')]);
    return withPlugins(PouchDB.plugin(PouchFind));
  },
});
