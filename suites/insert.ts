import type { Doc } from '../src/core/store/adapter.ts';
import { shuffled } from '../fixtures/random.ts';
import {
  defineCase,
  type BenchCase,
  type CaseContext,
  type Suite,
} from '../src/core/store/suite.ts';
import { expectCount } from './prefill.ts';

/** Setup shared by the insert cases: the documents to write, built before the clock starts. */
const docsOfSize = async (ctx: CaseContext): Promise<Doc[]> => ctx.fixture.docs(ctx.size);

const verifyCount = async (ctx: CaseContext) =>
  expectCount('documents after insert', await ctx.handle.count(), ctx.size);

const serial = defineCase({
  id: 'serial',
  title: 'insert one at a time (await each)',
  needs: [],
  operations: (size) => size,
  setup: docsOfSize,
  async run(ctx, docs) {
    for (const doc of docs) await ctx.handle.put(doc);
  },
  verify: verifyCount,
});

/**
 * Every write issued at once and awaited together: the PouchDB insertion profile's way of
 * inserting 100,000 documents ("100K distinct Promises at once", with Promise.allSettled).
 */
const parallel = defineCase({
  id: 'parallel',
  title: 'insert all at once (every write issued, then all awaited)',
  needs: [],
  operations: (size) => size,
  setup: docsOfSize,
  async run(ctx, docs) {
    await Promise.all(docs.map((doc) => ctx.handle.put(doc)));
  },
  verify: verifyCount,
});

const bulk = defineCase({
  id: 'bulk',
  title: 'insert all in one bulk write',
  needs: ['bulkWrite'],
  operations: (size) => size,
  setup: docsOfSize,
  async run(ctx, docs) {
    await ctx.handle.bulkPut(docs);
  },
  verify: verifyCount,
});

/** Bulk writes of `chunkSize` documents each, awaited in turn (the JSONStore add chunk study). */
function chunked(chunkSize: number): BenchCase {
  return defineCase({
    id: `chunked-${chunkSize}`,
    title: `insert in bulk chunks of ${chunkSize}`,
    needs: ['bulkWrite'],
    params: { chunkSize },
    operations: (size) => size,
    async setup(ctx) {
      const docs = ctx.fixture.docs(ctx.size);
      const out: Doc[][] = [];
      for (let i = 0; i < docs.length; i += chunkSize) out.push(docs.slice(i, i + chunkSize));
      return out;
    },
    async run(ctx, batches) {
      for (const batch of batches) await ctx.handle.bulkPut(batch);
    },
    verify: verifyCount,
  });
}

type KeyOrder = 'ascending' | 'descending' | 'random';

/** Bulk chunks of 100 in ascending, descending or random key order (the Jofti B-tree study). */
function keyOrder(order: KeyOrder, chunkSize: number): BenchCase {
  return defineCase({
    id: `order-${order}`,
    title: `insert in ${order} key order (bulk chunks of ${chunkSize})`,
    needs: ['bulkWrite'],
    params: { order, chunkSize },
    operations: (size) => size,
    async setup(ctx) {
      const docs = ctx.fixture.docs(ctx.size);
      const ordered =
        order === 'ascending'
          ? docs
          : order === 'descending'
            ? docs.reverse()
            : shuffled(docs, ctx.rng);
      const out: Doc[][] = [];
      for (let i = 0; i < ordered.length; i += chunkSize) out.push(ordered.slice(i, i + chunkSize));
      return out;
    },
    async run(ctx, batches) {
      for (const batch of batches) await ctx.handle.bulkPut(batch);
    },
    verify: verifyCount,
  });
}

/**
 * insert: N documents written one at a time, awaiting each (PouchDB's basic-inserts, the 2.2.0
 * report's `db.post()` test), in one bulk write (bulk-inserts), in bulk chunks of several sizes
 * (JSONStore found a sweet spot near 500 to 1,000 per call) and in three key orders (Jofti).
 */
export const insertSuite: Suite = {
  id: 'insert',
  title: 'Insert',
  description:
    'N new documents written one at a time, in one bulk write, in bulk chunks of several sizes, and in ascending, descending and random key order.',
  reproduces:
    'PouchDB 2.2.0 report (basic inserts), PouchDB perf suite (basic-inserts, bulk-inserts), IBM JSONStore (add, chunk size), Jofti (key order)',
  params: {
    chunkSizes: {
      kind: 'ints',
      default: [1, 10, 100, 500, 1000],
      help: 'documents per bulk call in the chunked cases',
    },
    orderChunk: {
      kind: 'int',
      default: 100,
      help: 'documents per bulk call in the key-order cases',
    },
  },
  cases: (p) => [
    serial,
    parallel,
    bulk,
    ...(p.chunkSizes as number[]).map(chunked),
    ...(['ascending', 'descending', 'random'] as const).map((o) =>
      keyOrder(o, p.orderChunk as number),
    ),
  ],
};
