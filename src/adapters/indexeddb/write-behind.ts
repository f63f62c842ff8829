import type { Doc, StoreAdapter, StoreHandle } from '../../core/store/adapter.ts';
import { idbAdapter } from './idb.ts';

/** How long an acknowledged write may wait in memory before it is written. */
const FLUSH_MS = 1_000;

/**
 * `idb@write-behind`: a control for the crash suite, not a store to use. It acknowledges every
 * write at once and writes them to `idb` in one transaction a second later, the way a write-behind
 * cache does. A crash within that second loses writes it acknowledged, so the crash suite must
 * report losses for it; a suite that reported none would be measuring nothing. Reads, counts and
 * close write out what waits first, so it answers every other case like `idb`. Opt-in, like every
 * id with an `@`: the default plan leaves it out.
 */
export const writeBehindAdapter: StoreAdapter = {
  id: 'idb@write-behind',
  label: 'idb behind a write-behind cache (crash control)',
  backend: 'indexeddb',
  capabilities: ['bulkWrite', 'count'],
  supported: () => idbAdapter.supported(),
  async open(name, options) {
    return writeBehind(await idbAdapter.open(name, options));
  },
  destroy: (name) => idbAdapter.destroy(name),
};

function writeBehind(inner: StoreHandle): StoreHandle {
  let waiting: Doc[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = waiting;
    waiting = [];
    if (batch.length > 0) await inner.bulkPut!(batch);
  };
  const later = (docs: readonly Doc[]) => {
    waiting.push(...docs);
    timer ??= setTimeout(() => void flush(), FLUSH_MS);
    return Promise.resolve();
  };
  return {
    put: (doc) => later([doc]),
    bulkPut: (docs) => later(docs),
    get: async (id) => (await flush(), inner.get(id)),
    count: async () => (await flush(), inner.count()),
    close: async () => (await flush(), inner.close()),
    destroy: async () => {
      clearTimeout(timer);
      waiting = [];
      await inner.destroy();
    },
  };
}
