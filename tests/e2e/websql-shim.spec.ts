import { expect, test, type Page } from '@playwright/test';
import type { installWebSqlShim } from './websql-shim.ts';

/**
 * The WebSQL shim (websql-shim.ts) keeps the parts of the WebSQL processing model that the
 * adapters and localForage rely on. If it did not, the contract test's emulated WebSQL runs
 * would prove nothing. Each check runs in a real browser against SQLite Wasm.
 */

// The page imports the module by URL; naming the export here shows knip it is used.
type ShimModule = { installWebSqlShim: typeof installWebSqlShim };

// The WebSQL API as these checks call it: no TypeScript types ship for it.
interface SqlError {
  readonly code: number;
  readonly SYNTAX_ERR: number;
}
interface SqlResultSet {
  readonly insertId: number;
  readonly rowsAffected: number;
  readonly rows: { readonly length: number; item(index: number): unknown };
}
interface SqlTransaction {
  executeSql(
    sql: string,
    args?: unknown[],
    onResult?: (tx: SqlTransaction, rs: SqlResultSet) => void,
    onError?: (tx: SqlTransaction, e: SqlError) => unknown,
  ): void;
}
type TransactionFn = (
  body: (tx: SqlTransaction) => void,
  onError?: (e: SqlError) => void,
  onSuccess?: () => void,
) => void;
interface SqlDatabase {
  transaction: TransactionFn;
  readTransaction: TransactionFn;
}

const SHIM = '/tests/e2e/websql-shim.ts';

/** The test page without Vite's HMR client, which would reload it when a source file is saved. */
async function openShimPage(page: Page): Promise<void> {
  await page.route('**/tests/e2e/blank.html', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      /<script[^>]*\/@vite\/client[^>]*><\/script>/g,
      '',
    );
    await route.fulfill({ response, body });
  });
  await page.goto('/tests/e2e/blank.html');
  await page.evaluate(async (url) => {
    await ((await import(url)) as ShimModule).installWebSqlShim();
  }, SHIM);
}

test('websql shim - processing model', async ({ page }) => {
  await openShimPage(page);
  const seen = await page.evaluate(async () => {
    const open = (globalThis as { openDatabase?: (...args: unknown[]) => SqlDatabase })
      .openDatabase!;
    const db = open(`shim-${Math.random()}`, '', 'shim', 1024);
    const log: string[] = [];
    const txn = (kind: 'transaction' | 'readTransaction', body: (tx: SqlTransaction) => void) =>
      new Promise<string>((resolve) =>
        db[kind](
          body,
          (e) => resolve(`error ${e.code} ${e.code === e.SYNTAX_ERR ? 'SYNTAX_ERR' : ''}`.trim()),
          () => resolve('ok'),
        ),
      );
    const rows = async (sql: string, args: unknown[] = []) => {
      let out: unknown[] = [];
      await txn('readTransaction', (tx) =>
        tx.executeSql(sql, args, (_tx, rs) => {
          out = Array.from({ length: rs.rows.length }, (_, i) => rs.rows.item(i));
        }),
      );
      return out;
    };

    // The callback runs later, not inside transaction(); transactions run in the order asked.
    const first = txn('transaction', (tx) => {
      log.push('first');
      tx.executeSql('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)');
    });
    const second = txn('transaction', () => log.push('second'));
    log.push('returned');
    await Promise.all([first, second]);

    const results: Record<string, unknown> = { order: log };
    await txn('transaction', (tx) =>
      tx.executeSql('INSERT INTO t (v) VALUES (?)', ['a'], (_tx, rs) => {
        results.insert = {
          insertId: rs.insertId,
          rowsAffected: rs.rowsAffected,
          rows: rs.rows.length,
        };
      }),
    );
    await txn('readTransaction', (tx) =>
      tx.executeSql('SELECT v FROM t', [], (_tx, rs) => {
        let threw = 'no';
        try {
          void rs.insertId;
        } catch (e) {
          threw = (e as Error).name;
        }
        results.select = {
          rowsAffected: rs.rowsAffected,
          first: rs.rows.item(0),
          past: rs.rows.item(5),
          insertIdThrows: threw,
        };
      }),
    );

    // executeSql only from the transaction's callbacks: a promise continuation is too late.
    let fromContinuation = 'not run';
    await txn('transaction', (tx) => {
      void Promise.resolve().then(() => {
        try {
          tx.executeSql('SELECT 1');
          fromContinuation = 'accepted';
        } catch (e) {
          fromContinuation = (e as Error).name;
        }
      });
    });
    results.executeSqlFromContinuation = fromContinuation;

    // A statement error: an error callback returning a falsy value goes on and commits, as in
    // Chromium and WebKit; a truthy value, a throw or no callback at all roll back.
    const count = async () =>
      Number(((await rows('SELECT COUNT(*) AS n FROM t')) as { n: number }[])[0]?.n ?? 0);
    const insertThenFail = async (onError?: (tx: SqlTransaction, e: SqlError) => unknown) => {
      const before = await count();
      const outcome = await txn('transaction', (tx) => {
        tx.executeSql('INSERT INTO t (v) VALUES (?)', [`x${Math.random()}`]);
        tx.executeSql('INSERT INTO nowhere VALUES (1)', [], undefined, onError);
      });
      return [outcome, (await count()) - before];
    };
    results.errorCallbacks = {
      returnsFalse: await insertThenFail(() => false),
      returnsUndefined: await insertThenFail(() => undefined),
      returnsTrue: await insertThenFail(() => true),
      returnsObject: await insertThenFail(() => ({})),
      throws: await insertThenFail(() => {
        throw new Error('boom');
      }),
      none: await insertThenFail(),
    };
    // A statement callback that throws rolls back too.
    const beforeThrow = await count();
    results.throwingResultCallback = [
      await txn('transaction', (tx) =>
        tx.executeSql('INSERT INTO t (v) VALUES (?)', ['y'], () => {
          throw new Error('boom');
        }),
      ),
      (await count()) - beforeThrow,
    ];

    // Error codes, as Chromium reported them.
    const codeOf = (
      sql: string,
      args: unknown[] = [],
      kind: 'transaction' | 'readTransaction' = 'transaction',
    ) =>
      new Promise<number>((resolve) =>
        db[kind](
          (tx) =>
            tx.executeSql(
              sql,
              args,
              () => resolve(-1),
              (_tx, e) => resolve(e.code),
            ),
          () => {},
        ),
      );
    results.codes = {
      missingTable: await codeOf('SELECT * FROM nowhere'),
      badSyntax: await codeOf('SELEC 1'),
      wrongArgumentCount: await codeOf('SELECT ?', []),
      unique: await codeOf('INSERT INTO t (v) VALUES (?)', ['a']),
      writeInReadTransaction: await codeOf('DELETE FROM t', [], 'readTransaction'),
    };
    results.tables = (
      (await rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) as {
        name: string;
      }[]
    ).map((r) => r.name);
    return results;
  });

  expect(seen.order).toEqual(['returned', 'first', 'second']);
  expect(seen.insert).toEqual({ insertId: 1, rowsAffected: 1, rows: 0 });
  expect(seen.select).toEqual({
    rowsAffected: 0,
    first: { v: 'a' },
    past: null,
    insertIdThrows: 'InvalidAccessError',
  });
  expect(seen.executeSqlFromContinuation).toBe('InvalidStateError');
  expect(seen.errorCallbacks).toEqual({
    returnsFalse: ['ok', 1],
    returnsUndefined: ['ok', 1],
    returnsTrue: ['error 5 SYNTAX_ERR', 0],
    returnsObject: ['error 5 SYNTAX_ERR', 0],
    throws: ['error 5 SYNTAX_ERR', 0],
    none: ['error 5 SYNTAX_ERR', 0],
  });
  expect(seen.throwingResultCallback).toEqual(['error 0', 0]);
  expect(seen.codes).toEqual({
    missingTable: 5,
    badSyntax: 5,
    wrongArgumentCount: 5,
    unique: 6,
    writeInReadTransaction: 5,
  });
  expect(seen.tables).toEqual(['__WebKitDatabaseInfoTable__', 't']);
});

test('websql shim - versions', async ({ page }) => {
  await openShimPage(page);
  const seen = await page.evaluate(() => {
    const open = (globalThis as { openDatabase?: (...args: unknown[]) => { version: string } })
      .openDatabase!;
    const name = `shim-version-${Math.random()}`;
    const attempt = (version: string) => {
      try {
        return open(name, version, name, 1024).version;
      } catch (e) {
        return (e as Error).name;
      }
    };
    return { created: attempt('1'), any: attempt(''), same: attempt('1'), other: attempt('2') };
  });
  expect(seen).toEqual({ created: '1', any: '1', same: '1', other: 'InvalidStateError' });
});

test('websql shim - localForage picks its WebSQL driver and recovers a dropped table', async ({
  page,
}) => {
  await openShimPage(page);
  // The adapter (and so localForage) is imported only now, after the shim: localForage checks
  // for openDatabase when its module is evaluated.
  const seen = await page.evaluate(async (url) => {
    const { localforageWebsqlAdapter: adapter } = (await import(
      url
    )) as typeof import('../../src/adapters/localforage/localforage-websql.ts');
    const name = `shim-lf-${Math.random()}`;
    const supported = await adapter.supported();
    const h = await adapter.open(name);
    await h.put({ _id: 'a', n: 1 });
    const before = await h.get('a');
    // Drop the table behind localForage's back: its next statement fails with SYNTAX_ERR, and
    // localForage re-creates the table and retries (tryExecuteSql).
    type Db = {
      transaction(
        cb: (tx: { executeSql(sql: string): void }) => void,
        e: (err: unknown) => void,
        ok: () => void,
      ): void;
    };
    const db = (globalThis as { openDatabase?: (...args: unknown[]) => Db }).openDatabase!(
      name,
      '',
      '',
      0,
    );
    await new Promise<void>((resolve, reject) =>
      db.transaction((tx) => tx.executeSql('DROP TABLE keyvaluepairs'), reject, resolve),
    );
    const after = await h.get('a');
    await h.put({ _id: 'b', n: 2 });
    const count = await h.count();
    await h.destroy();
    return { supported, before, after, count };
  }, '/src/adapters/localforage/localforage-websql.ts');
  expect(seen).toEqual({ supported: true, before: { _id: 'a', n: 1 }, after: undefined, count: 1 });
});
