/**
 * A full garbage collection a page may ask for, where the engine lets it: the `gc` cure
 * (core/plan/cures.ts) runs it before each sample, outside the timed section, so a sample does
 * not pay for the garbage the samples before it left. Chromium's `gc()` exists with V8's
 * --expose-gc (the driver adds it) and collects synchronously; Firefox's `TestUtils.gc()` exists
 * with dom.testing.testutils.enabled (Playwright's Firefox profile sets it) and resolves after a
 * full collection and a cycle collection. WebKitGTK exposes neither to a page.
 */
interface GcGlobals {
  gc?: () => void;
  TestUtils?: { gc?: () => Promise<void> };
}

export interface PageGc {
  /** The call, for the environment's `forcedGc`. */
  how: string;
  collect(): Promise<void>;
}

export function pageGc(): PageGc | null {
  const g = globalThis as GcGlobals;
  const gc = g.gc;
  if (typeof gc === 'function') return { how: 'gc()', collect: () => Promise.resolve(gc()) };
  const utils = g.TestUtils;
  if (typeof utils?.gc === 'function')
    return { how: 'TestUtils.gc()', collect: () => (utils.gc as () => Promise<void>)() };
  return null;
}
