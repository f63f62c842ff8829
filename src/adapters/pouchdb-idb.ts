import { blobPutFails, primeBlobCheck } from './idb-blob-probe.ts';
import { pouchAdapter, withPlugins } from './pouchdb-common.ts';

type PouchModule = { default: Parameters<typeof withPlugins>[0] & { plugin(p: unknown): Parameters<typeof withPlugins>[0] } };

/**
 * PouchDB on its `idb` adapter (one IndexedDB database with by-sequence and doc stores), from
 * the pouchdb-browser and pouchdb-find packages that `imports` loads: the current ones, or an
 * older major installed under an npm alias, so versions run side by side in one sweep.
 */
function pouchIdb(id: string, label: string, imports: () => Promise<[PouchModule, { default: unknown }]>) {
  return pouchAdapter({
    id,
    label,
    adapter: 'idb',
    compoundIndexNeedsEveryField: false,
    async load() {
      const [{ default: PouchDB }, { default: PouchFind }] = await imports();
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
}

/** PouchDB 9's default browser adapter. pouchdb-browser bundles it and map/reduce; pouchdb-find is installed for the suites that query. */
export const pouchdbIdbAdapter = pouchIdb('pouchdb-idb', 'PouchDB (idb adapter)', () =>
  Promise.all([import('pouchdb-browser'), import('pouchdb-find')]) as unknown as Promise<[PouchModule, { default: unknown }]>,
);

/**
 * PouchDB 7.3.1 on the same adapter (package.json installs it as pouchdb-browser-7 and
 * pouchdb-find-7), for "change in speed" between versions as the PouchDB 2.2.0 report gave it.
 * Named explicitly only: the default plan leaves out every adapter id with an `@`.
 */
export const pouchdbIdb7Adapter = pouchIdb('pouchdb-idb@7.3.1', 'PouchDB 7.3.1 (idb adapter)', () => {
  // 7.3.1's CommonJS build reads Node's `global` as it loads. vite.config.ts defines it for the
  // build, but Vite's dev server pre-bundles dependencies without that define.
  (globalThis as { global?: unknown }).global ??= globalThis;
  return Promise.all([import('pouchdb-browser-7'), import('pouchdb-find-7')]) as unknown as Promise<[PouchModule, { default: unknown }]>;
});
