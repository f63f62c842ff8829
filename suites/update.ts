import type { Doc } from '../src/core/store/adapter.ts';
import { defineCase, expectEqual, type Suite } from '../src/core/store/suite.ts';
import { expectCount, prefilled } from './prefill.ts';

/** Setup: a full store, and every document changed in one field, ready to be written back. */
async function changedDocs(ctx: Parameters<typeof prefilled>[0]): Promise<Doc[]> {
  await prefilled(ctx);
  return ctx.fixture.docs(ctx.size).map((d) => ({ ...d, revision: 2 }));
}

async function allIds(ctx: Parameters<typeof prefilled>[0]): Promise<string[]> {
  await prefilled(ctx);
  return ctx.fixture.docs(ctx.size).map((d) => d._id);
}

/** Verify a replace: the count is unchanged, and a sampled document carries the new field. */
async function verifyReplaced(ctx: Parameters<typeof prefilled>[0], docs: Doc[]): Promise<void> {
  expectCount('documents after replace', await ctx.handle.count(), ctx.size);
  const probe = docs[ctx.rng.int(docs.length)] as Doc;
  expectEqual(`revision of ${probe._id}`, (await ctx.handle.get(probe._id))?.revision, 2);
}

const replaceSerial = defineCase({
  id: 'replace-serial',
  title: 'replace one at a time',
  needs: ['update'],
  operations: (size) => size,
  setup: changedDocs,
  async run(ctx, docs) {
    for (const doc of docs) await ctx.handle.update(doc);
  },
  verify: verifyReplaced,
});

const replaceBulk = defineCase({
  id: 'replace-bulk',
  title: 'replace all in one bulk call',
  needs: ['bulkUpdate'],
  operations: (size) => size,
  setup: changedDocs,
  async run(ctx, docs) {
    await ctx.handle.bulkUpdate(docs);
  },
  verify: verifyReplaced,
});

const removeSerial = defineCase({
  id: 'remove-serial',
  title: 'remove one at a time',
  needs: ['remove'],
  operations: (size) => size,
  setup: allIds,
  async run(ctx, ids) {
    for (const id of ids) await ctx.handle.remove(id);
  },
  async verify(ctx) {
    expectCount('documents left after remove', await ctx.handle.count(), 0);
  },
});

const removeBulk = defineCase({
  id: 'remove-bulk',
  title: 'remove all in one bulk call',
  needs: ['bulkRemove'],
  operations: (size) => size,
  setup: allIds,
  async run(ctx, ids) {
    await ctx.handle.bulkRemove(ids);
  },
  async verify(ctx) {
    expectCount('documents left after remove', await ctx.handle.count(), 0);
  },
});

/** update: replace and remove, one at a time vs in bulk (PouchDB basic-updates; JSONStore remove and replace). */
export const updateSuite: Suite = {
  id: 'update',
  title: 'Update and remove',
  description:
    'Replace every document one at a time vs in one bulk call; remove every document one at a time vs in one bulk call.',
  reproduces: 'PouchDB perf suite (basic-updates), IBM JSONStore (replace, remove)',
  cases: () => [replaceSerial, replaceBulk, removeSerial, removeBulk],
};
