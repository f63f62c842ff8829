/**
 * What the adapter contract looks at besides a store's answers: the storage present in the page
 * (to see that destroy deletes), deleting by name as the runner does after a failed case, the
 * durability of the transactions an IndexedDB store opens, and the store in a dedicated Worker.
 */
import type { Durability, StoreAdapter } from '../../core/store/adapter.ts';
import type { DeletedByName, Footprint, WorkerAnswer } from '../../core/store/contract/report.ts';
import { memoryDatabaseNames } from '../memory.ts';
import { settle, uniqueName } from './transcript.ts';

export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function footprint(): Promise<Footprint> {
  return {
    idb: (await indexedDB.databases()).map((d) => d.name ?? '').sort(),
    localStorage: Object.keys(localStorage).sort(),
    memory: memoryDatabaseNames().sort(),
  };
}

/** Delete by name, as the runner does after a case hung or threw, with the handle closed or not. */
export async function deleteByName(
  adapter: StoreAdapter,
  keepOpen: boolean,
): Promise<DeletedByName> {
  const name = uniqueName(adapter.id, keepOpen ? 'byname-open' : 'byname');
  const h = await adapter.open(name);
  await h.put({ _id: 'x', n: 1 });
  if (!keepOpen) await h.close();
  await within(adapter.destroy(name), 20_000, `destroy(${name})`);
  const fp = await footprint();
  if (keepOpen) await settle(h.close());
  const again = await adapter.open(name);
  const countWhenReopened = await again.count();
  await again.destroy();
  return { footprint: fp, countWhenReopened };
}

/** The durability of every readwrite transaction the engine created, per level asked for. */
export async function durabilitySeen(adapter: StoreAdapter): Promise<Record<Durability, string[]>> {
  const proto = IDBDatabase.prototype;
  // Kept to be called with each database as its `this` (apply below), never on its own.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = proto.transaction;
  let seen: string[] = [];
  proto.transaction = function (this: IDBDatabase, ...args: Parameters<typeof original>) {
    const tx = original.apply(this, args);
    if (tx.mode === 'readwrite') seen.push(tx.durability);
    return tx;
  } as typeof original;
  const durability: Record<Durability, string[]> = { relaxed: [], strict: [], default: [] };
  try {
    for (const level of ['relaxed', 'strict', 'default'] as const) {
      seen = [];
      const h = await adapter.open(uniqueName(adapter.id, `durability-${level}`), {
        durability: level,
      });
      await h.put({ _id: 'a', n: 1 });
      await h.bulkPut?.([{ _id: 'b', n: 2 }]);
      await h.update?.({ _id: 'a', n: 3 });
      await h.destroy();
      durability[level] = seen;
    }
  } finally {
    proto.transaction = original;
  }
  return durability;
}

/** The store in a dedicated Worker (worker.ts): two puts, a count and a get. */
export async function inWorker(adapter: StoreAdapter): Promise<WorkerAnswer> {
  const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  try {
    return await within(
      new Promise<WorkerAnswer>((resolve, reject) => {
        w.onmessage = (e: MessageEvent<WorkerAnswer>) => resolve(e.data);
        w.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
        w.postMessage({ id: adapter.id, name: uniqueName(adapter.id, 'worker') });
      }),
      30_000,
      'worker',
    );
  } catch (e) {
    return { ok: false, error: String(e) };
  } finally {
    w.terminate();
  }
}
