/**
 * Why PouchDB's `idb` adapter hangs in WebKitGTK (2.50 MiniBrowser under WebKitWebDriver), and
 * the workaround. Found by experiment (tiny pages driven over WebDriver) and from
 * pouchdb-browser 9.0.0's source:
 *
 * 1. This WebKit cannot store a Blob in IndexedDB: `put(new Blob(['']), key)` fails at once with
 *    "UnknownError: Error preparing Blob/File data to be stored in object store".
 * 2. When a request issued earlier in the same transaction is still pending, WebKit never
 *    delivers that request's result, and the transaction neither completes nor aborts: it is
 *    wedged for good. A Blob put with nothing pending fails cleanly and the transaction goes on.
 * 3. PouchDB's idb adapter sets a database up in one readwrite transaction: it asks for the meta
 *    document and the document count, and then, in the first database a page opens, checks
 *    whether Blobs can be stored by putting one (`checkBlobSupport`). That is exactly (2): setup
 *    waits for `oncomplete` forever.
 * 4. The adapter opens databases one at a time through a queue per page (`enqueueTask`), so every
 *    later `new PouchDB()` waits behind the wedged one: every open hangs, and so does every
 *    destroy (it opens first). In a sweep every case times out at `open`, every cleanup takes
 *    its full time limit, and a `bulkDocs` looks as if it never finishes.
 *
 * PouchDB's newer `indexeddb` adapter runs the same Blob check from inside a completed request's
 * callback, with nothing pending, so it is not affected.
 *
 * The workaround, only where the probe below sees Blob writes fail: let PouchDB's one Blob check
 * per page run in a throwaway database while `IDBObjectStore.prototype.put` refuses a Blob
 * synchronously (DataCloneError), as engines without Blob support in IndexedDB do. PouchDB
 * catches that, records "no Blob support" for the page, and keeps attachments as base64, which
 * is the truth here. No request is left pending, so nothing wedges; later opens skip the check.
 */
import { withTimeout } from '../../core/base/errors.ts';

/** Bounded: a probe that hangs must not become the hang it is meant to prevent. */
const PROBE_TIMEOUT_MS = 5_000;

/** Whether IndexedDB here refuses to store a Blob; null when the probe itself could not tell. */
export async function blobPutFails(): Promise<boolean | null> {
  if (typeof indexedDB === 'undefined' || typeof Blob === 'undefined') return null;
  const name = `storebench-blob-probe-${Math.random().toString(36).slice(2)}`;
  let db: IDBDatabase | undefined;
  try {
    db = await withTimeout(
      new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(name, 1);
        open.onupgradeneeded = () => open.result.createObjectStore('probe');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error ?? new Error(`cannot open ${name}`));
      }),
      PROBE_TIMEOUT_MS,
      'opening the Blob probe database',
    );
    const opened = db;
    return await withTimeout(
      new Promise<boolean>((resolve) => {
        // The Blob put is the transaction's only request, so a failure cannot wedge it (see 2).
        const tx = opened.transaction('probe', 'readwrite');
        const put = tx.objectStore('probe').put(new Blob(['']), 'blob');
        put.onerror = (e) => {
          e.preventDefault();
          resolve(true);
        };
        tx.oncomplete = () => resolve(false);
        tx.onabort = () => resolve(true);
      }),
      PROBE_TIMEOUT_MS,
      'storing a Blob',
    );
  } catch {
    return null;
  } finally {
    db?.close();
    await deleteQuietly(name);
  }
}

/** Delete an IndexedDB database by name, bounded in time; a failure is left for the caller's checks. */
function deleteQuietly(name: string): Promise<void> {
  return withTimeout(
    new Promise<void>((resolve, reject) => {
      const del = indexedDB.deleteDatabase(name);
      del.onsuccess = () => resolve();
      del.onerror = () => reject(del.error ?? new Error(`cannot delete ${name}`));
    }),
    PROBE_TIMEOUT_MS,
    `deleting ${name}`,
  ).catch(() => {});
}

/**
 * Run PouchDB's once-per-page Blob check in a throwaway database while Blob puts are refused
 * synchronously, then delete that database. `openAndDestroy` opens and destroys a database by
 * name with the idb adapter.
 */
export async function primeBlobCheck(
  openAndDestroy: (name: string) => Promise<void>,
): Promise<void> {
  const proto = IDBObjectStore.prototype;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, which the patch calls with its own `this`
  const put = proto.put;
  proto.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
    if (value instanceof Blob)
      throw new DOMException(
        'storebench: this browser cannot store a Blob in IndexedDB',
        'DataCloneError',
      );
    return put.call(this, value, key);
  };
  const name = `storebench-blob-check-${Math.random().toString(36).slice(2)}`;
  try {
    await withTimeout(
      openAndDestroy(name),
      PROBE_TIMEOUT_MS,
      "PouchDB's Blob check in a throwaway database",
    );
  } finally {
    proto.put = put;
    // When opening failed (a full disk, a quota error) PouchDB never destroyed it: its database,
    // under PouchDB's own prefix, would stay behind.
    await deleteQuietly(`_pouch_${name}`);
  }
}
