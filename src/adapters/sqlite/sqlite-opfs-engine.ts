/**
 * SQLite Wasm for the sqlite-opfs adapter: the engine that answers its requests
 * (sqlite-opfs-protocol.ts). It runs in a dedicated Worker, because OPFS's synchronous access
 * handles, which SQLite's OPFS VFSes need, exist only there
 * (https://developer.mozilla.org/docs/Web/API/FileSystemSyncAccessHandle): in the SQLite worker
 * the adapter starts from the page (sqlite-opfs-worker.ts), or, when the store is used from a
 * Worker already (the plan Worker), in that Worker's own thread.
 *
 * VFS: "opfs-sahpool" (https://sqlite.org/wasm/doc/trunk/persistence.md#vfs-opfs-sahpool). It
 * needs no SharedArrayBuffer, so it runs whether or not the page is cross-origin isolated,
 * unlike the "opfs" VFS. Its catch: the pool holds a sync access handle on every file in its
 * directory, and a file takes one handle at a time, so only one pool instance per directory
 * can run in the origin at once. This engine is that one instance for its page (or for its
 * plan Worker): every database and every handle goes through it, one connection per database.
 *
 * Another context of the same origin may need the pool too: the plan Worker after a run in the
 * page, or a second tab. An engine that cannot get the pool asks on a BroadcastChannel for it,
 * and an engine with no database open lets go (pauseVfs) until it needs the pool again.
 *
 * Every request is handled to the end before the next starts (SQLite calls here are
 * synchronous), so each operation is atomic and the answers come back in order.
 */
import sqlite3InitModule, {
  type Database,
  type PreparedStatement,
  type SAHPoolUtil,
  type Sqlite3Static,
} from '@sqlite.org/sqlite-wasm';
import type { Doc, FindQuery, KeyRange } from '../../core/store/adapter.ts';
import { applyFind, countMatches, project } from '../../core/store/query.ts';
import type {
  EngineInfo,
  HandleCalls,
  HandleMethod,
  Request,
  Response,
} from './sqlite-opfs-protocol.ts';
import { isIndexableField } from '../../core/store/query.ts';
import { extractSql, orderById, sqlWhere } from './sqlite-query.ts';

/** The pool's OPFS directory: storebench's own, so it never shares (or locks) another app's pool. */
const POOL_DIRECTORY = '.storebench-sqlite-sahpool';
const VFS_NAME = 'opfs-sahpool';

interface Engine {
  sqlite3: Sqlite3Static;
  pool: SAHPoolUtil;
  info: EngineInfo;
}

/** One open database, shared by every handle the page has on it. */
interface Connection {
  name: string;
  db: Database;
  handles: Set<number>;
  statements: Map<string, PreparedStatement>;
  /** The first field of each index createIndex made, read from the schema at open. */
  leading: Set<string>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where the workers of one origin ask each other to let go of the pool. */
const poolChannel = new BroadcastChannel('storebench-sqlite-opfs-pool');

/** Another pool instance holds a file: createSyncAccessHandle refused. */
const isBusy = (e: unknown) =>
  /NoModificationAllowed|InvalidState|another open Access Handle|locked/i.test(
    `${(e as Error)?.name ?? ''} ${(e as Error)?.message ?? String(e)}`,
  );

/**
 * Run `take` (install or unpause the pool) until it gets the handles. While another context
 * holds them, ask it to let go, and wait: an idle one releases at once, and a page that was
 * just reloaded or a Worker that was just terminated releases them as it goes.
 */
async function takePool<T>(take: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await take();
    } catch (e) {
      const text = `${(e as Error)?.name ?? 'Error'}: ${(e as Error)?.message ?? String(e)}`.split(
        '\n',
      )[0];
      if (attempt >= 8 || !isBusy(e))
        throw new Error(
          `the OPFS SyncAccessHandle pool is held elsewhere (a store open in another tab or Worker of this site?): ${text}`,
          { cause: e },
        );
      poolChannel.postMessage('release');
      await sleep(100 * attempt);
    }
  }
}

async function start(): Promise<Engine> {
  // The "opfs" and "opfs-wl" VFSes install themselves at start-up wherever SharedArrayBuffer
  // exists, each spawning a proxy worker; this adapter uses neither, so they are switched off.
  (globalThis as { sqlite3ApiConfig?: unknown }).sqlite3ApiConfig = {
    disable: { vfs: { opfs: true, 'opfs-wl': true } },
  };
  const sqlite3 = await sqlite3InitModule();
  const pool = await takePool(() =>
    sqlite3.installOpfsSAHPoolVfs({
      name: VFS_NAME,
      directory: POOL_DIRECTORY,
      // On failure (another context holds the pool) release what was acquired and keep the
      // files; the default deletes the pool's directory, wiping the other context's databases.
      preserveOnInitFailure: true,
      // Without this a failed install is cached and every retry rethrows the first error.
      forceReinitIfPreviouslyFailed: true,
    } as Parameters<Sqlite3Static['installOpfsSAHPoolVfs']>[0]),
  );
  return { sqlite3, pool, info: { vfs: pool.vfsName, sqlite: sqlite3.version.libVersion } };
}

let engine: Promise<Engine> | undefined;

/** The engine with the pool in hand: started once (a failed start is retried next time), unpaused if it was let go. */
async function ready(): Promise<Engine> {
  const e = await (engine ??= start().catch((err: unknown) => {
    engine = undefined;
    throw err;
  }));
  if (e.pool.isPaused()) await takePool(() => e.pool.unpauseVfs());
  return e;
}

/** Whether SQLite on OPFS can run here, without loading SQLite or taking the pool. */
async function probe(): Promise<true | string> {
  const handle = (globalThis as { FileSystemFileHandle?: { prototype: object } })
    .FileSystemFileHandle;
  if (!handle || !('createSyncAccessHandle' in handle.prototype))
    return 'OPFS sync access handles are not available here (FileSystemFileHandle.createSyncAccessHandle is missing)';
  try {
    await navigator.storage.getDirectory();
  } catch (e) {
    return (
      `OPFS is not available here: ${(e as Error)?.message ?? String(e)}`.split('\n')[0] ??
      'OPFS is not available here'
    );
  }
  return true;
}

const connections = new Map<string, Connection>();
const handles = new Map<number, Connection>();
let nextHandle = 1;

const pathOf = (name: string) => `/${encodeURIComponent(name)}.sqlite3`;

async function open(name: string): Promise<number> {
  const { pool } = await ready();
  let conn = connections.get(name);
  if (!conn) {
    // Each database file takes a slot of the pool, and its journal another while a write runs.
    await pool.reserveMinimumCapacity(pool.getFileCount() + 4);
    const db = new pool.OpfsSAHPoolDb(pathOf(name));
    try {
      db.exec('CREATE TABLE IF NOT EXISTS docs (id TEXT PRIMARY KEY NOT NULL, json TEXT NOT NULL)');
    } catch (e) {
      db.close();
      throw e;
    }
    const leading = new Set<string>();
    for (const [index] of db.selectArrays(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'docs_by_%'",
    )) {
      if (typeof index === 'string')
        leading.add(index.slice('docs_by_'.length).split(',')[0] ?? '');
    }
    conn = { name, db, handles: new Set(), statements: new Map(), leading };
    connections.set(name, conn);
  }
  const handle = nextHandle++;
  conn.handles.add(handle);
  handles.set(handle, conn);
  return handle;
}

function disconnect(conn: Connection): void {
  for (const h of conn.handles) handles.delete(h);
  connections.delete(conn.name);
  // oo1's close() finalizes the statements the connection still has prepared.
  conn.db.close();
}

function close(handle: number): void {
  const conn = handles.get(handle);
  if (!conn) return;
  handles.delete(handle);
  conn.handles.delete(handle);
  if (conn.handles.size === 0) disconnect(conn);
}

/** Close the database whatever handles are open on it (their later calls fail), then delete its files. */
async function destroy(name: string): Promise<void> {
  const { pool } = await ready();
  const conn = connections.get(name);
  if (conn) disconnect(conn);
  pool.unlink(pathOf(name));
  pool.unlink(`${pathOf(name)}-journal`);
}

/** A statement prepared once per connection and reused: the hot paths run it thousands of times. */
function statement(conn: Connection, sql: string): PreparedStatement {
  let stmt = conn.statements.get(sql);
  if (!stmt) {
    stmt = conn.db.prepare(sql);
    conn.statements.set(sql, stmt);
  }
  return stmt;
}

/** Run a cached statement once; reset even when it fails, so the next use can bind again. */
function runStatement<T>(
  conn: Connection,
  sql: string,
  params: (string | number)[],
  read: (stmt: PreparedStatement) => T,
): T {
  const stmt = statement(conn, sql);
  try {
    return read(stmt.bind(params));
  } finally {
    stmt.reset();
  }
}

/** Rows of a one-off statement, each as an array of column values. */
function rows(conn: Connection, sql: string, params: readonly (string | number)[]): unknown[][] {
  // oo1 refuses to bind even an empty list to a statement without parameters.
  return conn.db.selectArrays(sql, params.length > 0 ? params : undefined);
}

const parse = (json: unknown): Doc => JSON.parse(json as string) as Doc;

/**
 * Run `work` in one transaction: all of it commits, or (on a throw) none of it. Batch reads use
 * one too (DEFERRED), as IndexedDB's getMany does: otherwise each statement is a transaction of
 * its own, and each start re-reads the database header from OPFS to check the page cache.
 */
function inTransaction<T>(
  conn: Connection,
  work: () => T,
  mode: 'IMMEDIATE' | 'DEFERRED' = 'IMMEDIATE',
): T {
  return conn.db.transaction(mode, () => work());
}

const INSERT = 'INSERT OR REPLACE INTO docs (id, json) VALUES (?, ?)';
const SELECT_ONE = 'SELECT json FROM docs WHERE id = ?';
const UPDATE = 'UPDATE docs SET json = ? WHERE id = ?';
const DELETE = 'DELETE FROM docs WHERE id = ?';

const step = (stmt: PreparedStatement) => void stmt.step();

function insert(conn: Connection, doc: Doc): void {
  runStatement(conn, INSERT, [doc._id, JSON.stringify(doc)], step);
}

function getOne(conn: Connection, id: string): Doc | undefined {
  return runStatement(conn, SELECT_ONE, [id], (stmt) =>
    stmt.step() ? parse(stmt.get(0)) : undefined,
  );
}

function removeOne(conn: Connection, id: string): void {
  runStatement(conn, DELETE, [id], step);
}

/** Replace a document; a missing one throws, which rolls the surrounding transaction back. */
function replace(conn: Connection, doc: Doc): void {
  runStatement(conn, UPDATE, [JSON.stringify(doc), doc._id], step);
  if (conn.db.changes() === 0) throw new Error(`no document ${doc._id} to update`);
}

function range(conn: Connection, r: KeyRange): Doc[] {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (r.gte !== undefined) {
    where.push('id >= ?');
    params.push(r.gte);
  }
  if (r.lte !== undefined) {
    where.push('id <= ?');
    params.push(r.lte);
  }
  // SQLite needs a LIMIT before an OFFSET; a negative LIMIT means none. OFFSET is native.
  params.push(r.limit ?? -1, r.skip ?? 0);
  const filter = where.length > 0 ? ` WHERE ${where.join(' AND ')}` : '';
  return rows(
    conn,
    `SELECT json FROM docs${filter} ORDER BY id ${r.descending ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`,
    params,
  ).map((row) => parse(row[0]));
}

/**
 * A query in SQL when SQL can say all its conditions: filter, ORDER BY id, LIMIT/OFFSET, then
 * the projection in JS. Otherwise SQL narrows the candidates and applyFind does the rest.
 */
function find(conn: Connection, query: FindQuery): Doc[] {
  const filter = sqlWhere(query.where);
  if (!filter.complete)
    return applyFind(
      rows(conn, `SELECT json FROM docs WHERE ${filter.sql}`, filter.params).map((row) =>
        parse(row[0]),
      ),
      query,
    );
  const params = [...filter.params, query.limit ?? -1, query.skip ?? 0];
  const docs = rows(
    conn,
    `SELECT json FROM docs WHERE ${filter.sql} ORDER BY ${orderById(query.where, conn.leading)} LIMIT ? OFFSET ?`,
    params,
  ).map((row) => parse(row[0]));
  return query.fields ? docs.map((d) => project(d, query.fields)) : docs;
}

function countWhere(conn: Connection, query: FindQuery): number {
  const filter = sqlWhere(query.where);
  if (!filter.complete)
    return countMatches(
      rows(conn, `SELECT json FROM docs WHERE ${filter.sql}`, filter.params).map((row) =>
        parse(row[0]),
      ),
      query,
    );
  return Number(
    rows(conn, `SELECT COUNT(*) FROM docs WHERE ${filter.sql}`, filter.params)[0]?.[0] ?? 0,
  );
}

/** An index on the fields' values inside the JSON: SQLite indexes expressions (https://sqlite.org/expridx.html). */
function createIndex(conn: Connection, fields: readonly string[]): void {
  const bad = fields.find((f) => !isIndexableField(f));
  if (fields.length === 0 || bad !== undefined)
    throw new Error(
      `cannot index ${JSON.stringify(fields)}: only fields whose names are identifiers`,
    );
  // Identifiers hold no comma or quote, so the name is unique per field list and safe to quote.
  conn.db.exec(
    `CREATE INDEX IF NOT EXISTS "docs_by_${fields.join(',')}" ON docs (${fields.map(extractSql).join(', ')})`,
  );
  conn.leading.add(fields[0] as string);
}

type Impl = {
  [M in HandleMethod]: (conn: Connection, ...args: HandleCalls[M][0]) => HandleCalls[M][1];
};

const METHODS: Impl = {
  put: (conn, doc) => insert(conn, doc),
  get: (conn, id) => getOne(conn, id),
  count: (conn) => Number(rows(conn, 'SELECT COUNT(*) FROM docs', [])[0]?.[0] ?? 0),
  bulkPut: (conn, docs) => inTransaction(conn, () => docs.forEach((d) => insert(conn, d))),
  getMany: (conn, ids) => inTransaction(conn, () => ids.map((id) => getOne(conn, id)), 'DEFERRED'),
  range,
  update: (conn, doc) => inTransaction(conn, () => replace(conn, doc)),
  bulkUpdate: (conn, docs) => inTransaction(conn, () => docs.forEach((d) => replace(conn, d))),
  remove: (conn, id) => removeOne(conn, id),
  bulkRemove: (conn, ids) => inTransaction(conn, () => ids.forEach((id) => removeOne(conn, id))),
  createIndex,
  find,
  countWhere,
};

async function handle(req: Request): Promise<unknown> {
  switch (req.op) {
    case 'probe':
      return probe();
    case 'init':
      return (await ready()).info;
    case 'open':
      return open(req.name);
    case 'call': {
      const conn = handles.get(req.handle);
      if (!conn) throw new Error('this SQLite database handle is closed');
      const fn = METHODS[req.method] as (conn: Connection, ...args: unknown[]) => unknown;
      return fn(conn, ...req.args);
    }
    case 'close':
      return close(req.handle);
    case 'destroy':
      return destroy(req.name);
    case 'files':
      return engine ? (await ready()).pool.getFileNames() : [];
  }
}

/** One message at a time, in arrival order, even while the engine is still starting. */
let queue: Promise<void> = Promise.resolve();

/** Let go of the pool for another context, unless a database is open here; in turn with the messages. */
poolChannel.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (event.data !== 'release') return;
  queue = queue.then(async () => {
    try {
      const e = engine && (await engine.catch(() => undefined));
      if (e && connections.size === 0 && !e.pool.isPaused()) e.pool.pauseVfs();
    } catch {
      // Keep the pool; the asker retries and says why if it never gets it. The queue must not reject.
    }
  });
});

/** Answer one request, after every request that came before it; never rejects. */
export function serve(req: Request): Promise<Response> {
  const answer = queue.then(async (): Promise<Response> => {
    try {
      return { id: req.id, ok: true, value: await handle(req) };
    } catch (e) {
      const error = e instanceof Error ? `${e.message}` : String(e);
      return { id: req.id, ok: false, error: error.split('\n')[0] ?? error };
    }
  });
  queue = answer.then(() => undefined);
  return answer;
}
