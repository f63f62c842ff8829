import { expect, test, type Page } from '@playwright/test';
import type { installWebSqlShim } from './websql-shim.ts';
import type {
  Doc,
  Durability,
  FindQuery,
  KeyRange,
  Scalar,
  StoreAdapter,
  ViewQuery,
  ViewRow,
} from '../../src/core/adapter.ts';
import { CAPABILITY_IDS, type Capability } from '../../src/core/capabilities.ts';
import { CAPABILITY_METHODS } from '../../src/core/capability-methods.ts';
import { ADAPTER_IDS } from '../../src/adapters/registry.ts';
import { fixtureShape, makeDocs } from '../../fixtures/index.ts';

/**
 * The adapter contract, end to end in a real browser: every registered store runs the same
 * fixture documents through the same operations, and each answer must equal the memory
 * store's. The Vite dev server turns the TypeScript sources into modules the page imports.
 */

type Registry = typeof import('../../src/adapters/registry.ts');
type Fixtures = typeof import('../../fixtures/index.ts');
type MemoryModule = typeof import('../../src/adapters/memory.ts');
type QueryModule = typeof import('../../src/core/query.ts');
// The page imports the module by URL; naming the export here shows knip it is used.
type ShimModule = { installWebSqlShim: typeof installWebSqlShim };

const SHIM_MODULE = '/tests/e2e/websql-shim.ts';

const MODULES = {
  registry: '/src/adapters/registry.ts',
  fixtures: '/fixtures/index.ts',
  memory: '/src/adapters/memory.ts',
  query: '/src/core/query.ts',
};

const EXPECTED_IDS = [
  'pouchdb-idb',
  'pouchdb-indexeddb',
  'idb',
  'indexeddb-raw',
  'dexie',
  'localforage-indexeddb',
  'localforage-localstorage',
  'localforage-websql',
  'websql',
  'sqlite-opfs',
  'localstorage',
  'memory',
  'pouchdb-idb@7.3.1',
  'idb@write-behind',
];

/**
 * The stores each engine lacks, and whether its IndexedDB takes the durability hint, as checked
 * (docs/browsers.md, "Browsers on this kind of machine"): Chromium removed WebSQL in 119 and Firefox never had it; every other store runs
 * in both. Playwright's own WebKit is not installed here, so it has no entry and these checks
 * do not run in it.
 */
const ENGINE_FACTS: Partial<Record<string, { unsupported: string[]; idbDurability: boolean }>> = {
  chromium: { unsupported: ['localforage-websql', 'websql'], idbDurability: true },
  firefox: { unsupported: ['localforage-websql', 'websql'], idbDurability: true },
};

/** The handle methods each capability promises, as cases and the runner rely on them; `skip` is a native skip of `range`, so it needs `range` too. */
const METHODS: Readonly<Record<Capability, readonly string[]>> = {
  ...CAPABILITY_METHODS,
  skip: ['range'],
};

/** Optional methods that must not exist without their capability (a runner would never call them). */
const GATED: Readonly<Record<string, Capability>> = {
  bulkPut: 'bulkWrite',
  getMany: 'getMany',
  range: 'keyRange',
  update: 'update',
  bulkUpdate: 'bulkUpdate',
  remove: 'remove',
  bulkRemove: 'bulkRemove',
};

interface Footprint {
  idb: string[];
  localStorage: string[];
  memory: string[];
}

type Step = [name: string, value: unknown];

/** A view answer next to the rows computed from the documents: [what was asked, actual, expected]. */
type ViewCheck = [name: string, actual: unknown, expected: unknown];

interface QueryReport {
  /** The memory store's transcript and the adapter's, step for step. */
  reference: Step[];
  steps: Step[];
  /** applyFind and countMatches over the documents, per query number. */
  expected: { find: Doc[][]; count: number[] };
  /** How many documents the query store holds, and its ids in order. */
  docCount: number;
  ids: string[];
  views?: ViewCheck[];
  /** Storage the query stores left behind (PouchDB's views live in databases of their own). */
  left: Footprint;
}

interface DeletedByName {
  footprint: Footprint;
  countWhenReopened: number;
}

type Report =
  | { supported: string; openWhenUnsupported: string }
  | {
      supported: true;
      /** As declared in the page: some depend on the engine (durability), so Node's copy may differ. */
      capabilities: Capability[];
      backend: StoreAdapter['backend'];
      methods: string[];
      reference: Step[];
      steps: Step[];
      before: Footprint;
      filled: Footprint;
      afterDestroy: Footprint;
      afterSecondDestroy: Footprint;
      byNameClosed: DeletedByName;
      byNameOpen: DeletedByName;
      durability?: Record<Durability, string[]>;
      worker?: { ok: boolean; count?: number; doc?: unknown; error?: string };
      afterWorker: Footprint;
      queries?: QueryReport;
    };

/** Everything that runs in the page for one adapter. One function, because page.evaluate ships its source. */
function exercise(page: Page, id: string): Promise<Report> {
  return page.evaluate(
    async ({ id, modules }): Promise<Report> => {
      const { adapterById } = (await import(modules.registry)) as Registry;
      const { fixtureShape, makeDocs } = (await import(modules.fixtures)) as Fixtures;
      const { memoryDatabaseNames } = (await import(modules.memory)) as MemoryModule;
      const { applyFind, compareScalars, countMatches } = (await import(
        modules.query
      )) as QueryModule;
      const adapter = adapterById(id);
      const unique = (tag: string) =>
        `contract-${id}-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const settle = (p: Promise<unknown>) =>
        p.then(
          () => 'resolved',
          () => 'rejected',
        );
      const within = <T>(p: Promise<T>, ms: number, what: string) =>
        Promise.race([
          p,
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms),
          ),
        ]);
      const footprint = async (): Promise<Footprint> => ({
        idb: (await indexedDB.databases()).map((d) => d.name ?? '').sort(),
        localStorage: Object.keys(localStorage).sort(),
        memory: memoryDatabaseNames().sort(),
      });

      const supported = await adapter.supported();
      if (supported !== true) {
        // A store that says it cannot run here must not quietly open something else instead.
        return {
          supported,
          openWhenUnsupported: await settle(
            within(adapter.open(unique('unsupported')), 10_000, 'open'),
          ),
        };
      }

      /** The same operations on any store; `caps` decides which optional ones run. */
      const transcript = async (
        store: StoreAdapter,
        caps: readonly string[],
        look?: { filled(): Promise<void>; destroyed(): Promise<void> },
      ) => {
        const has = (c: string) => caps.includes(c);
        const steps: Step[] = [];
        const note = (name: string, value: unknown) => {
          steps.push([name, value]);
        };
        const docs = makeDocs(fixtureShape('person'), 42, 50);
        const ids = docs.map((d) => d._id);
        const at = (i: number) => ids[i] as string;
        const doc = (i: number) => docs[i] as Doc;
        const name = unique(store.id);

        let h = await store.open(name);
        note('count, empty', await h.count());
        note('get, empty', await h.get(at(0)));
        for (const d of docs.slice(0, 10)) await h.put(d);
        note('count after 10 puts', await h.count());
        const rest = docs.slice(10);
        if (has('bulkWrite')) await h.bulkPut!(rest);
        else for (const d of rest) await h.put(d);
        note('count after 50', await h.count());
        note('get each', await Promise.all(ids.map((i) => h.get(i))));
        note('get missing', await h.get('doc-missing'));
        note(
          'inputs left as given',
          docs.every((d) => Object.keys(d).every((k) => !k.startsWith('_') || k === '_id')),
        );
        if (has('getMany')) {
          note('getMany', await h.getMany!([at(3), 'doc-missing', at(40), at(3), at(49)]));
          note('getMany, no ids', await h.getMany!([]));
        }
        const ranges: KeyRange[] = [
          {},
          { gte: at(10), lte: at(20) },
          { gte: at(10), lte: at(20), descending: true },
          { gte: at(5), limit: 7 },
          { lte: at(30), skip: 3, limit: 4, descending: true },
          { gte: at(45), descending: true },
          { lte: at(2), descending: true },
          { skip: 45 },
          { skip: 60 },
          { skip: 48, limit: 10, descending: true },
          { limit: 0 },
          { gte: at(12), lte: at(12) },
          { gte: `${at(7)}5`, lte: `${at(12)}~` },
          { gte: 'a', lte: 'b' },
          { gte: at(20), lte: at(10) },
          { gte: at(20), lte: at(10), descending: true },
        ];
        if (has('keyRange'))
          for (const r of ranges) note(`range ${JSON.stringify(r)}`, await h.range!(r));
        if (has('update')) {
          await h.update!({ ...doc(5), age: 99, note: 'updated' });
          await h.update!({ _id: at(6), replaced: true });
          note('get after update', [await h.get(at(5)), await h.get(at(6))]);
          note('update of a missing id', await settle(h.update!({ _id: 'doc-missing', x: 1 })));
          note('get missing after failed update', await h.get('doc-missing'));
          note('count after update', await h.count());
        }
        if (has('bulkUpdate')) {
          await h.bulkUpdate!([
            { ...doc(11), age: 1 },
            { _id: at(12), tiny: 'x' },
          ]);
          note('get after bulkUpdate', [await h.get(at(11)), await h.get(at(12))]);
          note(
            'bulkUpdate with a missing id',
            await settle(
              h.bulkUpdate!([
                { ...doc(13), age: 2 },
                { _id: 'doc-missing', y: 1 },
              ]),
            ),
          );
          note('bulkUpdate with a missing id changed nothing', [
            await h.get(at(13)),
            await h.get('doc-missing'),
          ]);
        }
        if (has('remove')) {
          await h.remove!(at(7));
          note('get removed', await h.get(at(7)));
          note('remove of a missing id', await settle(h.remove!('doc-missing')));
          note('count after remove', await h.count());
        }
        if (has('bulkRemove')) {
          await h.bulkRemove!([at(8), at(20), 'doc-missing', at(8)]);
          note('get bulk-removed', await Promise.all([at(8), at(20), at(21)].map((i) => h.get(i))));
          note('count after bulkRemove', await h.count());
          if (has('getMany'))
            note('getMany after removes', await h.getMany!([at(7), at(8), at(9)]));
        }
        if (has('keyRange')) {
          const after: KeyRange[] = [
            { gte: at(5), limit: 5 },
            { lte: at(22), descending: true, skip: 1, limit: 4 },
            { skip: 5, limit: 3 },
          ];
          for (const r of after)
            note(`range after changes ${JSON.stringify(r)}`, await h.range!(r));
        }
        const everything = async () =>
          has('keyRange') ? h.range!({}) : Promise.all(ids.map((i) => h.get(i)));
        note('count before close', await h.count());
        note('all documents before close', await everything());
        await h.close();
        note('get after close', await settle(h.get(at(0))));
        h = await store.open(name);
        note('count after reopen', await h.count());
        note('all documents after reopen', await everything());
        await look?.filled();
        await h.destroy();
        await look?.destroyed();
        h = await store.open(name);
        note('count after destroy and reopen', await h.count());
        note('get after destroy and reopen', await h.get(at(0)));
        await h.destroy();
        return steps;
      };

      const reference = await transcript(adapterById('memory'), adapter.capabilities);
      const before = await footprint();
      let filled = before;
      let afterDestroy = before;
      const steps = await transcript(adapter, adapter.capabilities, {
        filled: async () => {
          filled = await footprint();
        },
        destroyed: async () => {
          afterDestroy = await footprint();
        },
      });
      const afterSecondDestroy = await footprint();

      const probe = await adapter.open(unique('methods'));
      const methods = Object.entries(probe).flatMap(([k, v]) =>
        typeof v === 'function' ? [k] : [],
      );
      await probe.destroy();

      /** Delete by name, as the runner does after a case hung or threw, with the handle closed or not. */
      const deleteByName = async (keepOpen: boolean): Promise<DeletedByName> => {
        const name = unique(keepOpen ? 'byname-open' : 'byname');
        const h = await adapter.open(name);
        await h.put({ _id: 'x', n: 1 });
        if (!keepOpen) await h.close();
        await within(adapter.destroy(name), 20_000, `destroy(${name})`);
        const fp = await footprint();
        if (keepOpen) await settle(h.close());
        const again = await adapter.open(name);
        const countWhenReopened = await again.count();
        await again.destroy();
        return { footprint: fp, countWhenReopened };
      };
      const byNameClosed = await deleteByName(false);
      const byNameOpen = await deleteByName(true);

      let queries: QueryReport | undefined;
      if (adapter.capabilities.includes('query')) {
        // Fixture people plus documents whose queried fields are missing or of other types; the
        // upper-case id sorts before PouchDB's `_design/` ids and the others after them.
        const odd: Doc[] = [
          { _id: 'Odd-first', age: 18, lastName: 'Aaberg', city: 'Cork' },
          { _id: 'odd-missing', firstName: 'Nobody' },
          { _id: 'odd-boolean', age: true, lastName: false },
          { _id: 'odd-null', age: null, lastName: null },
          { _id: 'odd-string', age: '42', lastName: 'Berg' },
          { _id: 'odd-array', age: [30, 40], lastName: ['Berg'] },
          { _id: 'odd-object', age: { years: 30 }, lastName: { name: 'Berg' } },
          { _id: 'odd-fraction', age: 30.5, lastName: 'Zz' },
          { _id: 'odd-no-last-name', age: 33 },
        ];
        const people = makeDocs(fixtureShape('person'), 7, 120);
        const docs = [...people, ...odd];
        const person = (i: number) => people[i] as Doc;
        const age = person(3).age as number;
        const last = person(5).lastName as string;
        const list: FindQuery[] = [
          { where: [{ field: 'age', eq: age }] },
          { where: [{ field: 'age', gt: 60 }] },
          { where: [{ field: 'age', gte: 30, lt: 40 }] },
          { where: [{ field: 'age', ne: age }] },
          { where: [{ field: 'age', lte: 25 }] },
          { where: [{ field: 'age', gt: 89 }] },
          { where: [{ field: 'age', gte: 45, lte: 45 }] },
          { where: [{ field: 'age', gt: 50, lt: 40 }] },
          { where: [{ field: 'age', gt: 200 }] },
          { where: [{ field: 'age', eq: true }] },
          {
            where: [
              { field: 'age', eq: age },
              { field: 'age', gt: age - 1 },
            ],
          },
          { where: [{ field: 'age', gt: 30 }], fields: ['age', 'city'] },
          { where: [{ field: 'age', gt: 30 }], skip: 5, limit: 7 },
          { where: [{ field: 'age', gte: 20 }], fields: ['lastName'], skip: 3, limit: 4 },
          { where: [{ field: 'age', gte: 30 }], skip: 1000 },
          { where: [{ field: 'age', gte: 30 }], limit: 0 },
          { where: [{ field: 'lastName', eq: last }] },
          { where: [{ field: 'lastName', gt: 'M' }] },
          { where: [{ field: 'lastName', gte: 'C', lt: 'H' }] },
          { where: [{ field: 'lastName', ne: last }] },
          { where: [{ field: 'lastName', lt: 'D' }] },
          {
            where: [{ field: 'lastName', gt: 'B' }],
            fields: ['lastName', 'age'],
            skip: 2,
            limit: 3,
          },
          {
            where: [
              { field: 'age', gte: 30 },
              { field: 'lastName', eq: last },
            ],
          },
          {
            where: [
              { field: 'age', gt: 40 },
              { field: 'lastName', lt: 'M' },
            ],
            fields: ['firstName'],
          },
          {
            where: [
              { field: 'lastName', gte: 'K' },
              { field: 'age', lt: 50 },
            ],
            skip: 1,
            limit: 5,
          },
          { where: [{ field: 'city', eq: person(0).city as string }] },
          { where: [], skip: 2, limit: 3 },
        ];
        const ranges: KeyRange[] = [
          {},
          { skip: 1, limit: 3 },
          { lte: 'doc-0000000003', descending: true, skip: 1, limit: 3 },
          { gte: 'O', lte: 'p' },
          { skip: 125 },
        ];

        /**
         * The same query steps on any store: with no index; with a compound index alone; with
         * single-field ones too; after writes; after reopening. Each asks every query with find and
         * countWhere, then count, ranges and getMany, which indexes must leave as they were.
         */
        const queryTranscript = async (store: StoreAdapter) => {
          const steps: Step[] = [];
          // What runs depends on the adapter under test, so the memory store runs the same steps.
          const has = (c: string) => adapter.capabilities.includes(c as never);
          const name = unique(`query-${store.id}`);
          let h = await store.open(name);
          if (has('bulkWrite')) await h.bulkPut!(docs);
          else for (const d of docs) await h.put(d);
          const ask = async (phase: string) => {
            for (const [i, q] of list.entries()) {
              steps.push([`${phase} | find | ${i} | ${JSON.stringify(q)}`, await h.find!(q)]);
              steps.push([
                `${phase} | count | ${i} | ${JSON.stringify(q)}`,
                await h.countWhere!(q),
              ]);
            }
            steps.push([`${phase} | count()`, await h.count()]);
            if (has('keyRange'))
              for (const r of ranges)
                steps.push([
                  `${phase} | range ${JSON.stringify(r)}`,
                  (await h.range!(r)).map((d) => d._id),
                ]);
            if (has('getMany'))
              steps.push([
                `${phase} | getMany`,
                await h.getMany!(['odd-string', 'doc-0000000002']),
              ]);
          };
          await ask('no index');
          if (has('secondaryIndex')) {
            // A compound index alone first: a query on age only must still find the document
            // that has no lastName. Reopened, so the handle knows the index only from the store.
            await h.createIndex!(['age', 'lastName']);
            await h.close();
            h = await store.open(name);
            await ask('a compound index on age, lastName');
            await h.createIndex!(['age']);
            await h.createIndex!(['lastName']);
            await h.createIndex!(['age']);
            await ask('and indexes on age and on lastName');
            // The data still changes under an index.
            await h.put({ _id: 'odd-late', age: age, lastName: last });
            if (has('update')) await h.update!({ ...person(3), age: age + 1 });
            if (has('remove')) await h.remove!(person(5)._id);
            await ask('after changes');
            // What a new handle learns of the indexes when it opens.
            await h.close();
            h = await store.open(name);
            await ask('after reopening');
          }
          await h.destroy();
          return steps;
        };

        const reference = await queryTranscript(adapterById('memory'));
        const steps = await queryTranscript(adapter);
        const expected = {
          find: list.map((q) => applyFind(docs, q)),
          count: list.map((q) => countMatches(docs, q)),
        };

        let views: ViewCheck[] | undefined;
        if (adapter.capabilities.includes('mapReduce')) {
          // View keys are scalars (ViewRow), so this store's documents hold only scalars there.
          const viewDocs = [
            ...people,
            ...odd.filter((d) =>
              ['odd-boolean', 'odd-string', 'odd-fraction', 'odd-missing', 'Odd-first'].includes(
                d._id,
              ),
            ),
          ];
          const rowsOf = (from: readonly Doc[], field: string, q: ViewQuery): ViewRow[] => {
            const within = (k: Scalar) =>
              (q.key === undefined || compareScalars(k, q.key) === 0) &&
              (q.startkey === undefined || compareScalars(k, q.startkey) >= 0) &&
              (q.endkey === undefined || compareScalars(k, q.endkey) <= 0);
            const rows = from.flatMap((d) =>
              d[field] !== undefined && within(d[field] as Scalar)
                ? [{ key: d[field] as Scalar, id: d._id }]
                : [],
            );
            rows.sort(
              (a, b) => compareScalars(a.key, b.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
            );
            return rows.slice(0, q.limit);
          };
          const viewQueries: [string, ViewQuery][] = [
            ['age', {}],
            ['age', { key: age }],
            ['age', { startkey: 30, endkey: 40 }],
            ['age', { startkey: 85 }],
            ['age', { endkey: 20 }],
            ['age', { limit: 5 }],
            ['age', { startkey: 30, limit: 4 }],
            ['age', { key: true }],
            ['age', { startkey: 40, endkey: 30 }],
            ['age', { key: age, startkey: age + 1 }],
            ['age', { limit: 0 }],
            ['lastName', { key: last }],
            ['lastName', { startkey: 'B', endkey: 'M' }],
            ['lastName', { startkey: 'T', limit: 3 }],
          ];
          views = [];
          const h = await adapter.open(unique('views'));
          await (h.bulkPut ? h.bulkPut(viewDocs) : Promise.all(viewDocs.map((d) => h.put(d))));
          await h.createView!('by_age', 'age');
          await h.createView!('by_lastName', 'lastName');
          views.push([
            'stale query of a view never built: the index as it is, empty',
            await h.queryView!('by_age', { stale: true }),
            [],
          ]);
          for (const [field, q] of viewQueries) {
            const want = rowsOf(viewDocs, field, q);
            views.push([
              `queryView ${field} ${JSON.stringify(q)}`,
              await h.queryView!(`by_${field}`, q),
              want,
            ]);
            views.push([
              `queryView ${field} ${JSON.stringify(q)}, stale`,
              await h.queryView!(`by_${field}`, { ...q, stale: true }),
              want,
            ]);
            views.push([
              `queryTemp ${field} ${JSON.stringify(q)}`,
              await h.queryTemp!(field, q),
              want,
            ]);
          }
          views.push(['count() with two views', await h.count(), viewDocs.length]);
          views.push(['get of a design document id', await h.get('_design/by_age'), undefined]);
          if (h.range)
            views.push([
              'range ids with two views',
              (await h.range({})).map((d) => d._id),
              viewDocs.map((d) => d._id).sort(),
            ]);
          // A stale query answers from the index as it was; the next fresh one brings it up to date.
          const before = rowsOf(viewDocs, 'age', { key: age });
          await h.put({ _id: 'view-late', age });
          const after = rowsOf([...viewDocs, { _id: 'view-late', age }], 'age', { key: age });
          views.push([
            'stale query after a write',
            await h.queryView!('by_age', { key: age, stale: true }),
            before,
          ]);
          views.push([
            'fresh query after a write',
            await h.queryView!('by_age', { key: age }),
            after,
          ]);
          views.push([
            'temporary view after a write',
            await h.queryTemp!('age', { key: age }),
            after,
          ]);
          views.push(['count() after a write', await h.count(), viewDocs.length + 1]);
          await h.destroy();
        }
        queries = {
          reference,
          steps,
          expected,
          docCount: docs.length,
          ids: docs.map((d) => d._id).sort(),
          ...(views && { views }),
          left: await footprint(),
        };
      }

      let durability: Record<Durability, string[]> | undefined;
      if (adapter.capabilities.includes('durability')) {
        // Record the durability of every readwrite transaction the engine actually created.
        const proto = IDBDatabase.prototype;
        // eslint-disable-next-line @typescript-eslint/unbound-method -- the original, which the patch calls with its own `this`
        const original = proto.transaction;
        let seen: string[] = [];
        proto.transaction = function (this: IDBDatabase, ...args: Parameters<typeof original>) {
          const tx = original.apply(this, args);
          if (tx.mode === 'readwrite') seen.push(tx.durability);
          return tx;
        } as typeof original;
        durability = { relaxed: [], strict: [], default: [] };
        try {
          for (const level of ['relaxed', 'strict', 'default'] as const) {
            seen = [];
            const h = await adapter.open(unique(`durability-${level}`), { durability: level });
            await h.put({ _id: 'a', n: 1 });
            await h.bulkPut?.([{ _id: 'b', n: 2 }]);
            await h.update?.({ _id: 'a', n: 3 });
            await h.destroy();
            durability[level] = seen;
          }
        } finally {
          proto.transaction = original;
        }
      }

      type WorkerReport = { ok: boolean; count?: number; doc?: unknown; error?: string };
      let worker: WorkerReport | undefined;
      if (adapter.capabilities.includes('worker')) {
        const source = `
          try {
            const { adapterById } = await import(${JSON.stringify(new URL(modules.registry, location.href).href)});
            const adapter = adapterById(${JSON.stringify(id)});
            const supported = await adapter.supported();
            if (supported !== true) throw new Error('not supported in a Worker: ' + supported);
            const h = await adapter.open(${JSON.stringify(unique('worker'))});
            await h.put({ _id: 'a', n: 1 });
            await h.put({ _id: 'b', n: 2 });
            const result = { ok: true, count: await h.count(), doc: await h.get('b') };
            await h.destroy();
            postMessage(result);
          } catch (e) {
            postMessage({ ok: false, error: String((e && e.stack) || e) });
          }`;
        const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
        const w = new Worker(url, { type: 'module' });
        try {
          worker = await within(
            new Promise<WorkerReport>((resolve, reject) => {
              w.onmessage = (e: MessageEvent<WorkerReport>) => resolve(e.data);
              w.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
            }),
            30_000,
            'worker',
          );
        } catch (e) {
          worker = { ok: false, error: String(e) };
        } finally {
          w.terminate();
          URL.revokeObjectURL(url);
        }
      }
      const afterWorker = await footprint();

      return {
        supported,
        capabilities: [...adapter.capabilities],
        backend: adapter.backend,
        methods,
        reference,
        steps,
        before,
        filled,
        afterDestroy,
        afterSecondDestroy,
        byNameClosed,
        byNameOpen,
        ...(durability && { durability }),
        ...(worker && { worker }),
        afterWorker,
        ...(queries && { queries }),
      };
    },
    { id, modules: MODULES },
  );
}

/** What `later` holds that `earlier` did not, per kind of storage. */
function added(later: Footprint, earlier: Footprint): Footprint {
  const diff = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
  return {
    idb: diff(later.idb, earlier.idb),
    localStorage: diff(later.localStorage, earlier.localStorage),
    memory: diff(later.memory, earlier.memory),
  };
}

const NOTHING: Footprint = { idb: [], localStorage: [], memory: [] };

/**
 * A page on the dev server without the app's UI. Vite injects its HMR client into every HTML
 * page it serves, and that client reloads the page when any source file is saved, which would
 * destroy a page.evaluate halfway through; the client is left out of this page.
 */
async function openBlankPage(page: Page): Promise<void> {
  await page.route('**/tests/e2e/blank.html', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      /<script[^>]*\/@vite\/client[^>]*><\/script>/g,
      '',
    );
    await route.fulfill({ response, body });
  });
  await page.goto('/tests/e2e/blank.html');
  expect(
    await page.evaluate(() => document.querySelector('script[src*="@vite/client"]')),
    'no HMR client in the test page',
  ).toBeNull();
}

test('adapters - registry', async ({ page, browserName }) => {
  expect(ADAPTER_IDS).toEqual(EXPECTED_IDS);
  await openBlankPage(page);
  const listed = await page.evaluate(async (url) => {
    const { ADAPTERS } = (await import(url)) as Registry;
    return Promise.all(
      ADAPTERS.map(async (a) => ({
        id: a.id,
        label: a.label,
        capabilities: [...a.capabilities],
        supported: await a.supported(),
      })),
    );
  }, MODULES.registry);
  expect(
    listed.map((a) => a.id),
    'the page sees the same registry',
  ).toEqual(EXPECTED_IDS);
  for (const a of listed) {
    expect(a.label.trim(), a.id).not.toBe('');
    expect(new Set(a.capabilities).size, `${a.id}: capabilities listed twice`).toBe(
      a.capabilities.length,
    );
    for (const c of a.capabilities)
      expect(CAPABILITY_IDS, `${a.id}: unknown capability`).toContain(c);
    if (a.capabilities.includes('skip'))
      expect(a.capabilities, `${a.id}: skip without keyRange`).toContain('keyRange');
  }
  const unsupported = listed.filter((a) => a.supported !== true);
  for (const { id, supported: reason } of unsupported) {
    expect(typeof reason, id).toBe('string');
    expect(String(reason).trim(), id).not.toBe('');
    expect(String(reason), `${id}: the reason is one line`).not.toContain('\n');
  }
  const facts = ENGINE_FACTS[browserName];
  if (facts) expect(unsupported.map((a) => a.id)).toEqual(facts.unsupported);
});

/**
 * The WebSQL stores run a second time with WebSQL emulated over SQLite Wasm (websql-shim.ts), so
 * their real code runs against a real SQL engine in every browser. The shim goes in before the
 * registry is imported: localForage checks for openDatabase when its module is evaluated.
 */
const EMULATED_WEBSQL = ['localforage-websql', 'websql'];
const RUNS = [
  ...ADAPTER_IDS.map((id) => ({ id, emulated: false })),
  ...EMULATED_WEBSQL.map((id) => ({ id, emulated: true })),
];

for (const { id, emulated } of RUNS) {
  test(`adapters - ${id}${emulated ? ' (WebSQL emulated over SQLite Wasm)' : ''}`, async ({
    page,
    browserName,
  }) => {
    await openBlankPage(page);
    if (emulated) {
      await page.evaluate(async (url) => {
        await ((await import(url)) as ShimModule).installWebSqlShim();
      }, SHIM_MODULE);
    }
    const report = await exercise(page, id);
    const facts = ENGINE_FACTS[browserName];
    if (emulated) {
      expect(report.supported, `${id} runs on the WebSQL shim`).toBe(true);
      // No emulated run may pass for a browser's own WebSQL.
      const shown = await page.evaluate(
        async ({ url, id }) => {
          const adapter = ((await import(url)) as Registry).adapterById(id);
          return { label: adapter.label, described: await adapter.describe?.() };
        },
        { url: MODULES.registry, id },
      );
      expect(shown.label).toContain('emulated over SQLite Wasm (test shim)');
      expect(shown.described).toEqual({ webSql: 'WebSQL emulated over SQLite Wasm (test shim)' });
    }

    if (report.supported !== true) {
      expect(typeof report.supported).toBe('string');
      expect(report.supported.trim()).not.toBe('');
      expect(report.supported, 'the reason is one line').not.toContain('\n');
      expect(report.openWhenUnsupported, 'open() on an unsupported store').toBe('rejected');
      if (facts) expect(facts.unsupported).toContain(id);
      return;
    }
    if (facts && !emulated) expect(facts.unsupported).not.toContain(id);
    // Where the engine has the durability hint (Chrome 83+, Firefox), the check below must run.
    if (facts?.idbDurability && ['idb', 'indexeddb-raw', 'dexie'].includes(id))
      expect(report.capabilities).toContain('durability');

    // Each declared capability has its methods, and no gated method exists undeclared.
    for (const c of report.capabilities)
      for (const m of METHODS[c] ?? []) expect(report.methods, `${id} declares ${c}`).toContain(m);
    for (const m of report.methods) {
      const needs = GATED[m];
      if (needs) expect(report.capabilities, `${id} has ${m}()`).toContain(needs);
    }

    // Identical semantics: the same steps, and the same answer at every step.
    expect(report.steps.map(([name]) => name)).toEqual(report.reference.map(([name]) => name));
    report.steps.forEach(([name, value], i) => {
      expect(value, `${id}: ${name}`).toStrictEqual(report.reference[i]?.[1]);
    });

    // Anchors that do not depend on the reference being right.
    const step = (name: string) => report.steps.find(([n]) => n === name)?.[1];
    expect(step('count after 50')).toBe(50);
    expect(step('get each'), 'get returns exactly what was put').toStrictEqual(
      makeDocs(fixtureShape('person'), 42, 50),
    );
    expect(step('get missing')).toBeUndefined();
    expect(step('get after close')).toBe('rejected');
    expect(step('count after reopen')).toBe(step('count before close'));
    expect(step('all documents after reopen')).toStrictEqual(step('all documents before close'));
    expect(step('count after destroy and reopen')).toBe(0);
    expect(step('get after destroy and reopen')).toBeUndefined();

    // destroy really deletes: whatever the store created is gone afterwards, however it is deleted.
    const created = added(report.filled, report.before);
    const kind = { indexeddb: 'idb', localstorage: 'localStorage', memory: 'memory' } as const;
    const where = kind[report.backend as keyof typeof kind];
    if (where) expect(created[where], `${id} stores its data in ${report.backend}`).not.toEqual([]);
    expect(added(report.afterDestroy, report.before), 'left after handle.destroy()').toEqual(
      NOTHING,
    );
    expect(added(report.afterSecondDestroy, report.before), 'left after the transcript').toEqual(
      NOTHING,
    );
    expect(
      added(report.byNameClosed.footprint, report.before),
      'left after adapter.destroy(name)',
    ).toEqual(NOTHING);
    expect(
      added(report.byNameOpen.footprint, report.before),
      'left after adapter.destroy(name) with a handle open',
    ).toEqual(NOTHING);
    expect(report.byNameClosed.countWhenReopened).toBe(0);
    expect(report.byNameOpen.countWhenReopened).toBe(0);
    expect(added(report.afterWorker, report.before), 'left after the worker').toEqual(NOTHING);

    // Queries: the same answers as the memory store and as applyFind over the documents,
    // with and without indexes, and no index or view shows up as a document.
    if (report.capabilities.includes('query')) {
      const q = report.queries;
      expect(q, 'query transcript').toBeDefined();
      if (q) {
        expect(q.steps.map(([name]) => name)).toEqual(q.reference.map(([name]) => name));
        q.steps.forEach(([name, value], i) =>
          expect(value, `${id}: ${name}`).toStrictEqual(q.reference[i]?.[1]),
        );
        const phases = new Set<string>();
        for (const [name, value] of q.steps) {
          const [phase, kind, n] = name.split(' | ');
          phases.add(phase as string);
          if (phase === 'after changes' || phase === 'after reopening') continue;
          if (kind === 'find')
            expect(value, `${id}: ${name} equals applyFind`).toStrictEqual(
              q.expected.find[Number(n)],
            );
          if (kind === 'count')
            expect(value, `${id}: ${name} equals countMatches`).toBe(q.expected.count[Number(n)]);
          if (kind === 'count()') expect(value, `${id}: ${name}`).toBe(q.docCount);
          if (kind === 'range {}') expect(value, `${id}: ${name}`).toEqual(q.ids);
        }
        if (report.capabilities.includes('secondaryIndex'))
          expect(phases.size, `${id}: queried with and without indexes`).toBe(5);
        expect(
          q.expected.find.some((docs) => docs.length > 0),
          'some query finds documents',
        ).toBe(true);
        for (const [name, actual, expected] of q.views ?? [])
          expect(actual, `${id}: ${name}`).toStrictEqual(expected);
        if (report.capabilities.includes('mapReduce'))
          expect(q.views?.length, `${id}: views checked`).toBeGreaterThan(40);
        expect(added(q.left, report.before), 'left after the query stores').toEqual(NOTHING);
      }
    }

    if (report.capabilities.includes('durability')) {
      const seen = report.durability;
      expect(seen).toBeDefined();
      for (const level of ['relaxed', 'strict', 'default'] as const) {
        expect(seen?.[level].length, `${level}: readwrite transactions seen`).toBeGreaterThan(0);
        for (const d of seen?.[level] ?? [])
          expect(d, `transaction opened with durability ${level}`).toBe(level);
      }
    }
    if (report.capabilities.includes('worker')) {
      expect(report.worker, 'the store works in a dedicated Worker').toEqual({
        ok: true,
        count: 2,
        doc: { _id: 'b', n: 2 },
      });
    }
  });
}
