import type { StoreHandle } from '../src/core/store/adapter.ts';
import {
  defineCase,
  expectEqual,
  type BenchCase,
  type CaseContext,
  type Suite,
} from '../src/core/store/suite.ts';
import { prefill } from './prefill.ts';

/**
 * Lifecycle cases open their own databases (`open: 'self'`), because opening is what they time.
 * `open` resolves when the store is ready for its first operation (adapters make sure of that:
 * PouchDB, for one, opens lazily).
 */
interface Life {
  handle?: StoreHandle;
}

/** Create the database and fill it with `count` documents, then close it: the state to reopen. */
async function created(ctx: CaseContext, count: number): Promise<Life> {
  const handle = await ctx.adapter.open(ctx.dbName);
  await prefill(handle, ctx, count);
  await handle.close();
  return {};
}

const closeIfOpen = async (_ctx: CaseContext, s: Life) => {
  await s.handle?.close();
};

/** Reopen a store created in setup with `count` documents: the JSONStore study's init. */
function reopen(which: 'empty' | 'full'): BenchCase {
  return defineCase({
    id: `open-${which}`,
    title: `open an existing ${which} store`,
    needs: [],
    open: 'self',
    operations: () => 1,
    setup: (ctx) => created(ctx, which === 'empty' ? 0 : ctx.size),
    async run(ctx, s) {
      s.handle = await ctx.adapter.open(ctx.dbName);
    },
    async verify(ctx, s) {
      expectEqual(
        `documents in the reopened ${which} store`,
        await s.handle?.count(),
        which === 'empty' ? 0 : ctx.size,
      );
    },
    teardown: closeIfOpen,
  });
}

const firstInsert = defineCase({
  id: 'first-insert',
  title: 'time to first insert: create, open and write one document',
  needs: [],
  open: 'self',
  operations: () => 1,
  setup: async (): Promise<Life> => ({}),
  async run(ctx, s) {
    s.handle = await ctx.adapter.open(ctx.dbName);
    await s.handle.put(ctx.fixture.docs(1)[0]!);
  },
  async verify(_ctx, s) {
    expectEqual('documents after the first insert', await s.handle?.count(), 1);
  },
  teardown: closeIfOpen,
});

/** End a full, open store by closing or destroying it; verify by reopening and counting. */
function end(how: 'close' | 'destroy'): BenchCase {
  return defineCase({
    id: how,
    title: `${how} a full store`,
    needs: [],
    open: 'self',
    operations: () => 1,
    async setup(ctx) {
      await created(ctx, ctx.size);
      return { handle: await ctx.adapter.open(ctx.dbName) };
    },
    async run(_ctx, s) {
      await (how === 'close' ? s.handle.close() : s.handle.destroy());
    },
    async verify(ctx) {
      // Closing must keep the data and destroying must remove it: reopen and count.
      const again = await ctx.adapter.open(ctx.dbName);
      try {
        expectEqual(
          `documents after ${how} and reopen`,
          await again.count(),
          how === 'close' ? ctx.size : 0,
        );
      } finally {
        await again.close();
      }
    },
  });
}

/** lifecycle: open (init) empty and full, close, destroy, time to first insert (JSONStore init, closeAll, destroy). */
export const lifecycleSuite: Suite = {
  id: 'lifecycle',
  title: 'Lifecycle',
  description:
    'Open an existing empty store and a full one; close; destroy; time to first insert (create, open and one write).',
  reproduces: 'IBM JSONStore (init, closeAll, destroy)',
  cases: () => [reopen('empty'), reopen('full'), end('close'), end('destroy'), firstInsert],
};
