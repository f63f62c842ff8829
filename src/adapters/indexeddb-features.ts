import type { Capability } from '../core/capabilities.ts';

/**
 * What an IndexedDB store offers in this engine, shared by the adapters that drive IndexedDB
 * directly (idb, Dexie).
 *
 * The durability hint is Baseline only since 2024, Firefox 126 being the last to ship it
 * (https://developer.mozilla.org/docs/Web/API/IDBTransaction/durability). An older engine would
 * ignore the option silently, so the capability is declared only where the engine has it.
 */
export const HAS_DURABILITY = typeof IDBTransaction !== 'undefined' && 'durability' in IDBTransaction.prototype;

/** Capabilities of a store that uses IndexedDB's own batch calls, key ranges, cursors and indexes. */
export const INDEXEDDB_CAPABILITIES: readonly Capability[] = [
  'bulkWrite',
  'getMany',
  'keyRange',
  'skip',
  'count',
  'update',
  'bulkUpdate',
  'remove',
  'bulkRemove',
  'secondaryIndex',
  'query',
  ...(HAS_DURABILITY ? (['durability'] as const) : []),
  'worker',
];
