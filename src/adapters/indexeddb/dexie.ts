import Installed, { type Collection, type Dexie, type DexieOptions, type Table } from 'dexie';
import type {
  Doc,
  FindQuery,
  KeyRange,
  StoreAdapter,
  StoreHandle,
} from '../../core/store/adapter.ts';
import type { VariantBuild } from '../../core/plan/variant.ts';
import { applyFind, countMatches } from '../../core/store/query.ts';
import {
  durabilityHint,
  INDEXEDDB_CAPABILITIES,
  IndexUpgrades,
  supportedWithLibrary,
} from './indexeddb-features.ts';
import { drained } from './drain.ts';
import { planIndex, type IndexInfo, type IndexPlan } from './index-plan.ts';
import { Library } from '../variants/library.ts';
import { isEmptyRange } from '../range.ts';

type Docs = Table<Doc, string>;

/** The Dexie class: the installed package's, or a variant's build of it. */
type DexieClass = typeof Installed;

/**
 * Dexie passes its `chromeTransactionDurability` option to every IDBDatabase.transaction(). The
 * hint is Baseline only since 2024, Firefox 126 being the last to ship it
 * (https://developer.mozilla.org/docs/Web/API/IDBTransaction/durability); an older engine would
 * ignore it silently, so the capability is declared only where the engine has it.
 */

/** Dexie's schema syntax: `age` for one field, `[age+lastName]` for a compound index. */
const indexSpec = (fields: readonly string[]) =>
  fields.length === 1 ? (fields[0] as string) : `[${fields.join('+')}]`;

/**
 * Close this connection when another one deletes the database or raises its version. Dexie's
 * own handler does that too, but re-enables auto-open, so a handle used after its database was
 * deleted would quietly create it again; after a delete this one stays closed and its later
 * operations fail, as raw IndexedDB's would. Returning false also skips Dexie's console warning.
 */
function closeOnVersionChange(db: Dexie): Dexie {
  db.on('versionchange', (event: IDBVersionChangeEvent) => {
    db.close({ disableAutoOpen: event.newVersion === null || event.newVersion === 0 });
    return false;
  });
  return db;
}

/** The database's version as Dexie numbers it: the native IndexedDB version over 10. */
const dexieVersion = (db: Dexie) => db.backendDB().version / 10;

/**
 * Open the database, creating it with its one table if it is new. A database that createIndex
 * raised past version 1 has indexes the version-1 declaration does not list, and Dexie only
 * queries through indexes it knows of; such a database is opened again in Dexie's dynamic mode
 * (no declared version), which reads the schema from the database.
 */
async function connect(Dexie: DexieClass, name: string, options: DexieOptions): Promise<Dexie> {
  const declared = closeOnVersionChange(new Dexie(name, options));
  declared.version(1).stores({ docs: '_id' });
  await declared.open();
  if (dexieVersion(declared) === 1) return declared;
  declared.close();
  const dynamic = closeOnVersionChange(new Dexie(name, options));
  await dynamic.open();
  return dynamic;
}

/** Documents in `_id` order within the range: a primary-key range, then reverse, offset, limit. */
function readRange(docs: Docs, { gte, lte, descending, skip, limit }: KeyRange): Promise<Doc[]> {
  let c: Collection<Doc, string>;
  if (gte !== undefined && lte !== undefined) c = docs.where('_id').between(gte, lte, true, true);
  else if (gte !== undefined) c = docs.where('_id').aboveOrEqual(gte);
  else if (lte !== undefined) c = docs.where('_id').belowOrEqual(lte);
  else c = docs.orderBy('_id');
  if (descending) c = c.reverse();
  // Dexie skips with IDBCursor.advance on a plain key range, so the skip is native.
  if (skip) c = c.offset(skip);
  if (limit !== undefined) c = c.limit(limit);
  return c.toArray();
}

/** The secondary indexes Dexie knows on the table, by name and fields. */
function indexesOf(docs: Docs): IndexInfo[] {
  return docs.schema.indexes.flatMap((i) => {
    const fields = typeof i.keyPath === 'string' ? [i.keyPath] : i.keyPath;
    return fields && !i.multi ? [{ name: i.name, fields }] : [];
  });
}

/** The documents that may match: those in the plan's index range, or all of them. */
function candidates(docs: Docs, plan: IndexPlan | undefined): Promise<Doc[]> {
  if (!plan) return docs.toArray();
  if (!plan.bounds) return Promise.resolve([]);
  const { lower, upper, lowerOpen, upperOpen } = plan.bounds;
  return docs.where(plan.index).between(lower, upper, !lowerOpen, !upperOpen).toArray();
}

/** Reject, and so abort the transaction, unless every id is in the table. */
async function requireAll(table: Docs, ids: readonly string[]): Promise<void> {
  const present = new Set(
    await table
      .where('_id')
      .anyOf([...ids])
      .primaryKeys(),
  );
  const missing = ids.find((id) => !present.has(id));
  if (missing !== undefined) throw new Error(`no document ${missing} to update`);
}

/**
 * The handle's connection, which createIndex replaces with one at the next version: every
 * operation asks for the table through `docs()`, which waits for an upgrade in progress.
 */
class Connection {
  readonly upgrades = new IndexUpgrades((fields) => this.addIndex(fields));

  constructor(
    private readonly Dexie: DexieClass,
    public db: Dexie,
    private readonly name: string,
    private readonly options: DexieOptions,
  ) {}

  /** The durability the store's writes ask for, for the transaction that drains it (drain.ts). */
  get durability(): IDBTransactionDurability {
    return this.options.chromeTransactionDurability ?? 'default';
  }

  async docs(): Promise<Docs> {
    if (this.upgrades.current) await this.upgrades.current;
    // After close() Dexie rejects every operation with DatabaseClosedError; nothing reopens it.
    return this.db.table<Doc, string>('docs');
  }

  /** The connection once no upgrade is in progress, for close and destroy. */
  async settled(): Promise<Dexie> {
    if (this.upgrades.current) await this.upgrades.current;
    return this.db;
  }

  private async addIndex(fields: readonly string[]): Promise<void> {
    const table = this.db.table<Doc, string>('docs');
    const spec = indexSpec(fields);
    if (table.schema.idxByName[spec]) return;
    const specs = ['_id', ...table.schema.indexes.map((i) => i.src), spec];
    const version = Math.floor(dexieVersion(this.db)) + 1;
    // Else the upgrade below waits, `blocked`, for this connection's last transaction.
    await drained(this.db.backendDB(), this.durability);
    this.db.close();
    // A schema upgrade in Dexie is a new version that lists every index to keep: one left out is deleted.
    const next = closeOnVersionChange(new this.Dexie(this.name, this.options));
    next.version(version).stores({ docs: specs.join(', ') });
    this.db = next;
    await next.open();
  }
}

/** update and bulkUpdate: a put in a transaction that first checks every id is there. */
function updates(conn: Connection): Pick<StoreHandle, 'update' | 'bulkUpdate'> {
  return {
    async update(doc) {
      const table = await conn.docs();
      await conn.db.transaction('rw', table, async () => {
        await requireAll(table, [doc._id]);
        await table.put(doc);
      });
    },
    async bulkUpdate(batch) {
      const table = await conn.docs();
      await conn.db.transaction('rw', table, async () => {
        await requireAll(
          table,
          batch.map((d) => d._id),
        );
        await table.bulkPut([...batch]);
      });
    },
  };
}

/** find and countWhere: one index range through Dexie's where(), the rest filtered in JS. */
function queries(conn: Connection): Pick<StoreHandle, 'find' | 'countWhere'> {
  const plan = (table: Docs, query: FindQuery) =>
    planIndex(indexesOf(table), query.where, (a, b) => indexedDB.cmp(a, b));
  return {
    async find(query) {
      const table = await conn.docs();
      return applyFind(await candidates(table, plan(table, query)), query);
    },
    async countWhere(query) {
      const table = await conn.docs();
      const p = plan(table, query);
      if (p?.exact) {
        if (!p.bounds) return 0;
        const { lower, upper, lowerOpen, upperOpen } = p.bounds;
        return table.where(p.index).between(lower, upper, !lowerOpen, !upperOpen).count();
      }
      return countMatches(await candidates(table, p), query);
    },
  };
}

function handleFor(conn: Connection): StoreHandle {
  const docs = () => conn.docs();
  return {
    async put(doc) {
      await (await docs()).put(doc);
    },
    get: async (id) => (await docs()).get(id),
    count: async () => (await docs()).count(),
    async bulkPut(batch) {
      await (await docs()).bulkPut([...batch]);
    },
    getMany: async (ids) => (await docs()).bulkGet([...ids]),
    async range(range) {
      if (isEmptyRange(range)) return [];
      return readRange(await docs(), range);
    },
    ...updates(conn),
    async remove(id) {
      await (await docs()).delete(id);
    },
    async bulkRemove(ids) {
      await (await docs()).bulkDelete([...ids]);
    },
    createIndex: (fields) => conn.upgrades.create(fields),
    ...queries(conn),
    async close() {
      (await conn.settled()).close();
    },
    async destroy() {
      const db = await conn.settled();
      if (db.isOpen()) await drained(db.backendDB(), conn.durability);
      await db.delete();
    },
  };
}

/**
 * Dexie 4 over IndexedDB: one table, `docs`, keyed by `_id`. Secondary indexes are added by a
 * schema upgrade (a new Dexie version); queries read one index range through Dexie's where()
 * and filter the rest in JS with the reference evaluator.
 */
function dexieStore(id: string, label: string, library: Library<DexieClass>): StoreAdapter {
  return {
    id,
    label,
    backend: 'indexeddb',
    capabilities: INDEXEDDB_CAPABILITIES,
    supported: supportedWithLibrary(library),
    async open(name, options) {
      const Dexie = await library.get();
      const durability = durabilityHint(options?.durability);
      const dexieOptions: DexieOptions = durability
        ? { chromeTransactionDurability: durability }
        : {};
      const db = await connect(Dexie, name, dexieOptions);
      return handleFor(new Connection(Dexie, db, name, dexieOptions));
    },
    async destroy(name) {
      await (await library.get()).delete(name);
    },
    wraps: { packages: ['dexie'] },
    variant: (build: VariantBuild) =>
      dexieStore(
        build.id,
        `Dexie (${build.what})`,
        Library.lazy(async () => ((await build.load())[0] as { default: DexieClass }).default),
      ),
  };
}

export const dexieAdapter: StoreAdapter = dexieStore(
  'dexie',
  `Dexie ${Installed.semVer}`,
  Library.of(Installed),
);
