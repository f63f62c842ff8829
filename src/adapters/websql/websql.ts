import type { Doc, KeyRange, StoreAdapter, StoreHandle } from '../../core/store/adapter.ts';
import { toError } from '../../core/base/errors.ts';
import { applyFind, countMatches } from '../../core/store/query.ts';
import { describeWebSql, webSqlLabel } from './websql-origin.ts';

/**
 * The parts of the WebSQL API (https://www.w3.org/TR/webdatabase/) the adapter uses. TypeScript's
 * DOM library dropped these types with the API.
 */
interface SqlResultSet {
  readonly rowsAffected: number;
  readonly rows: { readonly length: number; item(index: number): Record<string, unknown> };
}

interface SqlError {
  readonly code: number;
  readonly message: string;
}

interface SqlTransaction {
  executeSql(
    sql: string,
    args?: readonly unknown[],
    onResult?: (tx: SqlTransaction, result: SqlResultSet) => void,
    onError?: (tx: SqlTransaction, error: SqlError) => boolean,
  ): void;
}

type TransactionFn = (
  body: (tx: SqlTransaction) => void,
  onError?: (error: SqlError) => void,
  onDone?: () => void,
) => void;

interface SqlDatabase {
  transaction: TransactionFn;
  readTransaction: TransactionFn;
}

type OpenDatabase = (
  name: string,
  version: string,
  displayName: string,
  estimatedSize: number,
) => SqlDatabase;

const openDatabaseFn = (): OpenDatabase | undefined =>
  (globalThis as { openDatabase?: OpenDatabase }).openDatabase;

/** Safari asked the user for more than 5 MB; below that it granted the quota silently. */
const ESTIMATED_SIZE = 5 * 1024 * 1024;

/**
 * Older SQLite builds allow 999 bound parameters per statement (SQLITE_MAX_VARIABLE_NUMBER), so
 * `IN (?, ?, ...)` lists are cut into chunks below that.
 */
const MAX_PARAMS = 500;

/** SQL, its arguments, and a check on the result that rolls the transaction back by throwing. */
type Statement = readonly [
  sql: string,
  args: readonly unknown[],
  check?: (result: SqlResultSet) => void,
];

/**
 * Run the statements in one transaction and resolve with their results after it commits. All
 * statements are queued up front: a statement queued later, from a promise continuation, could
 * find the transaction already committed. An exception in a result callback rolls the
 * transaction back (WebSQL spec, "processing model", step 6).
 */
function transact(
  db: SqlDatabase,
  mode: 'read' | 'write',
  statements: readonly Statement[],
): Promise<SqlResultSet[]> {
  return new Promise((resolve, reject) => {
    const results: SqlResultSet[] = [];
    let failure: Error | undefined;
    const body = (tx: SqlTransaction) => {
      statements.forEach(([sql, args, check], i) => {
        tx.executeSql(
          sql,
          args,
          (_tx, result) => {
            results[i] = result;
            try {
              check?.(result);
            } catch (e) {
              failure ??= toError(e);
              throw e;
            }
          },
          (_tx, error) => {
            failure ??= new Error(`WebSQL: ${error.message} (code ${error.code}) in: ${sql}`);
            return true; // true rolls the whole transaction back
          },
        );
      });
    };
    const onError = (error: SqlError) =>
      reject(
        failure ?? new Error(`WebSQL transaction failed: ${error.message} (code ${error.code})`),
      );
    const onDone = () => resolve(results);
    if (mode === 'read') db.readTransaction(body, onError, onDone);
    else db.transaction(body, onError, onDone);
  });
}

function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

function rowsOf(result: SqlResultSet | undefined): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (result) for (let i = 0; i < result.rows.length; i++) out.push(result.rows.item(i));
  return out;
}

const parse = (json: unknown): Doc => JSON.parse(json as string) as Doc;

/**
 * SQLite compares TEXT with memcmp over UTF-8, which is code point order; IndexedDB and JS
 * compare UTF-16 code units. The two differ only between U+E000..U+FFFF and astral characters,
 * which the fixtures' ids never contain.
 */
function rangeQuery(range: KeyRange): Statement {
  const where: string[] = [];
  const args: unknown[] = [];
  if (range.gte !== undefined) {
    where.push('id >= ?');
    args.push(range.gte);
  }
  if (range.lte !== undefined) {
    where.push('id <= ?');
    args.push(range.lte);
  }
  // SQLite needs a LIMIT before an OFFSET; a negative LIMIT means none.
  args.push(range.limit ?? -1, range.skip ?? 0);
  const filter = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
  return [
    `SELECT json FROM docs${filter} ORDER BY id ${range.descending ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`,
    args,
  ];
}

function handleFor(db: SqlDatabase, name: string): StoreHandle {
  // WebSQL has no close(): the database object lives until the page goes. Closing ends the handle.
  let open = true;
  const live = () => {
    if (!open) throw new Error(`WebSQL database ${name} is closed`);
    return db;
  };
  const read = (statements: readonly Statement[]) => transact(live(), 'read', statements);
  const write = (statements: readonly Statement[]) => transact(live(), 'write', statements);
  // Queries scan: the documents are JSON text, so no column holds a field SQLite could index.
  const all = async () =>
    rowsOf((await read([['SELECT json FROM docs', []]]))[0]).map((row) => parse(row.json));
  const insert = (doc: Doc): Statement => [
    'INSERT OR REPLACE INTO docs (id, json) VALUES (?, ?)',
    [doc._id, JSON.stringify(doc)],
  ];
  // An update that matched no row fails the whole transaction, so no document of a batch changes.
  const replace = (doc: Doc): Statement => [
    'UPDATE docs SET json = ? WHERE id = ?',
    [JSON.stringify(doc), doc._id],
    (result) => {
      if (result.rowsAffected === 0) throw new Error(`no document ${doc._id} to update`);
    },
  ];
  return {
    async put(doc) {
      await write([insert(doc)]);
    },
    async get(id) {
      const [row] = rowsOf((await read([['SELECT json FROM docs WHERE id = ?', [id]]]))[0]);
      return row ? parse(row.json) : undefined;
    },
    async count() {
      const [row] = rowsOf((await read([['SELECT COUNT(*) AS n FROM docs', []]]))[0]);
      return Number(row?.n ?? 0);
    },
    async bulkPut(docs) {
      await write(docs.map(insert));
    },
    async getMany(ids) {
      const chunks = chunked(ids, MAX_PARAMS);
      const results = await read(
        chunks.map((c) => [`SELECT id, json FROM docs WHERE id IN (${placeholders(c.length)})`, c]),
      );
      const found = new Map<unknown, unknown>();
      for (const result of results) for (const row of rowsOf(result)) found.set(row.id, row.json);
      return ids.map((id) => (found.has(id) ? parse(found.get(id)) : undefined));
    },
    async range(range) {
      return rowsOf((await read([rangeQuery(range)]))[0]).map((row) => parse(row.json));
    },
    async update(doc) {
      await write([replace(doc)]);
    },
    find: async (query) => applyFind(await all(), query),
    countWhere: async (query) => countMatches(await all(), query),
    async bulkUpdate(docs) {
      await write(docs.map(replace));
    },
    async remove(id) {
      await write([['DELETE FROM docs WHERE id = ?', [id]]]);
    },
    async bulkRemove(ids) {
      await write(
        chunked(ids, MAX_PARAMS).map((c) => [
          `DELETE FROM docs WHERE id IN (${placeholders(c.length)})`,
          c,
        ]),
      );
    },
    async close() {
      open = false;
    },
    async destroy() {
      open = false;
      await dropTable(db);
    },
  };
}

/**
 * WebSQL has no way to delete a database (the spec never defined one; only clearing the site's
 * data removes the file), so destroying drops the table and leaves an empty database behind.
 */
async function dropTable(db: SqlDatabase): Promise<void> {
  await transact(db, 'write', [['DROP TABLE IF EXISTS docs', []]]);
}

function openNamed(name: string): SqlDatabase {
  const open = openDatabaseFn();
  if (!open) throw new Error('WebSQL (openDatabase) is not available in this browser');
  // Version '' opens the database whatever version it has; a fixed one throws on a mismatch.
  return open(name, '', name, ESTIMATED_SIZE);
}

/** Raw WebSQL: table docs(id TEXT PRIMARY KEY, json TEXT), one row per document. */
export const websqlAdapter: StoreAdapter = {
  id: 'websql',
  // A getter, so that a page running the test shim labels these rows as emulated.
  get label() {
    return webSqlLabel('WebSQL (openDatabase)');
  },
  describe: describeWebSql,
  backend: 'websql',
  // No `worker`: engines differed on whether workers got openDatabase, and none here has it to check.
  capabilities: [
    'bulkWrite',
    'getMany',
    'keyRange',
    'skip',
    'count',
    'update',
    'bulkUpdate',
    'remove',
    'bulkRemove',
    'query',
  ],
  supported: () =>
    openDatabaseFn() ? true : 'WebSQL (openDatabase) is not available in this browser',
  async open(name) {
    const db = openNamed(name);
    await transact(db, 'write', [
      ['CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY, json TEXT NOT NULL)', []],
    ]);
    return handleFor(db, name);
  },
  async destroy(name) {
    await dropTable(openNamed(name));
  },
};
