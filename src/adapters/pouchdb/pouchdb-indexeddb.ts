import type { StoreAdapter } from '../../core/store/adapter.ts';
import type { VariantBuild, Wraps } from '../../core/plan/variant.ts';
import { pouchAdapter, withPlugins, type PouchConstructor } from './pouchdb-common.ts';

type PouchModule = {
  default: Parameters<typeof withPlugins>[0] & { plugin(p: unknown): PouchModule['default'] };
};

/** The three packages of one PouchDB release; pouchdb-adapter-indexeddb came with 7.2.2. */
const WRAPS: Wraps = { packages: ['pouchdb-browser', 'pouchdb-adapter-indexeddb', 'pouchdb-find'] };

// Installing a plugin twice is harmless: PouchDB.plugin only (re)assigns adapters and methods.
async function withPluginsFrom(imports: Promise<unknown[]>): Promise<PouchConstructor> {
  const [{ default: PouchDB }, { default: IndexeddbAdapter }, { default: PouchFind }] =
    (await imports) as [PouchModule, { default: unknown }, { default: unknown }];
  return withPlugins(PouchDB.plugin(IndexeddbAdapter).plugin(PouchFind));
}

/**
 * PouchDB's newer `indexeddb` adapter: one object store of whole documents with their revision
 * trees, and native IndexedDB indexes for pouchdb-find. It refuses a database that the idb adapter
 * created ("Incorrect adapter"), so the two never share a name.
 */
function pouchIndexeddb(
  id: string,
  label: string,
  load: () => Promise<PouchConstructor>,
): StoreAdapter {
  return pouchAdapter({
    id,
    label,
    adapter: 'indexeddb',
    compoundIndexNeedsEveryField: true,
    // Every open raises the IndexedDB version (it embeds a timestamp), which fires versionchange on
    // the other connections to the same database and closes them mid-use; each connection also
    // keeps its own update sequence and document count. Writers in several Workers then fail with
    // "connection is closing" or lose updates. Seen here in Chromium with 2+ Workers.
    lacks: {
      worker:
        "PouchDB 9's indexeddb adapter breaks when several connections share one database (apache/pouchdb#8209; cause described in apache/pouchdb#9212)",
    },
    load,
    wraps: WRAPS,
    variant: (build: VariantBuild) =>
      pouchIndexeddb(build.id, `PouchDB (indexeddb adapter, ${build.what})`, () =>
        withPluginsFrom(build.load()),
      ),
  });
}

export const pouchdbIndexeddbAdapter = pouchIndexeddb(
  'pouchdb-indexeddb',
  'PouchDB (indexeddb adapter)',
  () =>
    withPluginsFrom(
      Promise.all([
        import('pouchdb-browser'),
        import('pouchdb-adapter-indexeddb'),
        import('pouchdb-find'),
      ]),
    ),
);
