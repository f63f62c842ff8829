import localforage from 'localforage';
import { localforageAdapter } from './localforage-common.ts';

/** localForage's WebSQL driver: one table of key-value rows, values serialised to text. */
export const localforageWebsqlAdapter = localforageAdapter({
  id: 'localforage-websql',
  label: 'localForage (WebSQL driver)',
  backend: 'websql',
  driver: localforage.WEBSQL,
  unavailable: 'WebSQL (openDatabase) is not available in this browser',
  // Engines differed on whether workers got openDatabase, and none here has WebSQL to check.
  worker: false,
});
