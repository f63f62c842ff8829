import type { StoreAdapter } from '../../core/store/adapter.ts';
import { localforageAdapter } from './localforage-common.ts';
import { describeWebSql, webSqlLabel } from '../websql/websql-origin.ts';

const adapter = localforageAdapter({
  id: 'localforage-websql',
  label: 'localForage (WebSQL driver)',
  backend: 'websql',
  driver: 'WEBSQL',
  unavailable: 'WebSQL (openDatabase) is not available in this browser',
  // Engines differed on whether workers got openDatabase, and none here has WebSQL to check.
  worker: false,
});

/** A page running the test shim labels these rows as emulated, and so do its variants. */
function sayingWhenEmulated(inner: StoreAdapter): StoreAdapter {
  return {
    ...inner,
    // A getter, so that a page running the test shim labels these rows as emulated.
    get label() {
      return webSqlLabel(inner.label);
    },
    describe: describeWebSql,
    variant: (build) =>
      sayingWhenEmulated((inner.variant as NonNullable<StoreAdapter['variant']>)(build)),
  };
}

/** localForage's WebSQL driver: one table of key-value rows, values serialised to text. */
export const localforageWebsqlAdapter: StoreAdapter = sayingWhenEmulated(adapter);
