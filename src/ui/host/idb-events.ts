/**
 * Counts the IndexedDB events that tell of other tabs: `blocked` on an open request (another
 * connection to the database did not close for a version change) and `versionchange` on an open
 * database (another connection asks for a new version). Every store on IndexedDB opens through
 * indexedDB.open, so wrapping it once in the page sees them all, whichever library opened it.
 */
export interface IdbEvents {
  blocked: number;
  versionchange: number;
}

const counts: IdbEvents = { blocked: 0, versionchange: 0 };
let installed = false;

/** Start counting (once per page), and return the counts so far. */
export function idbEvents(): IdbEvents {
  if (!installed && typeof IDBFactory !== 'undefined') {
    installed = true;
    // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, which the patch calls with its own `this`
    const open = IDBFactory.prototype.open;
    IDBFactory.prototype.open = function (
      this: IDBFactory,
      ...args: Parameters<IDBFactory['open']>
    ): IDBOpenDBRequest {
      const request = open.apply(this, args);
      request.addEventListener('blocked', () => counts.blocked++);
      request.addEventListener('success', () =>
        request.result.addEventListener('versionchange', () => counts.versionchange++),
      );
      return request;
    };
  }
  return { ...counts };
}
