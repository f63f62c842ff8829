import type { Doc, FindQuery, KeyRange } from '../../core/store/adapter.ts';

/**
 * The messages between the sqlite-opfs adapter (page or Worker that uses the store) and the
 * engine that runs SQLite (sqlite-opfs-engine.ts), in its own Worker or in the Worker that uses
 * the store. Every request carries an id; the engine answers each one exactly once, in the order
 * they came.
 */

/** The operations on an open database, by StoreHandle method name, with their arguments and answers. */
export interface HandleCalls {
  put: [[doc: Doc], void];
  get: [[id: string], Doc | undefined];
  count: [[], number];
  bulkPut: [[docs: readonly Doc[]], void];
  getMany: [[ids: readonly string[]], (Doc | undefined)[]];
  range: [[range: KeyRange], Doc[]];
  update: [[doc: Doc], void];
  bulkUpdate: [[docs: readonly Doc[]], void];
  remove: [[id: string], void];
  bulkRemove: [[ids: readonly string[]], void];
  createIndex: [[fields: readonly string[]], void];
  find: [[query: FindQuery], Doc[]];
  countWhere: [[query: FindQuery], number];
}

export type HandleMethod = keyof HandleCalls;

/** What the worker found when it set SQLite up. */
export interface EngineInfo {
  /** The SQLite VFS the databases live on, e.g. `opfs-sahpool`. */
  vfs: string;
  /** SQLite's version, e.g. `3.54.1`. */
  sqlite: string;
}

export type Request =
  /** Whether OPFS sync access handles exist here: `true` or why not. Loads nothing, takes nothing. */
  | { id: number; op: 'probe' }
  /** Load SQLite and take the pool. */
  | { id: number; op: 'init' }
  | { id: number; op: 'open'; name: string }
  | { id: number; op: 'call'; handle: number; method: HandleMethod; args: unknown[] }
  | { id: number; op: 'close'; handle: number }
  | { id: number; op: 'destroy'; name: string }
  /** The database files in the pool, for tests that check destroy leaves nothing behind. */
  | { id: number; op: 'files' };

export type Response =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };
