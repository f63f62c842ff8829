import { expectEqual, defineCase, type BenchCase, type Suite } from '../src/core/suite.ts';
import type { Doc } from '../src/core/adapter.ts';

/** Setup shared by the insert cases: the documents to write, built before the clock starts. */
const docsOfSize = async (ctx: { size: number; fixture: { docs(n: number): Doc[] } }) => ctx.fixture.docs(ctx.size);

const serial = defineCase<Doc[]>({
  id: 'serial',
  title: 'insert one at a time (await each)',
  needs: [],
  operations: (size) => size,
  setup: docsOfSize,
  async run(ctx, docs) {
    for (const doc of docs) await ctx.handle.put(doc);
  },
  async verify(ctx) {
    expectEqual('count after insert', await ctx.handle.count(), ctx.size);
  },
});

const bulk = defineCase<Doc[]>({
  id: 'bulk',
  title: 'insert all in one bulk write',
  needs: ['bulkWrite'],
  operations: (size) => size,
  setup: docsOfSize,
  async run(ctx, docs) {
    await ctx.handle.bulkPut!(docs);
  },
  async verify(ctx) {
    expectEqual('count after insert', await ctx.handle.count(), ctx.size);
  },
});

/**
 * insert: N documents written one at a time, awaiting each (PouchDB's basic-inserts, the 2.2.0
 * report's `db.post()` test) and in one bulk write (bulk-inserts; JSONStore's add).
 */
export const insertSuite: Suite = {
  id: 'insert',
  title: 'Insert',
  description: 'N new documents written one at a time, awaiting each, and in one bulk write where the store has one.',
  reproduces: 'PouchDB 2.2.0 report (basic inserts), PouchDB perf suite (basic-inserts, bulk-inserts), IBM JSONStore (add)',
  cases: (): readonly BenchCase[] => [serial, bulk],
};
