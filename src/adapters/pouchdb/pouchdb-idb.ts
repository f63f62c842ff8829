import type { StoreAdapter } from '../../core/store/adapter.ts';
import type { VariantBuild, Wraps } from '../../core/plan/variant.ts';
import { blobPutFails, primeBlobCheck } from './idb-blob-probe.ts';
import { pouchAdapter, withPlugins, type PouchConstructor } from './pouchdb-common.ts';
import { legacyPouch, type OldPouch } from './pouchdb-legacy.ts';

type PouchModule = {
  default: Parameters<typeof withPlugins>[0] & {
    plugin(p: unknown): Parameters<typeof withPlugins>[0];
  };
};

/**
 * PouchDB releases in lockstep: pouchdb-browser and pouchdb-find of one version. Before 6.2 no
 * pouchdb-find came with a release, and before 5.4.4 there was no pouchdb-browser: those
 * versions are the one `pouchdb` package, CommonJS for browserify (pouchdb-legacy.ts).
 */
const WRAPS: Wraps = {
  packages: ['pouchdb-browser', 'pouchdb-find'],
  before: { version: '6.2.0', packages: ['pouchdb'] },
};

/** PouchDB on the idb adapter from these modules, with pouchdb-find installed. */
async function withFind(imports: Promise<unknown[]>): Promise<PouchConstructor> {
  const [{ default: PouchDB }, { default: PouchFind }] = (await imports) as [
    PouchModule,
    { default: unknown },
  ];
  return withPlugins(PouchDB.plugin(PouchFind));
}

/**
 * PouchDB on its `idb` adapter (one IndexedDB database with by-sequence and doc stores), from
 * the modules `load` gives: the current packages, an older major installed under an npm alias, or
 * a variant's build (core/plan/variant.ts), so versions run side by side in one sweep.
 */
function pouchIdb(
  id: string,
  label: string,
  load: () => Promise<PouchConstructor>,
  legacy = false,
  wraps?: Wraps,
): StoreAdapter {
  return pouchAdapter({
    id,
    label,
    adapter: 'idb',
    compoundIndexNeedsEveryField: false,
    legacy,
    async load() {
      const Pouch = await load();
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
    ...(wraps && { wraps, variant: variantOfIdb }),
  });
}

function variantOfIdb(build: VariantBuild): StoreAdapter {
  const load = build.legacy
    ? async () => legacyPouch(((await build.load())[0] as { default: OldPouch }).default)
    : () => withFind(build.load());
  return pouchIdb(build.id, `PouchDB (idb adapter, ${build.what})`, load, build.legacy, WRAPS);
}

/** PouchDB 9's default browser adapter. pouchdb-browser bundles it and map/reduce; pouchdb-find is installed for the suites that query. */
export const pouchdbIdbAdapter = pouchIdb(
  'pouchdb-idb',
  'PouchDB (idb adapter)',
  () => withFind(Promise.all([import('pouchdb-browser'), import('pouchdb-find')])),
  false,
  WRAPS,
);

/**
 * PouchDB 7.3.1 on the same adapter (package.json installs it as pouchdb-browser-7 and
 * pouchdb-find-7), for "change in speed" between versions as the PouchDB 2.2.0 report gave it.
 * Named explicitly only: the default plan leaves out every adapter id with an `@`.
 */
export const pouchdbIdb7Adapter = pouchIdb(
  'pouchdb-idb@7.3.1',
  'PouchDB 7.3.1 (idb adapter)',
  () => {
    // 7.3.1's CommonJS build reads Node's `global` as it loads. vite.config.ts defines it for the
    // build, but Vite's dev server pre-bundles dependencies without that define.
    (globalThis as { global?: unknown }).global ??= globalThis;
    return withFind(Promise.all([import('pouchdb-browser-7'), import('pouchdb-find-7')]));
  },
);
