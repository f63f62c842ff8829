/**
 * WebSQL's `openDatabase` over SQLite Wasm, for tests only. No engine here has WebSQL
 * (docs/browsers.md, "Browsers on this kind of machine"), so the `websql` and `localforage-websql` adapters run their real code paths
 * against this: a real SQL engine behind the API they were written for.
 *
 * It follows the processing model of the spec (https://www.w3.org/TR/webdatabase/#processing-model)
 * where the adapters depend on it:
 * - openDatabase returns at once; a version other than '' must match the database's or it throws.
 * - transaction() and readTransaction() return at once; the callback runs in a later task, one
 *   transaction at a time per database, in the order they were asked for.
 * - executeSql() only queues, and only while a transaction, statement or statement-error callback
 *   of that transaction is running; anywhere else (a promise continuation, a timer) it throws
 *   InvalidStateError, as Chromium's did.
 * - Statements run in order; a statement's callbacks may queue more. A statement error rolls the
 *   transaction back when it has no error callback, or its error callback throws or returns a
 *   truthy value; a statement callback that throws does too. Here the engines parted from the
 *   spec, which rolls back on anything but `false`: Chromium and WebKit converted the error
 *   callback's result to a boolean (Chromium's V8SQLStatementErrorCallback::handleEvent), so
 *   `undefined` went on to the next statement. localForage depends on that: its tryExecuteSql
 *   error callback returns nothing while it re-creates a dropped table and retries. The
 *   transaction's error or success callback runs in a later task, after ROLLBACK or COMMIT.
 * - Errors are SQLError objects with the spec's codes: a statement that cannot be prepared (a
 *   missing table included) is SYNTAX_ERR, as in Chromium, which localForage relies on to
 *   re-create a dropped table; constraint violations are CONSTRAINT_ERR.
 * - Each database holds `__WebKitDatabaseInfoTable__`, as Chromium and Safari's did, so code that
 *   lists tables meets it.
 *
 * Each database is an in-memory SQLite database that lives as long as the page. Installing the
 * shim sets a global marker (src/adapters/websql/websql-origin.ts), so the adapters' labels and
 * `describe()` say WebSQL was emulated.
 */
import sqlite3InitModule, {
  type Database,
  type PreparedStatement,
  type SqlValue,
  type Sqlite3Static,
} from '@sqlite.org/sqlite-wasm';
import { WEBSQL_EMULATION_MARKER } from '../../src/adapters/websql/websql-origin.ts';

const WEBSQL_SHIM_DESCRIPTION = 'WebSQL emulated over SQLite Wasm (test shim)';

const CODES = {
  UNKNOWN_ERR: 0,
  DATABASE_ERR: 1,
  VERSION_ERR: 2,
  TOO_LARGE_ERR: 3,
  QUOTA_ERR: 4,
  SYNTAX_ERR: 5,
  CONSTRAINT_ERR: 6,
  TIMEOUT_ERR: 7,
} as const;

/** WebSQL's SQLError: a code and a message, with the code constants on every instance. */
class SQLError {
  constructor(
    readonly code: number,
    readonly message: string,
  ) {}
}
Object.assign(SQLError.prototype, CODES);

/** What execute() throws: WebSQL's SQLError is no Error, so it travels inside one to run(). */
class StatementFailure extends Error {
  constructor(readonly sqlError: SQLError) {
    super(sqlError.message);
  }
}

const fail = (code: number, message: string): never => {
  throw new StatementFailure(new SQLError(code, message));
};

interface ResultSet {
  readonly insertId: number;
  readonly rowsAffected: number;
  readonly rows: { readonly length: number; item(index: number): Record<string, unknown> | null };
}

type StatementCallback = (tx: ShimTransaction, result: ResultSet) => void;
type StatementErrorCallback = (tx: ShimTransaction, error: SQLError) => unknown;
type TransactionCallback = (tx: ShimTransaction) => void;

interface Statement {
  sql: string;
  args: SqlValue[];
  onResult?: StatementCallback | null;
  onError?: StatementErrorCallback | null;
}

interface File {
  db: Database;
  version: string;
  queue: Work[];
  running: boolean;
}

interface Work {
  readOnly: boolean;
  callback?: TransactionCallback | null;
  onError?: ((error: SQLError) => void) | null;
  onSuccess?: (() => void) | null;
  /** changeVersion: the version required before, and set after a commit. */
  change?: { from: string; to: string };
}

/** Tasks in order, without setTimeout's 4 ms clamp on nested timers. */
const tasks: (() => void)[] = [];
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  const run = tasks.shift();
  try {
    run?.();
  } catch (e) {
    // A callback of the code under test threw: report it as the browser would, and go on.
    reportError(e);
  }
};
function queueTask(run: () => void): void {
  tasks.push(run);
  channel.port2.postMessage(null);
}

let sqlite3: Sqlite3Static | undefined;
const files = new Map<string, File>();

class ShimTransaction {
  /** True only while one of this transaction's callbacks runs. */
  allowed = false;
  readonly statements: Statement[] = [];

  executeSql(
    sql: string,
    args?: readonly unknown[] | null,
    onResult?: StatementCallback | null,
    onError?: StatementErrorCallback | null,
  ): void {
    if (!this.allowed)
      throw new DOMException(
        'SQL statements can only be queued from the callbacks of their transaction',
        'InvalidStateError',
      );
    // Chromium bound numbers as numbers, null and undefined as NULL, and anything else as its string.
    const bound = (args ?? []).map((a): SqlValue =>
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- as Chromium did, an object included
      a === null || a === undefined ? null : typeof a === 'number' ? a : String(a),
    );
    this.statements.push({ sql: String(sql), args: bound, onResult, onError });
  }

  /** Run `fn` as a callback of this transaction: executeSql is allowed only meanwhile. */
  callback<T>(fn: () => T): T {
    this.allowed = true;
    try {
      return fn();
    } finally {
      this.allowed = false;
    }
  }
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';

/** The SQLError for an SQLite failure while running a prepared statement, by its primary result code. */
function stepError(e: unknown): SQLError {
  const rc = ((e as { resultCode?: number }).resultCode ?? 1) & 0xff;
  const code =
    rc === 19
      ? CODES.CONSTRAINT_ERR
      : rc === 13
        ? CODES.QUOTA_ERR
        : rc === 18
          ? CODES.TOO_LARGE_ERR
          : CODES.DATABASE_ERR;
  return new SQLError(code, `could not execute statement (${firstLine(e)})`);
}

function execute(
  s3: Sqlite3Static,
  db: Database,
  { sql, args }: Statement,
  readOnly: boolean,
): ResultSet {
  let stmt: PreparedStatement;
  try {
    stmt = db.prepare(sql);
  } catch (e) {
    return fail(CODES.SYNTAX_ERR, `could not prepare statement (${firstLine(e)})`);
  }
  try {
    const writes = s3.capi.sqlite3_stmt_readonly(stmt) === 0;
    // Chromium's authorizer refused writes in a read transaction at prepare time.
    if (readOnly && writes)
      fail(CODES.SYNTAX_ERR, 'could not prepare statement (23 not authorized)');
    if (stmt.parameterCount !== args.length)
      fail(CODES.SYNTAX_ERR, "number of '?'s in statement string does not match argument count");
    if (args.length > 0) stmt.bind(args);
    const rows: Record<string, unknown>[] = [];
    try {
      while (stmt.step()) rows.push(stmt.get({}));
    } catch (e) {
      throw new StatementFailure(stepError(e));
    }
    const rowsAffected = writes ? Number(db.changes()) : 0;
    const insertId = rowsAffected > 0 ? Number(s3.capi.sqlite3_last_insert_rowid(db)) : undefined;
    return {
      get insertId(): number {
        if (insertId === undefined)
          throw new DOMException('the statement inserted no row', 'InvalidAccessError');
        return insertId;
      },
      rowsAffected,
      rows: { length: rows.length, item: (i: number) => rows[i] ?? null },
    };
  } finally {
    stmt.finalize();
  }
}

/** One transaction, start to end, then its error or success callback in a later task. */
function run(s3: Sqlite3Static, file: File, work: Work): void {
  const tx = new ShimTransaction();
  let error: SQLError | undefined;
  if (work.change && work.change.from !== file.version) {
    error = new SQLError(
      CODES.VERSION_ERR,
      `current version of the database is "${file.version}", not "${work.change.from}"`,
    );
  } else {
    file.db.exec('BEGIN');
    try {
      tx.callback(() => work.callback?.(tx));
    } catch (e) {
      error = new SQLError(
        CODES.UNKNOWN_ERR,
        `the transaction callback raised an exception: ${firstLine(e)}`,
      );
    }
    while (!error) {
      const statement = tx.statements.shift();
      if (!statement) break;
      let result: ResultSet | undefined;
      let failed: SQLError | undefined;
      try {
        result = execute(s3, file.db, statement, work.readOnly);
      } catch (e) {
        failed =
          e instanceof StatementFailure
            ? e.sqlError
            : new SQLError(CODES.DATABASE_ERR, firstLine(e));
      }
      try {
        if (result) tx.callback(() => statement.onResult?.(tx, result));
        else if (
          !statement.onError ||
          tx.callback(() => statement.onError?.(tx, failed as SQLError))
        )
          error = failed;
      } catch (e) {
        // As in Chromium: the statement's own error when its error callback threw.
        error =
          failed ??
          new SQLError(
            CODES.UNKNOWN_ERR,
            `the statement callback raised an exception: ${firstLine(e)}`,
          );
      }
    }
    if (!error) {
      try {
        if (work.change) {
          file.db.exec({
            sql: "INSERT INTO __WebKitDatabaseInfoTable__ (key, value) VALUES ('WebKitDatabaseVersionKey', ?)",
            bind: [work.change.to],
          });
        }
        file.db.exec('COMMIT');
        if (work.change) file.version = work.change.to;
      } catch (e) {
        error = new SQLError(CODES.DATABASE_ERR, `unable to commit transaction (${firstLine(e)})`);
      }
    }
    if (error) {
      try {
        file.db.exec('ROLLBACK');
      } catch {
        // SQLite already rolled back (some errors end the transaction themselves).
      }
    }
  }
  const failure = error;
  if (failure) {
    if (work.onError) queueTask(() => work.onError?.(failure));
  } else if (work.onSuccess) queueTask(() => work.onSuccess?.());
}

function schedule(s3: Sqlite3Static, file: File): void {
  if (file.running) return;
  file.running = true;
  queueTask(function next() {
    const work = file.queue.shift();
    if (!work) {
      file.running = false;
      return;
    }
    run(s3, file, work);
    queueTask(next);
  });
}

class ShimDatabase {
  constructor(
    private readonly s3: Sqlite3Static,
    private readonly file: File,
  ) {}

  get version(): string {
    return this.file.version;
  }

  private enqueue(work: Work): void {
    this.file.queue.push(work);
    schedule(this.s3, this.file);
  }

  transaction(
    callback: TransactionCallback,
    onError?: ((e: SQLError) => void) | null,
    onSuccess?: (() => void) | null,
  ): void {
    this.enqueue({ readOnly: false, callback, onError, onSuccess });
  }

  readTransaction(
    callback: TransactionCallback,
    onError?: ((e: SQLError) => void) | null,
    onSuccess?: (() => void) | null,
  ): void {
    this.enqueue({ readOnly: true, callback, onError, onSuccess });
  }

  changeVersion(
    from: string,
    to: string,
    callback?: TransactionCallback | null,
    onError?: ((e: SQLError) => void) | null,
    onSuccess?: (() => void) | null,
  ): void {
    this.enqueue({
      readOnly: false,
      callback,
      onError,
      onSuccess,
      change: { from: String(from), to: String(to) },
    });
  }
}

function openDatabase(
  name: string,
  version: string,
  _displayName: string,
  _estimatedSize: number,
  creationCallback?: ((db: ShimDatabase) => void) | null,
): ShimDatabase {
  const s3 = sqlite3;
  if (!s3) throw new Error('the WebSQL shim is not installed');
  const key = String(name);
  let file = files.get(key);
  const created = !file;
  if (!file) {
    const db = new s3.oo1.DB(':memory:');
    db.exec(
      'CREATE TABLE __WebKitDatabaseInfoTable__ (key TEXT NOT NULL ON CONFLICT FAIL UNIQUE ON CONFLICT REPLACE, value TEXT NOT NULL ON CONFLICT FAIL)',
    );
    // With a creation callback the new database starts at version '' (spec, openDatabase step 6).
    const initial = creationCallback ? '' : String(version);
    db.exec({
      sql: "INSERT INTO __WebKitDatabaseInfoTable__ (key, value) VALUES ('WebKitDatabaseVersionKey', ?)",
      bind: [initial],
    });
    file = { db, version: initial, queue: [], running: false };
    files.set(key, file);
  } else if (String(version) !== '' && String(version) !== file.version) {
    throw new DOMException(
      `unable to open database, version mismatch, '${String(version)}' does not match the currentVersion of '${file.version}'`,
      'InvalidStateError',
    );
  }
  const database = new ShimDatabase(s3, file);
  if (created && creationCallback) queueTask(() => creationCallback(database));
  return database;
}

/**
 * Load SQLite Wasm and install `openDatabase` on the global object, with the marker that labels
 * every WebSQL result of this page as emulated. Call it before anything imports localForage:
 * localForage decides whether its WebSQL driver is supported when its module is evaluated.
 */
export async function installWebSqlShim(): Promise<void> {
  sqlite3 ??= await sqlite3InitModule();
  const g = globalThis as Record<string, unknown>;
  g[WEBSQL_EMULATION_MARKER] = WEBSQL_SHIM_DESCRIPTION;
  g.openDatabase = openDatabase;
}
