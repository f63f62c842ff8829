import { localforageAdapter } from './localforage-common.ts';

/** localForage's IndexedDB driver: one database per name, one object store of key-value pairs. */
export const localforageIndexeddbAdapter = localforageAdapter({
  id: 'localforage-indexeddb',
  label: 'localForage (IndexedDB driver)',
  backend: 'indexeddb',
  driver: 'INDEXEDDB',
  unavailable: 'IndexedDB is not available here (or localForage judged it too old to use)',
  worker: true,
});
