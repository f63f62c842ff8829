import type { Doc } from '../src/core/store/adapter.ts';
import { quantile } from '../src/core/stats/stats.ts';
import {
  defineCase,
  type BenchCase,
  type CaseContext,
  type Suite,
} from '../src/core/store/suite.ts';
import { docId } from '../fixtures/index.ts';
import { expectCount, prefilled } from './prefill.ts';
import type { WorkerReply, WorkerTask } from './concurrency-worker.ts';

type Mode = 'write' | 'read';

const ACTORS: Record<Mode, [string, string]> = {
  write: ['writer', 'writers'],
  read: ['reader', 'readers'],
};
const actors = (mode: Mode, k: number) => ACTORS[mode][k === 1 ? 0 : 1];

/** Split `size` operations over k actors as evenly as possible: [start, count] per actor. */
function shares(size: number, k: number): [number, number][] {
  return Array.from({ length: k }, (_, i) => {
    const start = Math.floor((i * size) / k);
    return [start, Math.floor(((i + 1) * size) / k) - start];
  });
}

/** Record the per-operation latency distribution of a sample (besides its total time). */
function recordLatencies(ctx: CaseContext, latencies: number[]): void {
  ctx.metric('latencyMedianMs', quantile(latencies, 0.5));
  ctx.metric('latencyP95Ms', quantile(latencies, 0.95));
  ctx.metric('latencyMaxMs', quantile(latencies, 1));
}

interface InPage {
  docs: Doc[];
  latencies: number[];
}

/** K concurrent actors in the page itself, each awaiting one operation at a time. */
function inPage(mode: Mode, k: number): BenchCase {
  return defineCase({
    id: `page-${ACTORS[mode][1]}-${k}`,
    title: `${k} concurrent ${actors(mode, k)} in the page`,
    needs: [],
    params: { k, mode },
    operations: (size) => size,
    async setup(ctx): Promise<InPage> {
      if (mode === 'read') await prefilled(ctx);
      return { docs: mode === 'write' ? ctx.fixture.docs(ctx.size) : [], latencies: [] };
    },
    async run(ctx, s) {
      const latencies: number[] = [];
      await Promise.all(
        shares(ctx.size, k).map(async ([start, count]) => {
          for (let i = start; i < start + count; i++) {
            const t0 = ctx.now();
            if (mode === 'write') await ctx.handle.put(s.docs[i] as Doc);
            else if ((await ctx.handle.get(docId(i))) === undefined)
              throw new Error(`document ${docId(i)} not found`);
            latencies.push(ctx.now() - t0);
          }
        }),
      );
      s.latencies = latencies;
    },
    async verify(ctx, s) {
      expectCount('operations done', s.latencies.length, ctx.size);
      expectCount('documents in store', await ctx.handle.count(), ctx.size);
      recordLatencies(ctx, s.latencies);
    },
  });
}

interface InWorkers {
  workers: Worker[];
  latencies: number[];
}

/** Wait for the next reply of a worker that is not an error; reject with the worker's message. */
function nextReply(worker: Worker, want: WorkerReply['type']): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    const onMessage = (e: MessageEvent<WorkerReply>) => {
      cleanup();
      if (e.data.type === 'error') reject(new Error(`worker: ${e.data.message}`));
      else if (e.data.type !== want)
        reject(new Error(`worker sent ${e.data.type}, expected ${want}`));
      else resolve(e.data);
    };
    const onError = (e: ErrorEvent) => {
      cleanup();
      reject(new Error(`worker failed: ${e.message}`));
    };
    const cleanup = () => {
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
  });
}

/** K dedicated Workers, each with its own connection to the same database. */
function inWorkers(mode: Mode, k: number): BenchCase {
  return defineCase({
    id: `worker-${ACTORS[mode][1]}-${k}`,
    title: `${k} concurrent ${actors(mode, k)} in ${k} Worker${k > 1 ? 's' : ''}`,
    needs: ['worker'],
    params: { k, mode },
    operations: (size) => size,
    async setup(ctx): Promise<InWorkers> {
      if (mode === 'read') await prefilled(ctx);
      const workers: Worker[] = [];
      const ready: Promise<WorkerReply>[] = [];
      for (const [start, count] of shares(ctx.size, k)) {
        const worker = new Worker(new URL('./concurrency-worker.ts', import.meta.url), {
          type: 'module',
        });
        workers.push(worker);
        const task: WorkerTask = {
          adapter: ctx.adapter.id,
          dbName: ctx.dbName,
          mode,
          fixture: ctx.fixture.shape,
          seed: ctx.fixture.seed,
          start,
          count,
        };
        ready.push(nextReply(worker, 'ready'));
        worker.postMessage({ type: 'task', task });
      }
      await Promise.all(ready);
      return { workers, latencies: [] };
    },
    async run(_ctx, s) {
      const done = s.workers.map((w) => nextReply(w, 'done'));
      for (const w of s.workers) w.postMessage({ type: 'go' });
      const replies = await Promise.all(done);
      s.latencies = replies.flatMap((r) => (r.type === 'done' ? r.latencies : []));
    },
    async verify(ctx, s) {
      expectCount('operations done', s.latencies.length, ctx.size);
      expectCount('documents in store', await ctx.handle.count(), ctx.size);
      recordLatencies(ctx, s.latencies);
    },
    async teardown(_ctx, s) {
      for (const w of s.workers) w.terminate();
    },
  });
}

/**
 * concurrency: K writers or readers at once, in the page and in K dedicated Workers. Persevere
 * measured 10 concurrent clients; in a browser the analogues are concurrent transactions in one
 * page and several Workers on one database. Records the total time and, per sample, the median,
 * 95th percentile and maximum per-operation latency.
 */
export const concurrencySuite: Suite = {
  id: 'concurrency',
  title: 'Concurrency',
  description:
    'K concurrent writers and readers (one operation at a time each) in the page and in K dedicated Workers; total time and per-operation latency.',
  reproduces: 'Persevere JavaScriptDB vs CouchDB vs MySQL (10 concurrent clients)',
  params: {
    ks: { kind: 'ints', default: [1, 2, 4, 10], help: 'numbers of concurrent writers or readers' },
  },
  cases: (p) => {
    const ks = p.ks as number[];
    return (['write', 'read'] as const).flatMap((mode) => [
      ...ks.map((k) => inPage(mode, k)),
      ...ks.map((k) => inWorkers(mode, k)),
    ]);
  },
};
