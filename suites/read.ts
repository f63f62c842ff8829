import type { Doc } from '../src/core/store/adapter.ts';
import {
  defineCase,
  type BenchCase,
  type CaseContext,
  type Suite,
} from '../src/core/store/suite.ts';
import { docId } from '../fixtures/index.ts';
import { expectCount, prefilled, shuffledIndexes } from './prefill.ts';

/** How many times the first/last-document cases read their one document per sample. */
const REPEATS = 20;

interface Reads {
  ids: string[];
  found: number;
}

/** Setup: a full store, and the ids to read in a seeded random order. */
async function idsInRandomOrder(ctx: CaseContext): Promise<Reads> {
  await prefilled(ctx);
  return { ids: shuffledIndexes(ctx.size, ctx.rng).map(docId), found: 0 };
}

const countFound = (docs: readonly (Doc | undefined)[]) =>
  docs.filter((d) => d !== undefined).length;

const getSerial = defineCase({
  id: 'get-serial',
  title: 'get by id, one at a time',
  needs: [],
  db: 'shared',
  sharesFill: true,
  operations: (size) => size,
  setup: idsInRandomOrder,
  async run(ctx, s) {
    let found = 0;
    for (const id of s.ids) if ((await ctx.handle.get(id)) !== undefined) found++;
    s.found = found;
  },
  async verify(ctx, s) {
    expectCount('documents found', s.found, ctx.size);
  },
});

const getBatch = defineCase({
  id: 'get-batch',
  title: 'get by ids, one batch call',
  needs: ['getMany'],
  db: 'shared',
  sharesFill: true,
  operations: (size) => size,
  setup: idsInRandomOrder,
  async run(ctx, s) {
    s.found = countFound(await ctx.handle.getMany(s.ids));
  },
  async verify(ctx, s) {
    expectCount('documents found', s.found, ctx.size);
  },
});

/** Read one document REPEATS times: the first or the last of the collection. */
function getOne(which: 'first' | 'last'): BenchCase {
  return defineCase({
    id: `get-${which}`,
    title: `get the ${which} document of the collection (${REPEATS}×)`,
    needs: [],
    db: 'shared',
    sharesFill: true,
    operations: () => REPEATS,
    async setup(ctx) {
      await prefilled(ctx);
      return { ids: [docId(which === 'first' ? 0 : ctx.size - 1)], found: 0 };
    },
    async run(ctx, s) {
      const id = s.ids[0] as string;
      let found = 0;
      for (let i = 0; i < REPEATS; i++) if ((await ctx.handle.get(id)) !== undefined) found++;
      s.found = found;
    },
    async verify(_ctx, s) {
      expectCount('reads that found the document', s.found, REPEATS);
    },
  });
}

const readAll = defineCase({
  id: 'all',
  title: 'read every document (allDocs include_docs, getAll, iterate)',
  needs: ['keyRange'],
  db: 'shared',
  sharesFill: true,
  operations: (size) => size,
  async setup(ctx) {
    await prefilled(ctx);
    return { ids: [], found: 0 };
  },
  async run(ctx, s) {
    s.found = (await ctx.handle.range({})).length;
  },
  async verify(ctx, s) {
    expectCount('documents read', s.found, ctx.size);
  },
});

/**
 * read: get by id one at a time vs one batch call (PouchDB basic-gets and all-docs-keys; the
 * JSONStore study's find by id, an array of ids vs one at a time), the first vs the last
 * document of a large collection, and a full read.
 */
export const readSuite: Suite = {
  id: 'read',
  title: 'Read',
  description:
    'Get by id one at a time vs one batch call with an array of ids; the first vs the last document; a full read of the collection.',
  reproduces:
    'PouchDB perf suite (basic-gets, all-docs-keys, all-docs-include-docs), IBM JSONStore (find by id)',
  cases: () => [getSerial, getBatch, getOne('first'), getOne('last'), readAll],
};
