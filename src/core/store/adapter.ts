/**
 * The store room (src/core/store/): what a store adapter and a suite are, the capabilities a store
 * declares, queries, throttling and the contract every adapter passes. It imports base and plan
 * (and the documents of fixtures/), nothing above: adapters and suites build on it without knowing
 * of results.
 */
import type { Doc } from '../../../fixtures/doc.ts';
import type { Capability } from './capabilities.ts';
import type { VariantBuild, Wraps } from '../plan/variant.ts';

// The documents are the fixtures' (fixtures/doc.ts); the store contract hands them on.
export type { Doc };

/** A key range over `_id`, inclusive at both ends, in ascending order unless `descending`. */
export interface KeyRange {
  gte?: string;
  lte?: string;
  limit?: number;
  skip?: number;
  descending?: boolean;
}

export type Durability = 'default' | 'relaxed' | 'strict';

export type Scalar = string | number | boolean;

/** Conditions on one top-level field, all of which must hold (Mango's $eq, $gt, ... on one field). */
export interface FieldCondition {
  field: string;
  eq?: Scalar;
  ne?: Scalar;
  gt?: Scalar;
  gte?: Scalar;
  lt?: Scalar;
  lte?: Scalar;
}

/**
 * A query every store can answer in its own terms: pouchdb-find's selector, an IndexedDB index
 * with a key range, or a scan with a filter. Results come in `_id` order, so every store's answer
 * to the same query is the same list; `skip` and `limit` apply after that order.
 */
export interface FindQuery {
  /** All conditions must hold (AND). */
  where: readonly FieldCondition[];
  /** Return only these fields (plus `_id`); whole documents when absent. */
  fields?: readonly string[];
  skip?: number;
  limit?: number;
}

/** A map/reduce view that emits `doc[field]` as the key for every document that has the field. */
export interface ViewQuery {
  key?: Scalar;
  startkey?: Scalar;
  endkey?: Scalar;
  /** Return the view as it is, without bringing the index up to date first (PouchDB `stale: 'ok'`). */
  stale?: boolean;
  limit?: number;
}

/** A view row: the emitted key and the id of the document that emitted it, in key then id order. */
export interface ViewRow {
  key: Scalar;
  id: string;
}

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
  /** [bulkUpdate] Replace many existing documents in one call. */
  bulkUpdate?(docs: readonly Doc[]): Promise<void>;
  /** [remove] Remove the document with this id. */
  remove?(id: string): Promise<void>;
  /** [bulkRemove] Remove the documents with these ids in one call. */
  bulkRemove?(ids: readonly string[]): Promise<void>;
  /**
   * [secondaryIndex] Build an index on these top-level fields. `find` and `countWhere` use it
   * where it serves the query; without it they scan.
   */
  createIndex?(fields: readonly string[]): Promise<void>;
  /** [query] The documents matching the query, in `_id` order. */
  find?(query: FindQuery): Promise<Doc[]>;
  /** [query] How many documents match (IDBIndex.count where an index serves it). */
  countWhere?(query: FindQuery): Promise<number>;
  /** [mapReduce] Save a persisted view named `name` over `field`. Its index builds on first query. */
  createView?(name: string, field: string): Promise<void>;
  /** [mapReduce] Query a persisted view. */
  queryView?(name: string, query: ViewQuery): Promise<ViewRow[]>;
  /** [mapReduce] Query a temporary view over `field`, built and thrown away by this call. */
  queryTemp?(field: string, query: ViewQuery): Promise<ViewRow[]>;
  /** Close the connection. The data stays. */
  close(): Promise<void>;
  /** Close and delete the database and all its data. */
  destroy(): Promise<void>;
}

export const BACKENDS = ['indexeddb', 'websql', 'localstorage', 'opfs', 'memory', 'other'] as const;
export type Backend = (typeof BACKENDS)[number];

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
  /**
   * Why the store lacks a capability one might expect of it, e.g. a known bug of the store.
   * The runner puts this in the reason of every case the capability's absence makes unsupported.
   */
  readonly lacks?: Readonly<Partial<Record<Capability, string>>>;
  /** `true` when the store can run here, otherwise a one-line reason it cannot. */
  supported(): true | string | Promise<true | string>;
  /** Open (creating if needed) the database with this name. */
  open(name: string, options?: OpenOptions): Promise<StoreHandle>;
  /**
   * Delete the database with this name without an open handle. The runner calls it for every
   * database it created, so a case that hung or threw still leaves nothing behind.
   */
  destroy(name: string): Promise<void>;
  /**
   * Facts about how the store ran here that a reader needs to read its rows right, which the
   * label cannot know in advance: e.g. `{ vfs: 'opfs-sahpool' }` for SQLite, or that WebSQL was
   * emulated. Asked after the run; results record it under `environment.adapters[id]`.
   */
  describe?(): Record<string, string> | Promise<Record<string, string>>;
  /**
   * The npm packages the store is a build of, so it can run on another build of them beside this
   * one: `ADAPTER@VERSION`, `ADAPTER@file:DIR` (core/plan/variant.ts). Absent: it takes only `@+N%`.
   */
  readonly wraps?: Wraps;
  /** With `wraps`: the same store on another build of its packages, whose modules `build.load` gives. */
  variant?(build: VariantBuild): StoreAdapter;
}
