import type { FindQuery, Scalar } from '../src/core/store/adapter.ts';
import { countMatches } from '../src/core/store/query.ts';
import type { CaseContext } from '../src/core/store/suite.ts';
import { expectCount, prefilled } from './prefill.ts';

/** The two fields of the fixture shape that the find and views suites query. */
export function queryFields(ctx: CaseContext): [string, string] {
  const [first, second] = ctx.fixture.indexedFields;
  if (!first || !second)
    throw new Error(`fixture ${ctx.fixture.shape} declares fewer than two indexed fields`);
  return [first, second];
}

/** Values of `field` taken from `n` documents picked by the sample's seeded rng, so queries hit. */
export function pickValues(ctx: CaseContext, field: string, n: number): Scalar[] {
  const out: Scalar[] = [];
  for (let i = 0; i < n; i++) {
    const doc = ctx.fixture.docs(1, ctx.rng.int(ctx.size))[0];
    out.push(doc?.[field] as Scalar);
  }
  return out;
}

/** State of a query case: the queries to run, what they should find, and what they found. */
export interface Queries {
  queries: FindQuery[];
  expected: number;
  found: number;
}

/**
 * Setup for a query case: a full store, and the number of results the queries must return,
 * computed with the reference evaluator (untimed).
 */
export async function prepareQueries(ctx: CaseContext, queries: FindQuery[]): Promise<Queries> {
  await prefilled(ctx);
  return expectedOf(ctx, queries);
}

/** prepareQueries, with an index on `fields` built once the store is full. */
export async function prepareIndexedQueries(
  ctx: CaseContext<'secondaryIndex'>,
  queries: FindQuery[],
  fields: readonly string[],
): Promise<Queries> {
  await prefilled(ctx);
  await ctx.handle.createIndex(fields);
  return expectedOf(ctx, queries);
}

function expectedOf(ctx: CaseContext, queries: FindQuery[]): Queries {
  const docs = ctx.fixture.docs(ctx.size);
  let expected = 0;
  for (const q of queries) {
    const hits = countMatches(docs, q);
    const skip = q.skip ?? 0;
    expected += Math.max(0, Math.min(hits - skip, q.limit ?? Infinity));
  }
  return { queries, expected, found: 0 };
}

/** The timed body of a query case: every query, counting what they find. */
export async function findEach(ctx: CaseContext<'query'>, s: Queries): Promise<void> {
  let found = 0;
  for (const q of s.queries) found += (await ctx.handle.find(q)).length;
  s.found = found;
}

export async function verifyFound(_ctx: CaseContext, s: Queries): Promise<void> {
  expectCount('documents the queries returned', s.found, s.expected);
}
