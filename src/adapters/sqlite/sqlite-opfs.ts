import type { StoreAdapter, StoreHandle } from '../../core/store/adapter.ts';
import type { Capability } from '../../core/store/capabilities.ts';
import type {
  EngineInfo,
  HandleCalls,
  HandleMethod,
  Request,
  Response,
} from './sqlite-opfs-protocol.ts';

/**
 * The official SQLite Wasm build (@sqlite.org/sqlite-wasm) on the origin private file system,
 * in a dedicated Worker: what browser vendors recommend in place of WebSQL. Each document is a
 * row of docs(id TEXT PRIMARY KEY, json TEXT); createIndex indexes json_extract() expressions
 * and queries become SQL over them (sqlite-query.ts).
 *
 * Design: one SQLite engine per page (or per Worker that uses the store), holding the
 * "opfs-sahpool" VFS, with one connection per database (sqlite-opfs-engine.ts). That pool can be
 * held by only one instance per origin at a time, so an engine per handle would make the
 * runner's open/close/destroy of a fresh database per sample collide with itself; a single
 * engine serves any number of databases and handles with nothing to hand over. Between contexts
 * (the page and the plan Worker, or two tabs) the pool passes when asked and no database is
 * open. The same limit is why `worker` is not declared: the concurrency suite's K Workers each
 * open the one database with a pool of their own, at the same time, and all but the first would
 * be refused.
 *
 * Where the engine runs: OPFS sync access handles exist only in dedicated Workers, so from the
 * page the adapter starts a SQLite worker (sqlite-opfs-worker.ts) and every handle forwards its
 * operations to it as messages (sqlite-opfs-protocol.ts). From a dedicated Worker (the plan
 * Worker) the engine runs in that Worker's own thread, with the same requests and answers,
 * cloned both ways as messages would be. Starting a Worker from a Worker is what it saves:
 * in Firefox ESR 153 on a loaded 2-core machine a nested `new Worker()` now and then never comes
 * back (1 run in 40 to 80; the Worker's own timers stop firing with it), which freezes the whole
 * plan Worker. `describe()` records which way ran (`runsIn`).
 *
 * Defaults are SQLite's: journal_mode DELETE and synchronous FULL, so each put outside a batch is
 * its own durable transaction (a journal file created, flushed and deleted in the pool).
 */

/** Omit that keeps a union a union. */
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Client {
  request<T>(msg: Without<Request, 'id'>): Promise<T>;
}

let client: Client | undefined;
/** Set once the engine has set SQLite up: which VFS and SQLite version ran. */
let engine: EngineInfo | undefined;

/** Whether this code runs in a dedicated Worker, where the engine can run in this thread. */
const inDedicatedWorker = (): boolean => {
  const scope = (globalThis as { DedicatedWorkerGlobalScope?: abstract new () => unknown })
    .DedicatedWorkerGlobalScope;
  return typeof scope === 'function' && globalThis instanceof scope;
};

const RUNS_IN = {
  worker: 'a SQLite worker of its own',
  thread: 'the Worker that uses the store',
} as const;

function startClient(): Client {
  const worker = new Worker(new URL('./sqlite-opfs-worker.ts', import.meta.url), {
    type: 'module',
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const failAll = (why: string) => {
    for (const p of pending.values()) p.reject(new Error(why));
    pending.clear();
    // A dead worker has released the pool; the next request starts a new one.
    worker.terminate();
    if (client === created) client = undefined;
  };
  worker.addEventListener('message', (event: MessageEvent<Response>) => {
    const msg = event.data;
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.ok) p.resolve(msg.value);
    else p.reject(new Error(msg.error));
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    failAll(`the SQLite worker failed: ${event.message || 'it could not be loaded'}`);
  });
  worker.addEventListener('messageerror', () =>
    failAll('the SQLite worker sent a message that could not be read'),
  );
  const created: Client = {
    request<T>(msg: Without<Request, 'id'>) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        worker.postMessage({ ...msg, id });
      });
    },
  };
  return created;
}

/**
 * The engine in this thread (in a dedicated Worker). Requests and answers are cloned, as
 * postMessage would clone them, so the engine and the caller never share an object.
 */
function startInThread(): Client {
  const loaded = import('./sqlite-opfs-engine.ts');
  let nextId = 1;
  const created: Client = {
    async request<T>(msg: Without<Request, 'id'>) {
      const { serve } = await loaded.catch((e: unknown) => {
        // A failed load is not cached: the next request tries again.
        if (client === created) client = undefined;
        throw new Error(`the SQLite engine could not be loaded: ${oneLine(e)}`);
      });
      const answer = await serve(structuredClone({ ...msg, id: nextId++ }));
      if (!answer.ok) throw new Error(answer.error);
      return structuredClone(answer.value) as T;
    },
  };
  return created;
}

const request = <T>(msg: Without<Request, 'id'>) =>
  (client ??= inDedicatedWorker() ? startInThread() : startClient()).request<T>(msg);

const oneLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';

/** The probe's answer, once it was yes: it does not change while the page lives. */
let supportedHere = false;

/**
 * Why the store cannot run here, or undefined. Cheap checks in this context first, then the
 * worker checks OPFS sync access handles, which exist only in dedicated Workers. It neither
 * loads SQLite nor takes the pool: the page asks every store at load, and a pool taken then
 * would be held against a plan Worker or another tab that needs it.
 */
async function unsupportedReason(): Promise<string | undefined> {
  if (supportedHere) return undefined;
  if (typeof Worker === 'undefined') return 'dedicated Workers are not available here';
  const storage = (globalThis.navigator as Navigator | undefined)?.storage;
  if (typeof storage?.getDirectory !== 'function')
    return 'OPFS is not available here (navigator.storage.getDirectory is missing)';
  try {
    const answer = await request<true | string>({ op: 'probe' });
    if (answer !== true) return answer;
  } catch (e) {
    return `the SQLite worker cannot start here: ${oneLine(e)}`;
  }
  supportedHere = true;
  return undefined;
}

function handleFor(id: number, name: string): StoreHandle {
  let open = true;
  const call = async <M extends HandleMethod>(
    method: M,
    ...args: HandleCalls[M][0]
  ): Promise<HandleCalls[M][1]> => {
    if (!open) throw new Error(`SQLite database ${name} is closed`);
    return request<HandleCalls[M][1]>({ op: 'call', handle: id, method, args });
  };
  return {
    put: (doc) => call('put', doc),
    get: (docId) => call('get', docId),
    count: () => call('count'),
    bulkPut: (docs) => call('bulkPut', docs),
    getMany: (ids) => call('getMany', ids),
    range: (range) => call('range', range),
    update: (doc) => call('update', doc),
    bulkUpdate: (docs) => call('bulkUpdate', docs),
    remove: (docId) => call('remove', docId),
    bulkRemove: (ids) => call('bulkRemove', ids),
    createIndex: (fields) => call('createIndex', fields),
    find: (query) => call('find', query),
    countWhere: (query) => call('countWhere', query),
    async close() {
      if (!open) return;
      open = false;
      await request({ op: 'close', handle: id });
    },
    async destroy() {
      open = false;
      // Closes the database for every handle on it, then deletes its file from the pool.
      await request({ op: 'destroy', name });
    },
  };
}

/** The database files in this page's pool (tests check that destroy leaves none behind). */
export async function sqliteOpfsFileNames(): Promise<string[]> {
  return client ? client.request<string[]>({ op: 'files' }) : [];
}

const capabilities: readonly Capability[] = [
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
];

export const sqliteOpfsAdapter: StoreAdapter = {
  id: 'sqlite-opfs',
  label: 'SQLite Wasm on OPFS (opfs-sahpool VFS, in a Worker)',
  backend: 'opfs',
  capabilities,
  lacks: {
    worker:
      'its OPFS SyncAccessHandle pool can be held by one context of the site at a time, so K Workers cannot each open the database at once',
    durability:
      "SQLite's durability is PRAGMA synchronous, not IndexedDB's transaction hint that the durability suite sets; it runs with SQLite's default, FULL",
  },
  async supported() {
    return (await unsupportedReason()) ?? true;
  },
  async open(name) {
    const reason = await unsupportedReason();
    if (reason) throw new Error(reason);
    // SQLite loads and takes the pool on the first open; the answer says which VFS it set up.
    engine ??= await request<EngineInfo>({ op: 'init' });
    return handleFor(await request<number>({ op: 'open', name }), name);
  },
  async destroy(name) {
    await request({ op: 'destroy', name });
  },
  // What ran, once it has run: the VFS and SQLite version the engine set up, and where it ran.
  describe: (): Record<string, string> =>
    engine
      ? {
          vfs: engine.vfs,
          sqlite: engine.sqlite,
          runsIn: inDedicatedWorker() ? RUNS_IN.thread : RUNS_IN.worker,
        }
      : {},
};
