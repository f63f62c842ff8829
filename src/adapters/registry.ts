import type { StoreAdapter } from '../core/store/adapter.ts';
import type { Wraps } from '../core/plan/variant.ts';
import { dexieAdapter } from './indexeddb/dexie.ts';
import { idbAdapter } from './indexeddb/idb.ts';
import { indexeddbRawAdapter } from './indexeddb/indexeddb-raw.ts';
import { localforageIndexeddbAdapter } from './localforage/localforage-indexeddb.ts';
import { localforageLocalstorageAdapter } from './localforage/localforage-localstorage.ts';
import { localforageWebsqlAdapter } from './localforage/localforage-websql.ts';
import { localstorageAdapter } from './web-storage/localstorage.ts';
import { memoryAdapter } from './memory.ts';
import { pouchdbIdb7Adapter, pouchdbIdbAdapter } from './pouchdb/pouchdb-idb.ts';
import { pouchdbIndexeddbAdapter } from './pouchdb/pouchdb-indexeddb.ts';
import { sqliteOpfsAdapter } from './sqlite/sqlite-opfs.ts';
import { USER_ADAPTERS } from './user/user-adapters.ts';
import { variantAdapter, wrapsOf } from './variants/variants.ts';
import { websqlAdapter } from './websql/websql.ts';
import { writeBehindAdapter } from './indexeddb/write-behind.ts';

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

/** The packages each adapter wraps: those take `@VERSION` and `@file:DIR` variants (core/plan/variant.ts). */
export const ADAPTER_WRAPS: Readonly<Record<string, Wraps>> = wrapsOf(ADAPTERS);

/** A registered adapter, or a variant of one (`ADAPTER@SPEC`, core/plan/variant.ts): registered ids win. */
export function adapterById(id: string): StoreAdapter {
  const adapter = ADAPTERS.find((a) => a.id === id);
  if (adapter) return adapter;
  if (id.includes('@')) return variantAdapter(id, ADAPTERS);
  throw new RangeError(`unknown adapter "${id}"; allowed: ${ADAPTER_IDS.join(', ')}`);
}
