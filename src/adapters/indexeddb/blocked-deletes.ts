/**
 * IndexedDB's `blocked` event on deleteDatabase, named. A delete waits for every connection to the
 * database to close; a connection that does not close on its `versionchange` event blocks it for
 * as long as the page lives, and the caller sees only a timeout that says where, not why. Watching
 * every deleteDatabase request of the page (whichever library made it) turns that into an error at
 * once, with what the store must do.
 */

/** What a store whose delete is blocked must do: the advice every such failure carries. */
const BLOCKED_ADVICE =
  'close the connection on versionchange (db.onversionchange = () => db.close()), and close it in close() and destroy() before deleting';

/** How long a blocked delete may wait for a connection that is closing: its last transaction's end. */
const BLOCKED_GRACE_MS = 1_000;

export class BlockedDeleteError extends Error {
  override readonly name = 'BlockedDeleteError';
  constructor(readonly database: string) {
    super(
      `deleteDatabase("${database}") is blocked: a connection to it is still open. ${BLOCKED_ADVICE}`,
    );
  }
}

interface BlockedWatch {
  /** Rejects with a BlockedDeleteError at the first blocked delete; never resolves. */
  readonly blocked: Promise<never>;
  /** Puts deleteDatabase back as it was. */
  stop(): void;
}

/**
 * Watch the page's deleteDatabase calls until stop(). The original is called as it was, so a
 * blocked delete still completes once the connection closes; only the caller hears of it sooner.
 */
function watchBlockedDeletes(): BlockedWatch {
  let fail: (e: Error) => void = () => {};
  const blocked = new Promise<never>((_, reject) => (fail = reject));
  // Awaited by whoever races it; this keeps an unraced watch from surfacing as unhandled.
  blocked.catch(() => {});
  if (typeof IDBFactory === 'undefined') return { blocked, stop: () => {} };
  const proto = IDBFactory.prototype;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, called with its own `this`
  const original = proto.deleteDatabase;
  proto.deleteDatabase = function (this: IDBFactory, name: string): IDBOpenDBRequest {
    const request = original.call(this, name);
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A connection closed with a transaction still running blocks the delete too, until that
    // transaction ends: a moment, not a failure. One still open after the grace is.
    request.addEventListener('blocked', () => {
      timer = setTimeout(() => fail(new BlockedDeleteError(name)), BLOCKED_GRACE_MS);
    });
    const settled = () => clearTimeout(timer);
    request.addEventListener('success', settled);
    request.addEventListener('error', settled);
    return request;
  };
  return { blocked, stop: () => void (proto.deleteDatabase = original) };
}

/** `work`, failing at once if a delete it makes is blocked. */
export async function unblocked<T>(work: () => Promise<T>): Promise<T> {
  const watch = watchBlockedDeletes();
  try {
    return await Promise.race([work(), watch.blocked]);
  } finally {
    watch.stop();
  }
}
