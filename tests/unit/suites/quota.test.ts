import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../src/adapters/memory.ts';
import type { StoreHandle } from '../../../src/core/store/adapter.ts';
import { DEFAULT_PLAN } from '../../../src/core/plan/defaults.ts';
import type { CaseIdentity } from '../../../src/core/base/identity.ts';
import { validateResults } from '../../../src/core/results/recompute.ts';
import { fixtureShape, makeDocs } from '../../../fixtures/index.ts';
import { describeQuota, fillUntilFull, quotaRow, type QuotaSample } from '../../../suites/quota.ts';
import { runnerResultsDoc } from '../helpers/runner-doc.ts';

const shape = fixtureShape('person');
const chunkOf = (start: number, count: number) => makeDocs(shape, 1, count, start);

/** The memory store that refuses a write once it holds `limit` documents, as a full IndexedDB does. */
async function fullAt(limit: number): Promise<StoreHandle> {
  const handle = await memoryAdapter.open(`quota-${limit}`);
  return {
    ...handle,
    bulkPut: async (docs) => {
      if ((await handle.count()) + docs.length > limit)
        throw new DOMException(
          'The current transaction exceeded its quota limitations.',
          'QuotaExceededError',
        );
      await handle.bulkPut!(docs);
    },
  };
}

describe('quota suite', () => {
  it('counts the documents acknowledged before the first failing write, and keeps its error', async () => {
    const filled = await fillUntilFull(await fullAt(250), chunkOf, 10_000, () => 0, Infinity);
    expect(filled.docs).toBe(200);
    expect(filled.writeMs).toBe(0); // the fake clock stands still: only the writes are timed
    expect(filled.jsonBytes).toBe(
      chunkOf(0, 200).reduce((n, d) => n + JSON.stringify(d).length, 0),
    );
    expect(filled.error).toBe(
      'QuotaExceededError: The current transaction exceeded its quota limitations.',
    );
  });

  it('stops without a failure at maxDocs, or at the deadline, and says which', async () => {
    expect(await fillUntilFull(await fullAt(1e9), chunkOf, 150, () => 0, Infinity)).toMatchObject({
      docs: 150,
      error: 'no failure within 150 documents',
    });
    // Each write takes 10 ms of a fake clock: three writes pass the 25 ms deadline.
    let t = 0;
    const slow = await fullAt(1e9);
    const timed: StoreHandle = {
      ...slow,
      bulkPut: async (docs) => ((t += 10), slow.bulkPut!(docs)),
    };
    expect(await fillUntilFull(timed, chunkOf, 10_000, () => t, 25)).toEqual({
      docs: 300,
      jsonBytes: expect.any(Number),
      writeMs: 30,
      error: 'no failure before the time limit, at 300 documents',
    });
  });

  it('a row keeps every fill, its error in the notes, and says what the first fill found', () => {
    const identity: CaseIdentity = {
      suite: 'quota',
      case: 'fill',
      title: 't',
      adapter: 'idb',
      size: 100,
      params: { quotaMb: 5, maxDocs: 200000 },
      operations: 1,
    };
    const fill = (docs: number, error: string): QuotaSample => ({
      ms: 100,
      docs,
      stored: docs,
      jsonBytes: docs * 250,
      usageBytes: docs * 500,
      quotaBytes: 5e6,
      persisted: 0,
      error,
    });
    const row = quotaRow(identity, [
      fill(14_400, 'QuotaExceededError: full'),
      fill(0, 'opening the store failed: x'),
    ]);
    expect(row).toMatchObject({
      status: 'ok',
      metrics: { docs: [14_400, 0], persisted: [0, 0] },
      notes: ['QuotaExceededError: full', 'opening the store failed: x'],
    });
    expect(describeQuota(row)).toBe(
      "documents that fit per fill: 14,400 / 0 (3.43 MiB of JSON in the first); storage estimate 6.87 MiB used after the first (×2.00 its JSON); estimate's quota 4.77 MiB; persist() refused; the first fill stopped by: QuotaExceededError: full",
    );
    const plan = { ...DEFAULT_PLAN, suites: ['quota'], adapters: ['idb'] };
    expect(() => validateResults(runnerResultsDoc('r', plan, [row], []))).not.toThrow();
    // Notes line up with samples, as metrics do.
    expect(() =>
      validateResults(runnerResultsDoc('r', plan, [{ ...row, notes: ['one'] }], [])),
    ).toThrow(/cases\[0\]\.notes: has 1 notes but there are 2 samples/);
  });
});
