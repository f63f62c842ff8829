import type { FindQuery } from '../src/core/store/adapter.ts';
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

type Kind = 'eq' | 'gt' | 'ne' | 'two-field';

/** `n` queries of one kind over the shape's query fields, with values from the fixture. */
function queriesOf(ctx: CaseContext, kind: Kind, n: number): FindQuery[] {
  const [f1, f2] = queryFields(ctx);
  const v1 = pickValues(ctx, f1, n);
  const v2 = pickValues(ctx, f2, n);
  return v1.map((v, i) => {
    switch (kind) {
      case 'eq':
        return { where: [{ field: f1, eq: v }] };
      case 'gt':
        return { where: [{ field: f1, gt: v }] };
      case 'ne':
        return { where: [{ field: f1, ne: v }] };
      case 'two-field':
        return {
          where: [
            { field: f1, gte: v },
            { field: f2, eq: v2[i] },
          ],
        };
    }
  });
}

const TITLES: Record<Kind, string> = {
  eq: 'equality',
  gt: 'range ($gt)',
  ne: 'not equal ($ne)',
  'two-field': 'two fields ($gte and $eq)',
};

/** A query case: the same queries with an index built in setup, or without one (a scan). */
function queryCase(kind: Kind, indexed: boolean, n: number): BenchCase {
  const common = {
    id: `${kind}-${indexed ? 'indexed' : 'scan'}`,
    title: `${n} ${TITLES[kind]} queries, ${indexed ? 'with an index' : 'no index'}`,
    db: 'shared',
    params: { queries: n, indexed: indexed ? 1 : 0 },
    operations: () => n,
    run: findEach,
    verify: verifyFound,
  } as const;
  // Defined apart, so that only the indexed case's handle promises createIndex.
  if (!indexed)
    return defineCase({
      ...common,
      needs: ['query'],
      sharesFill: true,
      setup: (ctx) => prepareQueries(ctx, queriesOf(ctx, kind, n)),
    });
  return defineCase({
    ...common,
    needs: ['query', 'secondaryIndex'],
    setup(ctx) {
      const fields = queryFields(ctx);
      return prepareIndexedQueries(
        ctx,
        queriesOf(ctx, kind, n),
        kind === 'two-field' ? fields : [fields[0]],
      );
    },
  });
}

/** Variants of one indexed range query: a page of it, only some fields of it, or its count. */
function variant(
  id: string,
  title: string,
  n: number,
  shape: (q: FindQuery, fields: [string, string]) => FindQuery,
  mode: 'find' | 'count' = 'find',
): BenchCase {
  return defineCase({
    id,
    title: `${n} ${title}`,
    needs: ['query', 'secondaryIndex'],
    db: 'shared',
    params: { queries: n },
    operations: () => n,
    setup(ctx) {
      const fields = queryFields(ctx);
      return prepareIndexedQueries(
        ctx,
        queriesOf(ctx, 'gt', n).map((q) => shape(q, fields)),
        [fields[0]],
      );
    },
    async run(ctx, s) {
      let found = 0;
      for (const q of s.queries)
        found +=
          mode === 'count' ? await ctx.handle.countWhere(q) : (await ctx.handle.find(q)).length;
      s.found = found;
    },
    verify: verifyFound,
  });
}

/**
 * The first indexed query after the store is opened again (a page reload): the index was built
 * before, so this times what opening costs the first query, apart from the warm `eq-indexed`.
 */
const eqIndexedCold = defineCase({
  id: 'eq-indexed-cold',
  title: 'first equality query with an index, after reopening the store',
  needs: ['query', 'secondaryIndex'],
  open: 'self',
  operations: () => 1,
  setup: (ctx) =>
    preparedAndReopened(ctx, (c) =>
      prepareIndexedQueries(c, queriesOf(c, 'eq', 1), [queryFields(c)[0]]),
    ),
  async run(_ctx, s) {
    s.state.found = (await s.handle.find(s.state.queries[0] as FindQuery)).length;
  },
  verify: (ctx, s) => verifyFound(ctx, s.state),
  teardown: closeReopened,
});

const countAll = defineCase({
  id: 'count-all',
  title: 'count every document',
  needs: ['count'],
  db: 'shared',
  sharesFill: true,
  operations: () => 1,
  async setup(ctx) {
    await prefilled(ctx);
    return 0;
  },
  async run(ctx) {
    const n = await ctx.handle.count();
    if (n !== ctx.size) throw new Error(`count returned ${n}, expected ${ctx.size}`);
  },
  async verify(ctx) {
    expectCount('count', await ctx.handle.count(), ctx.size);
  },
});

/**
 * find: pouchdb-find with an index vs without (equality, $gt, $ne, two fields), skip/limit,
 * a projection vs whole documents, counting matches vs find-then-length, and counting all.
 * idb answers with IDBIndex key ranges and IDBIndex.count; localForage with an iterate filter.
 */
export const findSuite: Suite = {
  id: 'find',
  title: 'Find and count',
  description:
    'Queries with an index vs without (equality, range, not-equal, two fields), skip/limit, a projection of fields, counting matches vs find-then-length, and counting all.',
  reproduces:
    'PouchDB perf suite (pouchdb-find queries with and without an index), IBM JSONStore (find with query, limit, offset, filter; count)',
  params: { queries: { kind: 'int', default: 10, help: 'queries per sample' } },
  cases: (p) => {
    const n = p.queries as number;
    const kinds: Kind[] = ['eq', 'gt', 'ne', 'two-field'];
    return [
      ...kinds.flatMap((k) => [queryCase(k, true, n), queryCase(k, false, n)]),
      eqIndexedCold,
      variant('gt-skip-limit', 'range queries, skip 10 limit 10, with an index', n, (q) => ({
        ...q,
        skip: 10,
        limit: 10,
      })),
      variant(
        'gt-projection',
        'range queries returning two fields, with an index',
        n,
        (q, [f1, f2]) => ({ ...q, fields: [f1, f2] }),
      ),
      variant(
        'gt-count',
        'range queries counted (countWhere), with an index',
        n,
        (q) => q,
        'count',
      ),
      variant(
        'gt-find-length',
        'range queries counted as find().length, with an index',
        n,
        (q) => ({ ...q, fields: ['_id'] }),
      ),
      countAll,
    ];
  },
};
