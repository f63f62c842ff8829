import { blobPutFails, primeBlobCheck } from './idb-blob-probe.ts';
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
    const Pouch = withPlugins(PouchDB.plugin(PouchFind));
    // Where IndexedDB cannot store a Blob (WebKitGTK), PouchDB's first open wedges every later
    // one in the page; idb-blob-probe.ts has the cause. Done once per page or Worker, before any case.
    if ((await blobPutFails()) === true) {
      // destroy() waits for the database's setup, where the check runs, then deletes it.
      await primeBlobCheck(async (name) => {
        await new Pouch(name, { adapter: 'idb' }).destroy();
      });
    }
    return Pouch;
  },
});
