import type { StoreAdapter } from '../core/adapter.ts';
import { memoryAdapter } from './memory.ts';

/**
 * Every adapter, in display order. Adding a store is one file in src/adapters/ and one line
 * here; nothing registers itself on import.
 */
export const ADAPTERS: readonly StoreAdapter[] = [
  memoryAdapter,
];

export const ADAPTER_IDS: readonly string[] = ADAPTERS.map((a) => a.id);

export function adapterById(id: string): StoreAdapter {
  const adapter = ADAPTERS.find((a) => a.id === id);
  if (!adapter) throw new RangeError(`unknown adapter "${id}"; allowed: ${ADAPTER_IDS.join(', ')}`);
  return adapter;
}
