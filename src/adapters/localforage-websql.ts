import localforage from 'localforage';
import type { StoreAdapter } from '../core/adapter.ts';
import { localforageAdapter } from './localforage-common.ts';
import { describeWebSql, webSqlLabel } from './websql-origin.ts';

const adapter = localforageAdapter({
  id: 'localforage-websql',
  label: 'localForage (WebSQL driver)',
  backend: 'websql',
  driver: localforage.WEBSQL,
  unavailable: 'WebSQL (openDatabase) is not available in this browser',
  // Engines differed on whether workers got openDatabase, and none here has WebSQL to check.
  worker: false,
});

/** localForage's WebSQL driver: one table of key-value rows, values serialised to text. */
export const localforageWebsqlAdapter: StoreAdapter = {
  ...adapter,
  // A getter, so that a page running the test shim labels these rows as emulated.
  get label() {
    return webSqlLabel(adapter.label);
  },
  describe: describeWebSql,
};
