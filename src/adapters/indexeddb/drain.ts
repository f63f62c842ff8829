/**
 * Waiting for a connection's transactions to end before it is closed and its database deleted.
 * A library's promise may resolve on its request's success, a moment before the transaction
 * ends (Dexie's count, localForage's length). A connection closed then still holds the database
 * until the transaction ends, so a deleteDatabase made at once is `blocked` for that moment:
 * Chromium fires the event, and Dexie and localForage log it as a warning, although the delete
 * goes through. Draining first makes the harness's own deletes never blocked, so a `blocked`
 * event always means a connection that was left open.
 */

/**
 * Resolves once every transaction `db` has started is finished: a readwrite transaction over
 * every object store starts only after each earlier transaction whose scope overlaps it has
 * finished, so its `complete` is that moment. A closed connection, or one with no store, has
 * nothing to wait for. It writes nothing, and takes the durability the store's own writes use, so
 * it is not a write of another kind (the contract's durability check sees every transaction).
 */
export function drained(
  db: IDBDatabase,
  durability: IDBTransactionDurability = 'default',
): Promise<void> {
  let tx: IDBTransaction;
  try {
    tx = db.transaction([...db.objectStoreNames], 'readwrite', { durability });
  } catch {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    // Aborted or failed, the transaction has ended all the same: that is all this waits for.
    tx.oncomplete = tx.onabort = tx.onerror = () => resolve();
  });
}
