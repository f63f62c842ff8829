/**
 * Whether `openDatabase` is the browser's own WebSQL or the test shim that emulates it over
 * SQLite Wasm (tests/e2e/websql-shim.ts). No engine the tests run in has WebSQL, so the WebSQL
 * adapters are tested against the shim; the shim sets this global so that no label or result
 * can pass an emulated run off as a browser's WebSQL.
 */
export const WEBSQL_EMULATION_MARKER = '__storebenchWebSqlEmulation';

/** The shim's description of itself, when it is installed. */
function webSqlEmulation(): string | undefined {
  const value = (globalThis as Record<string, unknown>)[WEBSQL_EMULATION_MARKER];
  return typeof value === 'string' ? value : undefined;
}

/** The adapter's label, saying so when WebSQL is emulated. */
export function webSqlLabel(label: string): string {
  const emulated = webSqlEmulation();
  return emulated ? `${label}, ${emulated}` : label;
}

/** For StoreAdapter.describe: where openDatabase came from. */
export function describeWebSql(): Record<string, string> {
  const emulated = webSqlEmulation();
  if (emulated) return { webSql: emulated };
  return typeof (globalThis as { openDatabase?: unknown }).openDatabase === 'function'
    ? { webSql: 'the browser’s own' }
    : {};
}
