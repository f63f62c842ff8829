import type { KeyRange } from '../src/core/store/adapter.ts';
import { defineCase, type BenchCase, type Suite } from '../src/core/store/suite.ts';
import { docId } from '../fixtures/index.ts';
import { expectCount, prefilled } from './prefill.ts';

/** The PouchDB 2.2.0 reference: 10 queries of 10-document pages at offsets 0, N/10, ... */
const REF_PAGES = 10;
const REF_PAGE_SIZE = 10;

interface Walk {
  read: number;
  pages: number;
}

const fresh = async (): Promise<Walk> => ({ read: 0, pages: 0 });

/** Reference case: 10 pages of 10 at evenly spaced offsets, reached by skip or by startkey. */
function reference(mode: 'skip' | 'startkey'): BenchCase {
  return defineCase({
    id: `ref-${mode}`,
    title:
      mode === 'skip'
        ? `${REF_PAGES} pages of ${REF_PAGE_SIZE} at spread offsets, skip/limit`
        : `${REF_PAGES} pages of ${REF_PAGE_SIZE} at spread offsets, startkey/limit`,
    needs: ['keyRange'],
    db: 'shared',
    sharesFill: true,
    params: { pages: REF_PAGES, pageSize: REF_PAGE_SIZE },
    operations: () => REF_PAGES,
    async setup(ctx) {
      await prefilled(ctx);
      return fresh();
    },
    async run(ctx, w) {
      const stride = Math.floor(ctx.size / REF_PAGES);
      let read = 0;
      for (let p = 0; p < REF_PAGES; p++) {
        const offset = p * stride;
        const range: KeyRange =
          mode === 'skip'
            ? { skip: offset, limit: REF_PAGE_SIZE }
            : { gte: docId(offset), limit: REF_PAGE_SIZE };
        read += (await ctx.handle.range(range)).length;
      }
      w.read = read;
    },
    async verify(ctx, w) {
      const stride = Math.floor(ctx.size / REF_PAGES);
      let expected = 0;
      for (let p = 0; p < REF_PAGES; p++)
        expected += Math.max(0, Math.min(REF_PAGE_SIZE, ctx.size - p * stride));
      expectCount('documents read over the pages', w.read, expected);
    },
  });
}

/** Walk the whole collection in pages of P: skip = page × P, or startkey = last key seen + skip 1. */
function walk(mode: 'skip' | 'startkey', pageSize: number): BenchCase {
  return defineCase({
    id: `walk-${mode}`,
    title:
      mode === 'skip'
        ? `walk all in pages of ${pageSize}, skip/limit`
        : `walk all in pages of ${pageSize}, startkey (last key, skip 1)`,
    needs: ['keyRange'],
    db: 'shared',
    sharesFill: true,
    params: { pageSize },
    operations: (size) => Math.ceil(size / pageSize),
    async setup(ctx) {
      await prefilled(ctx);
      return fresh();
    },
    async run(ctx, w) {
      let read = 0;
      let pages = 0;
      let last: string | undefined;
      for (;;) {
        // The startkey pattern PouchDB recommends: start at the last key of the previous page and
        // skip that one row, so the store seeks instead of counting past every earlier row.
        const range: KeyRange =
          mode === 'skip'
            ? { skip: read, limit: pageSize }
            : last === undefined
              ? { limit: pageSize }
              : { gte: last, skip: 1, limit: pageSize };
        const page = await ctx.handle.range(range);
        if (page.length === 0) break;
        read += page.length;
        pages++;
        last = page[page.length - 1]?._id;
        if (page.length < pageSize) break;
      }
      w.read = read;
      w.pages = pages;
    },
    async verify(ctx, w) {
      expectCount('documents walked', w.read, ctx.size);
    },
  });
}

/**
 * paginate: skip/limit vs startkey, PouchDB's "all-docs-skip-limit" vs "all-docs-startkey-endkey".
 * The 2.2.0 report called skip/limit "a disaster" on IndexedDB. On idb, skip is cursor advance();
 * on stores without native skip it is what they do instead (see each adapter's `skip` capability).
 */
export const paginateSuite: Suite = {
  id: 'paginate',
  title: 'Paginate',
  description:
    'Pages of documents in key order reached with skip/limit vs startkey: the 2.2.0 reference (10 pages of 10 at spread offsets) and a walk over the whole collection.',
  reproduces:
    'PouchDB 2.2.0 report (allDocs skip/limit vs startkey), PouchDB perf suite (all-docs-skip-limit, all-docs-startkey-endkey)',
  params: { pageSize: { kind: 'int', default: 100, help: 'documents per page in the full walk' } },
  cases: (p) => {
    const pageSize = p.pageSize as number;
    return [
      reference('skip'),
      reference('startkey'),
      walk('skip', pageSize),
      walk('startkey', pageSize),
    ];
  },
};
