import type { StoreAdapter } from '../core/adapter.ts';
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
import { websqlAdapter } from './websql.ts';
import { writeBehindAdapter } from './write-behind.ts';

/**
 * Every adapter, in display order. Adding a store is one file in src/adapters/ and one line
 * here; nothing registers itself on import.
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
];

export const ADAPTER_IDS: readonly string[] = ADAPTERS.map((a) => a.id);

export function adapterById(id: string): StoreAdapter {
  const adapter = ADAPTERS.find((a) => a.id === id);
  if (!adapter) throw new RangeError(`unknown adapter "${id}"; allowed: ${ADAPTER_IDS.join(', ')}`);
  return adapter;
}
