import { describe, expect, it } from 'vitest';
import type { StoreAdapter } from '../../../../src/core/store/adapter.ts';
import { describeAdapters } from '../../../../src/core/run/environment.ts';
import { validateResults } from '../../../../src/core/results/recompute.ts';
import { memoryAdapter } from '../../../../src/adapters/memory.ts';
import { sampleResults } from '../../../sample-results.ts';

/** environment.adapters: what the stores said about how they ran (StoreAdapter.describe). */

const fake = (id: string, describe?: StoreAdapter['describe']): StoreAdapter => ({
  ...memoryAdapter,
  id,
  ...(describe && { describe }),
});

describe('describeAdapters', () => {
  it('records what stores report, a failing describe() as data', async () => {
    const adapters = [
      fake('silent'),
      fake('empty', () => ({})),
      fake('sqlite', async () => ({ vfs: 'opfs-sahpool', sqlite: '3.54.1' })),
      fake('broken', () => {
        throw new Error('no engine');
      }),
    ];
    expect(await describeAdapters(adapters)).toEqual({
      sqlite: { vfs: 'opfs-sahpool', sqlite: '3.54.1' },
      broken: { describeError: 'no engine' },
    });
  });

  it('is validated with the rest of the file', () => {
    const withFacts = structuredClone(sampleResults());
    withFacts.environment.adapters = { 'sqlite-opfs': { vfs: 'opfs-sahpool' } };
    expect(validateResults(withFacts).environment.adapters).toEqual({
      'sqlite-opfs': { vfs: 'opfs-sahpool' },
    });
    const bad = structuredClone(sampleResults()) as unknown as {
      environment: { adapters: unknown };
    };
    bad.environment.adapters = { 'sqlite-opfs': { vfs: 1 } };
    expect(() => validateResults(bad)).toThrow(
      /\$\.environment\.adapters\.sqlite-opfs\.vfs: expected a string/,
    );
  });
});
