import { localforageAdapter } from './localforage-common.ts';

/**
 * localForage's localStorage driver: each document is JSON in a `name/keyvaluepairs/<id>` key.
 * localStorage is synchronous and about 5 MB per origin in every engine, so large sizes fail.
 */
export const localforageLocalstorageAdapter = localforageAdapter({
  id: 'localforage-localstorage',
  label: 'localForage (localStorage driver)',
  backend: 'localstorage',
  driver: 'LOCALSTORAGE',
  unavailable: 'localStorage is not available here (never in a Worker)',
  worker: false,
});
