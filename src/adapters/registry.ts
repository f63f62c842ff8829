import type { StoreAdapter } from '../core/adapter.ts';
import type { Wraps } from '../core/variant.ts';
import { dexieAdapter } from './dexie.ts';
import { idbAdapter } from './idb.ts';
import { indexeddbRawAdapter } from './indexeddb-raw.ts';
import { localforageIndexeddbAdapter } from './localforage-indexeddb.ts';
import { localforageLocalstorageAdapter } from './localforage-localstorage.ts';
import { localforageWebsqlAdapter } from './localforage-websql.ts';
import { localstorageAdapter } from './localstorage.ts';
import { memoryAdapter } from './memory.ts';
import { pouchdbIdb7Adapter, pouchdbIdbAdapter } from './pouchdb-idb.ts';
import { pouchdbIndexeddbAdapter } from './pouchdb-indexeddb.ts';
import { sqliteOpfsAdapter } from './sqlite-opfs.ts';
import { USER_ADAPTERS } from './user-adapters.ts';
import { variantAdapter, wrapsOf } from './variants.ts';
import { websqlAdapter } from './websql.ts';
import { writeBehindAdapter } from './write-behind.ts';

/**
 * Every adapter, in display order, then those of a store author's config (user-adapters.ts).
 * Adding a store to storebench is one file in src/adapters/ and one line here; nothing registers
 * itself on import.
 */
export const ADAPTERS: readonly StoreAdapter[] = [
  pouchdbIdbAdapter,
  pouchdbIndexeddbAdapter,
  idbAdapter,
  indexeddbRawAdapter,
  dexieAdapter,
  localforageIndexeddbAdapter,
  localforageLocalstorageAdapter,
  localforageWebsqlAdapter,
  websqlAdapter,
  sqliteOpfsAdapter,
  localstorageAdapter,
  memoryAdapter,
  pouchdbIdb7Adapter,
  writeBehindAdapter,
  ...USER_ADAPTERS,
];

export const ADAPTER_IDS: readonly string[] = ADAPTERS.map((a) => a.id);

/** The packages each adapter wraps: those take `@VERSION` and `@file:DIR` variants (core/variant.ts). */
export const ADAPTER_WRAPS: Readonly<Record<string, Wraps>> = wrapsOf(ADAPTERS);

/** A registered adapter, or a variant of one (`ADAPTER@SPEC`, core/variant.ts): registered ids win. */
export function adapterById(id: string): StoreAdapter {
  const adapter = ADAPTERS.find((a) => a.id === id);
  if (adapter) return adapter;
  if (id.includes('@')) return variantAdapter(id, ADAPTERS);
  throw new RangeError(`unknown adapter "${id}"; allowed: ${ADAPTER_IDS.join(', ')}`);
}
