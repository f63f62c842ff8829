import type { Scalar, ViewQuery } from '../src/core/store/adapter.ts';
import {
  defineCase,
  type BenchCase,
  type CaseContext,
  type Suite,
} from '../src/core/store/suite.ts';
import { closeReopened, expectCount, prefilled, preparedAndReopened } from './prefill.ts';
import {
  findEach,
  pickValues,
  prepareIndexedQueries,
  prepareQueries,
  queryFields,
  verifyFound,
} from './queries.ts';

const VIEW = 'by_field';

interface ViewState {
  keys: Scalar[];
  expected: number;
  found: number;
}

/** Setup for map/reduce cases: a full store, the view saved (and built, if `build`), the keys to ask. */
async function prepareView(
  ctx: CaseContext<'mapReduce'>,
  n: number,
  save: boolean,
  build: boolean,
): Promise<ViewState> {
  await prefilled(ctx);
  const [field] = queryFields(ctx);
  if (save) await ctx.handle.createView(VIEW, field);
  if (build) await ctx.handle.queryView(VIEW, { limit: 1 });
  const keys = pickValues(ctx, field, n);
  const docs = ctx.fixture.docs(ctx.size);
  const expected = keys.reduce<number>(
    (sum, k) => sum + docs.filter((d) => d[field] === k).length,
    0,
  );
  return { keys, expected, found: 0 };
}

const verifyRows = async (_ctx: CaseContext, s: ViewState) =>
  expectCount('view rows returned', s.found, s.expected);

function viewCase(
  id: string,
  title: string,
  n: number,
  opts: {
    save: boolean;
    build: boolean;
    query: (ctx: CaseContext<'mapReduce'>, key: Scalar) => Promise<unknown[]>;
  },
): BenchCase {
  return defineCase({
    id,
    title,
    needs: ['mapReduce'],
    // A temporary view builds and throws away its index per query, so it too leaves the store as it was.
    db: 'shared',
    sharesFill: !opts.save,
    params: { queries: n },
    operations: () => n,
    setup: (ctx) => prepareView(ctx, n, opts.save, opts.build),
    async run(ctx, s) {
      let found = 0;
      for (const key of s.keys) found += (await opts.query(ctx, key)).length;
      s.found = found;
    },
    verify: verifyRows,
  });
}

const byKey = (key: Scalar, extra: Partial<ViewQuery> = {}): ViewQuery => ({ key, ...extra });

/** The first query of a saved view builds its index: that build, timed on its own. */
const buildIndex = defineCase({
  id: 'build-index',
  title: 'build a persisted view index (first query)',
  needs: ['mapReduce'],
  operations: (size) => size,
  setup: (ctx) => prepareView(ctx, 1, true, false),
  async run(ctx, s) {
    s.found = (await ctx.handle.queryView(VIEW, byKey(s.keys[0] as Scalar))).length;
  },
  verify: verifyRows,
});

/**
 * The first query of a persisted view after the store is opened again (a page reload): the view
 * was saved and built before, so this times what opening costs the first query. Its own case,
 * because the warm `persisted` case shares one database and asks it many times.
 */
const persistedCold = defineCase({
  id: 'persisted-cold',
  title: 'first key query of a persisted view after reopening the store',
  needs: ['mapReduce'],
  open: 'self',
  operations: () => 1,
  setup: (ctx) => preparedAndReopened(ctx, (c) => prepareView(c, 1, true, true)),
  async run(ctx, s) {
    s.state.found = (await s.handle.queryView(VIEW, byKey(s.state.keys[0] as Scalar))).length;
  },
  verify: (ctx, s) => verifyRows(ctx, s.state),
  teardown: closeReopened,
});

/** The same question for stores without map/reduce: a secondary index vs a full-scan filter. */
function indexOrScan(indexed: boolean, n: number): BenchCase {
  const common = {
    id: indexed ? 'secondary-index' : 'full-scan',
    title: `${n} equality queries, ${indexed ? 'secondary index (built in setup)' : 'full-scan filter'}`,
    db: 'shared',
    params: { queries: n },
    operations: () => n,
    run: findEach,
    verify: verifyFound,
  } as const;
  const equalities = (ctx: CaseContext, field: string) =>
    pickValues(ctx, field, n).map((v) => ({ where: [{ field, eq: v }] }));
  // Defined apart, so that only the indexed case's handle promises createIndex.
  if (!indexed)
    return defineCase({
      ...common,
      needs: ['query'],
      sharesFill: true,
      setup: (ctx) => prepareQueries(ctx, equalities(ctx, queryFields(ctx)[0])),
    });
  return defineCase({
    ...common,
    needs: ['query', 'secondaryIndex'],
    setup(ctx) {
      const [field] = queryFields(ctx);
      return prepareIndexedQueries(ctx, equalities(ctx, field), [field]);
    },
  });
}

const indexBuild = defineCase({
  id: 'secondary-index-build',
  title: 'build a secondary index on a full store',
  needs: ['secondaryIndex'],
  operations: (size) => size,
  setup: prefilled,
  async run(ctx) {
    await ctx.handle.createIndex([queryFields(ctx)[0]]);
  },
});

/**
 * views: persisted map/reduce views (design doc saved and index built in setup) vs temporary
 * views (`db.query(fn)`, built and thrown away per query), `stale: 'ok'`, the index build on
 * its own, and the first query after reopening the store (`persisted-cold`). The PouchDB 2.2.0 report found persisted views tens of times faster. For stores
 * without map/reduce: a secondary index vs a full-scan filter, and the index build.
 */
export const viewsSuite: Suite = {
  id: 'views',
  title: 'Views and indexes',
  description:
    "Persisted map/reduce views vs temporary views, stale: 'ok', and the index build; for other stores, a secondary index vs a full scan.",
  reproduces:
    'PouchDB 2.2.0 report (persisted vs temp views), PouchDB perf suite (temp-views, build-secondary-index, persisted-views, persisted-views-stale-ok)',
  params: { queries: { kind: 'int', default: 10, help: 'view queries per sample' } },
  cases: (p) => {
    const n = p.queries as number;
    return [
      buildIndex,
      viewCase('persisted', `${n} key queries, persisted view`, n, {
        save: true,
        build: true,
        query: (ctx, key) => ctx.handle.queryView(VIEW, byKey(key)),
      }),
      viewCase('persisted-stale', `${n} key queries, persisted view, stale: 'ok'`, n, {
        save: true,
        build: true,
        query: (ctx, key) => ctx.handle.queryView(VIEW, byKey(key, { stale: true })),
      }),
      persistedCold,
      viewCase('temp', `${n} key queries, temporary view`, n, {
        save: false,
        build: false,
        query: (ctx, key) => ctx.handle.queryTemp(queryFields(ctx)[0], byKey(key)),
      }),
      indexBuild,
      indexOrScan(true, n),
      indexOrScan(false, n),
    ];
  },
};
