import type { Capability } from './capabilities.ts';

/**
 * A JSON document as every adapter sees it. `_id` is the primary key; adapters never add fields
 * of their own to what `get` returns (PouchDB's `_rev` is stripped), so every store hands back
 * exactly what it was given.
 */
export interface Doc {
  _id: string;
  [field: string]: unknown;
}

/** A key range over `_id`, inclusive at both ends, in ascending order unless `descending`. */
export interface KeyRange {
  gte?: string;
  lte?: string;
  limit?: number;
  skip?: number;
  descending?: boolean;
}

export type Durability = 'default' | 'relaxed' | 'strict';

export interface OpenOptions {
  /** Transaction durability, for adapters that declare `durability`. */
  durability?: Durability;
}

/**
 * An open database. `put`, `get`, `count`, `close` and `destroy` exist on every store; the rest
 * exist when the adapter declares the capability in brackets. The contract test checks that each
 * declared capability has its method and that all stores agree on the results.
 */
export interface StoreHandle {
  /** Write a new document. The suites only insert ids that are not in the store yet. */
  put(doc: Doc): Promise<void>;
  /** The document with this id, or `undefined`. */
  get(id: string): Promise<Doc | undefined>;
  /** The number of documents. Stores without a native count [count] may read to count. */
  count(): Promise<number>;
  /** [bulkWrite] Write many new documents in one call. */
  bulkPut?(docs: readonly Doc[]): Promise<void>;
  /** [getMany] The documents with these ids, in the same order, `undefined` where absent. */
  getMany?(ids: readonly string[]): Promise<(Doc | undefined)[]>;
  /** [keyRange] Documents in `_id` order within the range. [skip] says `skip` is native. */
  range?(range: KeyRange): Promise<Doc[]>;
  /** [update] Replace an existing document with this one (same `_id`). */
  update?(doc: Doc): Promise<void>;
  /** [remove] Remove the document with this id. */
  remove?(id: string): Promise<void>;
  /** [bulkRemove] Remove the documents with these ids in one call. */
  bulkRemove?(ids: readonly string[]): Promise<void>;
  /** Close the connection. The data stays. */
  close(): Promise<void>;
  /** Close and delete the database and all its data. */
  destroy(): Promise<void>;
}

export type Backend = 'indexeddb' | 'websql' | 'localstorage' | 'opfs' | 'memory' | 'other';

/**
 * The only code that knows a store's API. One file per store in src/adapters/, listed once in
 * src/adapters/registry.ts. Nothing registers itself on import.
 */
export interface StoreAdapter {
  /** Stable id used in plans, results files and URLs, e.g. `pouchdb-idb`. */
  readonly id: string;
  /** Human label, e.g. `PouchDB (idb adapter)`. */
  readonly label: string;
  readonly backend: Backend;
  readonly capabilities: readonly Capability[];
  /** `true` when the store can run here, otherwise a one-line reason it cannot. */
  supported(): true | string | Promise<true | string>;
  /** Open (creating if needed) the database with this name. */
  open(name: string, options?: OpenOptions): Promise<StoreHandle>;
  /**
   * Delete the database with this name without an open handle. The runner calls it for every
   * database it created, so a case that hung or threw still leaves nothing behind.
   */
  destroy(name: string): Promise<void>;
}

/** Strip the fields a store adds (PouchDB's `_rev`) so `get` returns what `put` was given. */
export function withoutRev<T extends { _rev?: unknown }>(doc: T): Omit<T, '_rev'> {
  const { _rev: _ignored, ...rest } = doc;
  return rest;
}
