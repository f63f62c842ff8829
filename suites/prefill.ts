import type { Doc, StoreHandle } from '../src/core/store/adapter.ts';
import type { Capability } from '../src/core/store/capabilities.ts';
import type { HandleFor } from '../src/core/store/capability-methods.ts';
import type { CaseContext } from '../src/core/store/suite.ts';
import { VerifyError } from '../src/core/store/suite.ts';
import { shuffled } from '../fixtures/random.ts';

/** Chunk size for untimed pre-population: large enough to be quick, small enough to stay lean. */
const PREFILL_CHUNK = 5_000;

/**
 * Fill the store with fixture documents [start, start + count), untimed. Uses the bulk write
 * where there is one, in chunks, so even a million documents never sit in memory at once.
 */
export async function prefill(
  handle: StoreHandle,
  ctx: Pick<CaseContext, 'fixture'>,
  count: number,
  start = 0,
): Promise<void> {
  for (const chunk of ctx.fixture.chunks(count, PREFILL_CHUNK, start))
    await writeAll(handle, chunk);
}

/** Write documents with the bulk write if the store has one, else one at a time. */
export async function writeAll(handle: StoreHandle, docs: readonly Doc[]): Promise<void> {
  if (handle.bulkPut) await handle.bulkPut(docs);
  else for (const doc of docs) await handle.put(doc);
}

/**
 * Setup for cases that read or change an existing collection: the store holds `size` docs. A
 * case that shares its fill (BenchCase.sharesFill) may be given a store already filled so.
 */
export async function prefilled(ctx: CaseContext): Promise<void> {
  if (ctx.filled) return;
  await prefill(ctx.handle, ctx, ctx.size);
}

/** Verify helper: the number of results a case saw equals what it should have seen. */
export function expectCount(what: string, actual: number, expected: number): void {
  if (actual !== expected)
    throw new VerifyError(`verify failed: ${what}: got ${actual}, expected ${expected}`);
}

/** Indexes [0, count) in a seeded random order (the same for every adapter in a round). */
export function shuffledIndexes(count: number, rng: CaseContext['rng']): number[] {
  return shuffled(
    Array.from({ length: count }, (_, i) => i),
    rng,
  );
}

/** A case's state with the handle it reopened, for cases that time the first query after opening. */
export interface Reopened<S, C extends Capability = never> {
  state: S;
  handle: HandleFor<C>;
}

/**
 * Setup of a cold case (`open: 'self'`): open the sample's database, prepare it with `prepare`
 * (fill, save a view, build an index), close it and open it again. The case's `run` then asks the
 * reopened handle its first question, which is what a page does after a reload.
 */
export async function preparedAndReopened<S, C extends Capability>(
  ctx: CaseContext<C>,
  prepare: (ctx: CaseContext<C>) => Promise<S>,
): Promise<Reopened<S, C>> {
  const first = await ctx.adapter.open(ctx.dbName);
  let state: S;
  try {
    state = await prepare({ ...ctx, handle: ctx.checked(first) });
  } finally {
    await first.close();
  }
  const again = await ctx.adapter.open(ctx.dbName);
  return { state, handle: ctx.checked(again) };
}

/**
 * Teardown of a cold case: close the reopened handle (the runner deletes the database by name).
 * Generic, so that as a case's `teardown` it leaves the case's state type to its `setup`.
 */
export async function closeReopened<S extends { handle: StoreHandle }>(
  _ctx: CaseContext,
  s: S,
): Promise<void> {
  await s.handle.close();
}
