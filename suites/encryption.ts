import type { Doc, FindQuery } from '../src/core/store/adapter.ts';
import type { Capability } from '../src/core/store/capabilities.ts';
import type { HandleFor } from '../src/core/store/capability-methods.ts';
import { applyFind } from '../src/core/store/query.ts';
import {
  defineCase,
  type BenchCase,
  type CaseContext,
  type Suite,
} from '../src/core/store/suite.ts';
import { createKey, encryptedHandle } from '../src/adapters/encrypted.ts';
import { expectCount, prefill } from './prefill.ts';
import { pickValues, queryFields } from './queries.ts';

type Mode = 'plain' | 'encrypted';

interface Enc<C extends Capability> {
  handle: HandleFor<C>;
  docs: Doc[];
  queries: FindQuery[];
  expected: number;
  found: number;
}

/**
 * Setup: the handle to use (wrapped when encrypted, key made untimed; the wrapper checked to keep
 * the methods the case needs) and the work for the case.
 */
async function prepare<C extends Capability>(
  ctx: CaseContext<C>,
  mode: Mode,
  filled: boolean,
  queries: number,
): Promise<Enc<C>> {
  const handle =
    mode === 'encrypted' ? ctx.checked(encryptedHandle(ctx.handle, await createKey())) : ctx.handle;
  if (filled) await prefill(handle, ctx, ctx.size);
  const docs = ctx.fixture.docs(ctx.size);
  const [field] = queryFields(ctx);
  const qs = pickValues(ctx, field, queries).map((v): FindQuery => ({ where: [{ field, eq: v }] }));
  const expected = qs.reduce((sum, q) => sum + applyFind(docs, q).length, 0);
  return { handle, docs, queries: qs, expected, found: 0 };
}

function insert(mode: Mode): BenchCase {
  return defineCase({
    id: `insert-${mode}`,
    title: `bulk insert, ${mode}`,
    needs: ['bulkWrite'],
    params: { encrypted: mode === 'encrypted' ? 1 : 0 },
    operations: (size) => size,
    setup: (ctx) => prepare(ctx, mode, false, 0),
    async run(_ctx, s) {
      await s.handle.bulkPut(s.docs);
    },
    async verify(ctx, s) {
      expectCount('documents after insert', await s.handle.count(), ctx.size);
      const probe = s.docs[ctx.rng.int(s.docs.length)] as Doc;
      const back = await s.handle.get(probe._id);
      if (JSON.stringify(back) !== JSON.stringify(probe))
        throw new Error(`verify failed: ${probe._id} did not read back as written`);
    },
  });
}

function find(mode: Mode, n: number): BenchCase {
  return defineCase({
    id: `find-${mode}`,
    title: `${n} equality queries by scan, ${mode}`,
    needs: ['keyRange'],
    params: { encrypted: mode === 'encrypted' ? 1 : 0, queries: n },
    operations: () => n,
    setup: (ctx) => prepare(ctx, mode, true, n),
    async run(_ctx, s) {
      // Encrypted fields cannot be indexed, so both modes answer by reading and filtering
      // everything: the difference between them is the cost of decryption.
      let found = 0;
      for (const q of s.queries) found += applyFind(await s.handle.range({}), q).length;
      s.found = found;
    },
    async verify(_ctx, s) {
      expectCount('documents the queries returned', s.found, s.expected);
    },
  });
}

/**
 * encryption: the insert and find cases with AES-GCM through WebCrypto on the way in and out,
 * next to the same cases in plain text. The JSONStore study measured what encryption costs per
 * method; this wrapper works over any adapter.
 */
export const encryptionSuite: Suite = {
  id: 'encryption',
  title: 'Encryption',
  description:
    'Bulk insert and scan queries with documents encrypted by AES-GCM (WebCrypto), next to the same cases in plain text.',
  reproduces: 'IBM JSONStore (methods with and without encryption)',
  params: { queries: { kind: 'int', default: 5, help: 'queries per sample in the find cases' } },
  cases: (p) => [
    insert('plain'),
    insert('encrypted'),
    find('plain', p.queries as number),
    find('encrypted', p.queries as number),
  ],
};
