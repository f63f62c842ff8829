import type { Durability, KeyRange } from '../../core/store/adapter.ts';
import type { Capability } from '../../core/store/capabilities.ts';
import { isIndexableField } from '../../core/store/query.ts';
import type { KeyBounds } from './index-plan.ts';

/**
 * What an IndexedDB store offers in this engine, shared by the adapters that drive IndexedDB
 * directly (idb, Dexie).
 *
 * The durability hint is Baseline only since 2024, Firefox 126 being the last to ship it
 * (https://developer.mozilla.org/docs/Web/API/IDBTransaction/durability). An older engine would
 * ignore the option silently, so the capability is declared only where the engine has it.
 */
const HAS_DURABILITY =
  typeof IDBTransaction !== 'undefined' && 'durability' in IDBTransaction.prototype;

/** The durability hint to give a write transaction, where the engine takes one and the case asks for one. */
export function durabilityHint(
  durability: Durability | undefined,
): 'relaxed' | 'strict' | undefined {
  return HAS_DURABILITY && durability && durability !== 'default' ? durability : undefined;
}

/** `supported()` of a store on IndexedDB. */
export const indexedDbSupported = (): true | string =>
  typeof indexedDB === 'undefined' ? 'IndexedDB is not available here' : true;

/** A KeyRange of the adapter contract as an IDBKeyRange (undefined: every key). */
export function idbKeyRange({ gte, lte }: KeyRange): IDBKeyRange | undefined {
  if (gte !== undefined && lte !== undefined) return IDBKeyRange.bound(gte, lte);
  if (gte !== undefined) return IDBKeyRange.lowerBound(gte);
  if (lte !== undefined) return IDBKeyRange.upperBound(lte);
  return undefined;
}

/** An index plan's bounds as an IDBKeyRange. */
export const boundsRange = (b: KeyBounds): IDBKeyRange =>
  IDBKeyRange.bound(b.lower, b.upper, b.lowerOpen, b.upperOpen);

/** An object store's indexes as index-plan.ts reads them: the name and the fields in order. */
export function indexesOf(store: {
  indexNames: DOMStringList;
  index(name: string): { keyPath: string | string[] };
}): { name: string; fields: string[] }[] {
  return Array.from(store.indexNames, (name) => {
    const keyPath = store.index(name).keyPath;
    return { name, fields: Array.isArray(keyPath) ? keyPath : [keyPath] };
  });
}

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

/**
 * createIndex for an IndexedDB connection, which can add an index only in a version change: the
 * connection closes and reopens at the next version (`addIndex`). The fields are checked first;
 * creations run one after another; `current` is the one in progress, which every other
 * operation of the handle waits for (`if (upgrades.current) await upgrades.current`, so the
 * usual case costs no extra turn).
 */
export class IndexUpgrades {
  current: Promise<void> | undefined;

  constructor(private readonly addIndex: (fields: readonly string[]) => Promise<void>) {}

  async create(fields: readonly string[]): Promise<void> {
    const bad = fields.find((f) => !isIndexableField(f));
    if (fields.length === 0 || bad !== undefined) {
      throw new Error(
        `cannot index ${JSON.stringify(fields)}: an IndexedDB key path names a top-level field only when the name is an identifier`,
      );
    }
    const previous = this.current;
    const work = (async () => {
      if (previous) await previous;
      await this.addIndex(fields);
    })();
    const settled = work.then(
      () => {},
      () => {},
    );
    this.current = settled;
    try {
      await work;
    } finally {
      if (this.current === settled) this.current = undefined;
    }
  }
}

/**
 * close() and destroy() of a handle whose connection an index creation may be replacing: both
 * wait for it, then close the connection there is then (`db()`); destroy also deletes the database.
 */
export function closeAndDestroy(
  upgrades: IndexUpgrades,
  db: () => { name: string; close(): void },
  remove: (name: string) => Promise<void>,
) {
  return {
    async close(): Promise<void> {
      if (upgrades.current) await upgrades.current;
      db().close();
    },
    async destroy(): Promise<void> {
      if (upgrades.current) await upgrades.current;
      const connection = db();
      connection.close();
      await remove(connection.name);
    },
  };
}

/** supported() of a store over IndexedDB through a library: a variant's build loads here, before any case; the installed one is loaded already. */
export function supportedWithLibrary(library: {
  get(): Promise<unknown>;
}): () => Promise<true | string> {
  return async () => {
    const here = indexedDbSupported();
    if (here !== true) return here;
    await library.get();
    return true;
  };
}
