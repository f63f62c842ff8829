import { defineCase, type BenchCase, type Suite } from '../src/core/store/suite.ts';
import { expectCount, prefill, writeAll } from './prefill.ts';

/**
 * Pre-populate the store with `size` documents, then insert `batches` batches of `batchSize`,
 * timing each batch against the store size before it. Each batch is generated between timed
 * writes, so the page holds one batch at a time and the case reaches a million documents
 * without running out of memory; that is why it times itself (the sample is the sum of the
 * batch times, generation excluded).
 */
function growth(batchSize: number, batches: number): BenchCase {
  return defineCase({
    id: 'batches',
    title: `insert ${batches} batches of ${batchSize} while the store grows`,
    needs: ['bulkWrite', 'count'],
    params: { batch: batchSize, batches },
    series: { x: 'documents in store', y: 'batch time (ms)' },
    operations: () => batchSize * batches,
    async setup(ctx) {
      await prefill(ctx.handle, ctx, ctx.size);
    },
    async run(ctx) {
      let total = 0;
      let inStore = ctx.size;
      let done = 0;
      for (const chunk of ctx.fixture.chunks(batches * batchSize, batchSize, ctx.size)) {
        const t0 = ctx.now();
        await writeAll(ctx.handle, chunk);
        const ms = ctx.now() - t0;
        ctx.point(inStore, ms);
        total += ms;
        inStore += chunk.length;
        // Yield to the event loop between batches, untimed, so the page can paint and collect garbage.
        if (++done % 10 === 0) await new Promise((r) => setTimeout(r, 0));
      }
      return total;
    },
    async verify(ctx) {
      expectCount(
        'documents after growth',
        await ctx.handle.count(),
        ctx.size + batches * batchSize,
      );
    },
  });
}

/**
 * growth: the PouchDB insertion profile went in batches of 10,000 past 1,000,000 rows; Jofti
 * timed every 10,000 up to 1,000,000. The default plan is small; raise `batch` and `batches`
 * (and the size, which is the pre-population) to reproduce them.
 */
export const growthSuite: Suite = {
  id: 'growth',
  title: 'Growth',
  description:
    'Pre-populate the plan size, then insert batches while the store grows, recording each batch time against the store size.',
  reproduces:
    'PouchDB insertion profile (batches past 1,000,000 rows), Jofti (every 10,000 up to 1,000,000)',
  params: {
    batch: { kind: 'int', default: 1000, help: 'documents per growth batch' },
    batches: { kind: 'int', default: 10, help: 'number of growth batches after pre-population' },
  },
  cases: (p) => [growth(p.batch as number, p.batches as number)],
};
