// The memory store, counting the databases it is asked to open: how the runner tests see which
// samples shared a database and which had one of their own.
import { memoryAdapter } from '../../../../src/adapters/memory.ts';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';

export function counting(): { adapter: StoreAdapter; opens: () => number } {
  let opens = 0;
  const adapter: StoreAdapter = {
    ...memoryAdapter,
    open: (name, options) => (opens++, memoryAdapter.open(name, options)),
  };
  return { adapter, opens: () => opens };
}
