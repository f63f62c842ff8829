import type { Durability } from '../src/core/store/adapter.ts';
import { defineCase, type BenchCase, type Suite } from '../src/core/store/suite.ts';
import { expectCount } from './prefill.ts';

const LEVELS: readonly Durability[] = ['relaxed', 'strict', 'default'];

function bulk(durability: Durability): BenchCase {
  return defineCase({
    id: `bulk-${durability}`,
    title: `bulk write, durability ${durability}`,
    needs: ['durability', 'bulkWrite'],
    params: { durability },
    openOptions: { durability },
    operations: (size) => size,
    setup: async (ctx) => ctx.fixture.docs(ctx.size),
    async run(ctx, docs) {
      await ctx.handle.bulkPut(docs);
    },
    async verify(ctx) {
      expectCount('documents after write', await ctx.handle.count(), ctx.size);
    },
  });
}

function serial(durability: Durability): BenchCase {
  return defineCase({
    id: `serial-${durability}`,
    title: `one at a time, durability ${durability}`,
    needs: ['durability'],
    params: { durability },
    openOptions: { durability },
    operations: (size) => size,
    setup: async (ctx) => ctx.fixture.docs(ctx.size),
    async run(ctx, docs) {
      for (const doc of docs) await ctx.handle.put(doc);
    },
    async verify(ctx) {
      expectCount('documents after write', await ctx.handle.count(), ctx.size);
    },
  });
}

/**
 * durability: the Persevere study's fast vs high-integrity commits, in browser terms:
 * IndexedDB transaction durability 'relaxed' (may report done before the OS flushes), 'strict'
 * (flushed first) and 'default' (the browser's own choice, which differs between engines and
 * versions). See IDBTransaction.durability on MDN.
 */
export const durabilitySuite: Suite = {
  id: 'durability',
  title: 'Durability',
  description:
    "Bulk and one-at-a-time writes with IndexedDB transaction durability 'relaxed', 'strict' and 'default', for stores that can set it.",
  reproduces: 'Persevere JavaScriptDB vs CouchDB vs MySQL (fast vs high-integrity commits)',
  cases: () => LEVELS.flatMap((d) => [bulk(d), serial(d)]),
};
