/**
 * A dedicated Worker of the concurrency suite: it opens the same database as the page, with the
 * same adapter, waits for "go", then writes or reads its share one operation at a time and
 * reports its per-operation latencies. Opening happens before "go", so it is not timed.
 */
import { adapterById } from '../src/adapters/registry.ts';
import type { StoreHandle } from '../src/core/store/adapter.ts';
import { errorMessage } from '../src/core/base/errors.ts';
import { docId, fixtureShape, makeDocs } from '../fixtures/index.ts';

export interface WorkerTask {
  adapter: string;
  dbName: string;
  mode: 'write' | 'read';
  fixture: string;
  seed: number;
  start: number;
  count: number;
}

export type WorkerReply =
  { type: 'ready' } | { type: 'done'; latencies: number[] } | { type: 'error'; message: string };

let handle: StoreHandle | undefined;
let task: WorkerTask | undefined;

const reply = (msg: WorkerReply) => (self as unknown as Worker).postMessage(msg);

self.addEventListener(
  'message',
  (event: MessageEvent<{ type: 'task'; task: WorkerTask } | { type: 'go' }>) => {
    void (async () => {
      try {
        const msg = event.data;
        if (msg.type === 'task') {
          task = msg.task;
          handle = await adapterById(task.adapter).open(task.dbName);
          reply({ type: 'ready' });
          return;
        }
        if (!handle || !task) throw new Error('"go" before "task"');
        const latencies: number[] = [];
        if (task.mode === 'write') {
          for (const doc of makeDocs(
            fixtureShape(task.fixture),
            task.seed,
            task.count,
            task.start,
          )) {
            const t0 = performance.now();
            await handle.put(doc);
            latencies.push(performance.now() - t0);
          }
        } else {
          for (let i = task.start; i < task.start + task.count; i++) {
            const t0 = performance.now();
            if ((await handle.get(docId(i))) === undefined)
              throw new Error(`document ${docId(i)} not found`);
            latencies.push(performance.now() - t0);
          }
        }
        await handle.close();
        reply({ type: 'done', latencies });
      } catch (e) {
        reply({ type: 'error', message: errorMessage(e) });
      }
    })();
  },
);
