import type { StoreHandle } from '../src/core/adapter.ts';
import { defineCase, expectEqual, type CaseContext, type Suite } from '../src/core/suite.ts';
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

const openEmpty = defineCase<Life>({
  id: 'open-empty',
  title: 'open an existing empty store',
  needs: [],
  open: 'self',
  operations: () => 1,
  setup: (ctx) => created(ctx, 0),
  async run(ctx, s) {
    s.handle = await ctx.adapter.open(ctx.dbName);
  },
  async verify(_ctx, s) {
    expectEqual('documents in the reopened empty store', await s.handle?.count(), 0);
  },
  teardown: closeIfOpen,
});

const openFull = defineCase<Life>({
  id: 'open-full',
  title: 'open an existing full store',
  needs: [],
  open: 'self',
  operations: () => 1,
  setup: (ctx) => created(ctx, ctx.size),
  async run(ctx, s) {
    s.handle = await ctx.adapter.open(ctx.dbName);
  },
  async verify(ctx, s) {
    expectEqual('documents in the reopened store', await s.handle?.count(), ctx.size);
  },
  teardown: closeIfOpen,
});

const firstInsert = defineCase<Life>({
  id: 'first-insert',
  title: 'time to first insert: create, open and write one document',
  needs: [],
  open: 'self',
  operations: () => 1,
  setup: async () => ({}),
  async run(ctx, s) {
    s.handle = await ctx.adapter.open(ctx.dbName);
    await s.handle.put(ctx.fixture.docs(1)[0]!);
  },
  async verify(_ctx, s) {
    expectEqual('documents after the first insert', await s.handle?.count(), 1);
  },
  teardown: closeIfOpen,
});

const close = defineCase<Life>({
  id: 'close',
  title: 'close a full store',
  needs: [],
  open: 'self',
  operations: () => 1,
  async setup(ctx) {
    await created(ctx, ctx.size);
    return { handle: await ctx.adapter.open(ctx.dbName) };
  },
  async run(_ctx, s) {
    await s.handle!.close();
  },
  async verify(ctx) {
    // Closing must not lose data: reopen and count.
    const again = await ctx.adapter.open(ctx.dbName);
    try {
      expectEqual('documents after close and reopen', await again.count(), ctx.size);
    } finally {
      await again.close();
    }
  },
});

const destroy = defineCase<Life>({
  id: 'destroy',
  title: 'destroy a full store',
  needs: [],
  open: 'self',
  operations: () => 1,
  async setup(ctx) {
    await created(ctx, ctx.size);
    return { handle: await ctx.adapter.open(ctx.dbName) };
  },
  async run(_ctx, s) {
    await s.handle!.destroy();
  },
  async verify(ctx) {
    const again = await ctx.adapter.open(ctx.dbName);
    try {
      expectEqual('documents after destroy', await again.count(), 0);
    } finally {
      await again.close();
    }
  },
});

/** lifecycle: open (init) empty and full, close, destroy, time to first insert (JSONStore init, closeAll, destroy). */
export const lifecycleSuite: Suite = {
  id: 'lifecycle',
  title: 'Lifecycle',
  description: 'Open an existing empty store and a full one; close; destroy; time to first insert (create, open and one write).',
  reproduces: 'IBM JSONStore (init, closeAll, destroy)',
  cases: () => [openEmpty, openFull, close, destroy, firstInsert],
};
