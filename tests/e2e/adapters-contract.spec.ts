import { expect, test, type Page } from '@playwright/test';
import type { Doc, Durability, KeyRange, StoreAdapter } from '../../src/core/adapter.ts';
import { CAPABILITY_IDS, type Capability } from '../../src/core/capabilities.ts';
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

const MODULES = { registry: '/src/adapters/registry.ts', fixtures: '/fixtures/index.ts', memory: '/src/adapters/memory.ts' };

const EXPECTED_IDS = [
  'pouchdb-idb',
  'pouchdb-indexeddb',
  'idb',
  'localforage-indexeddb',
  'localforage-localstorage',
  'localforage-websql',
  'websql',
  'memory',
];

/** Chromium removed WebSQL in 119 (BROWSERS.md); every other store runs there. */
const UNSUPPORTED_IN_CHROMIUM = ['localforage-websql', 'websql'];

/** The handle methods each capability promises. */
const METHODS: Partial<Record<Capability, readonly string[]>> = {
  bulkWrite: ['bulkPut'],
  getMany: ['getMany'],
  keyRange: ['range'],
  skip: ['range'],
  update: ['update'],
  bulkUpdate: ['bulkUpdate'],
  remove: ['remove'],
  bulkRemove: ['bulkRemove'],
  secondaryIndex: ['createIndex'],
  query: ['find', 'countWhere'],
  mapReduce: ['createView', 'queryView', 'queryTemp'],
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
    };

/** Everything that runs in the page for one adapter. One function, because page.evaluate ships its source. */
function exercise(page: Page, id: string): Promise<Report> {
  return page.evaluate(
    async ({ id, modules }): Promise<Report> => {
      const { adapterById } = (await import(modules.registry)) as Registry;
      const { fixtureShape, makeDocs } = (await import(modules.fixtures)) as Fixtures;
      const { memoryDatabaseNames } = (await import(modules.memory)) as MemoryModule;
      const adapter = adapterById(id);
      const unique = (tag: string) => `contract-${id}-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
      const settle = (p: Promise<unknown>) =>
        p.then(
          () => 'resolved',
          () => 'rejected',
        );
      const within = <T>(p: Promise<T>, ms: number, what: string) =>
        Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms))]);
      const footprint = async (): Promise<Footprint> => ({
        idb: (await indexedDB.databases()).map((d) => d.name ?? '').sort(),
        localStorage: Object.keys(localStorage).sort(),
        memory: memoryDatabaseNames().sort(),
      });

      const supported = await adapter.supported();
      if (supported !== true) {
        // A store that says it cannot run here must not quietly open something else instead.
        return { supported, openWhenUnsupported: await settle(within(adapter.open(unique('unsupported')), 10_000, 'open')) };
      }

      /** The same operations on any store; `caps` decides which optional ones run. */
      const transcript = async (store: StoreAdapter, caps: readonly string[], look?: { filled(): Promise<void>; destroyed(): Promise<void> }) => {
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
        note('inputs left as given', docs.every((d) => Object.keys(d).every((k) => !k.startsWith('_') || k === '_id')));
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
        if (has('keyRange')) for (const r of ranges) note(`range ${JSON.stringify(r)}`, await h.range!(r));
        if (has('update')) {
          await h.update!({ ...doc(5), age: 99, note: 'updated' });
          await h.update!({ _id: at(6), replaced: true });
          note('get after update', [await h.get(at(5)), await h.get(at(6))]);
          note('update of a missing id', await settle(h.update!({ _id: 'doc-missing', x: 1 })));
          note('get missing after failed update', await h.get('doc-missing'));
          note('count after update', await h.count());
        }
        if (has('bulkUpdate')) {
          await h.bulkUpdate!([{ ...doc(11), age: 1 }, { _id: at(12), tiny: 'x' }]);
          note('get after bulkUpdate', [await h.get(at(11)), await h.get(at(12))]);
          note('bulkUpdate with a missing id', await settle(h.bulkUpdate!([{ ...doc(13), age: 2 }, { _id: 'doc-missing', y: 1 }])));
          note('bulkUpdate with a missing id changed nothing', [await h.get(at(13)), await h.get('doc-missing')]);
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
          if (has('getMany')) note('getMany after removes', await h.getMany!([at(7), at(8), at(9)]));
        }
        if (has('keyRange')) {
          const after: KeyRange[] = [{ gte: at(5), limit: 5 }, { lte: at(22), descending: true, skip: 1, limit: 4 }, { skip: 5, limit: 3 }];
          for (const r of after) note(`range after changes ${JSON.stringify(r)}`, await h.range!(r));
        }
        const everything = async () => (has('keyRange') ? h.range!({}) : Promise.all(ids.map((i) => h.get(i))));
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
      const methods = Object.entries(probe).flatMap(([k, v]) => (typeof v === 'function' ? [k] : []));
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

      let durability: Record<Durability, string[]> | undefined;
      if (adapter.capabilities.includes('durability')) {
        // Record the durability of every readwrite transaction the engine actually created.
        const proto = IDBDatabase.prototype;
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

      let worker: { ok: boolean; count?: number; doc?: unknown; error?: string } | undefined;
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
            new Promise((resolve, reject) => {
              w.onmessage = (e) => resolve(e.data);
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
      };
    },
    { id, modules: MODULES },
  );
}

/** What `later` holds that `earlier` did not, per kind of storage. */
function added(later: Footprint, earlier: Footprint): Footprint {
  const diff = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
  return { idb: diff(later.idb, earlier.idb), localStorage: diff(later.localStorage, earlier.localStorage), memory: diff(later.memory, earlier.memory) };
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
    const body = (await response.text()).replace(/<script[^>]*\/@vite\/client[^>]*><\/script>/g, '');
    await route.fulfill({ response, body });
  });
  await page.goto('/tests/e2e/blank.html');
  expect(await page.evaluate(() => document.querySelector('script[src*="@vite/client"]')), 'no HMR client in the test page').toBeNull();
}

test('adapters - registry', async ({ page, browserName }) => {
  expect(ADAPTER_IDS).toEqual(EXPECTED_IDS);
  await openBlankPage(page);
  const listed = await page.evaluate(async (url) => {
    const { ADAPTERS } = (await import(url)) as Registry;
    return Promise.all(ADAPTERS.map(async (a) => ({ id: a.id, label: a.label, capabilities: [...a.capabilities], supported: await a.supported() })));
  }, MODULES.registry);
  expect(listed.map((a) => a.id), 'the page sees the same registry').toEqual(EXPECTED_IDS);
  for (const a of listed) {
    expect(a.label.trim(), a.id).not.toBe('');
    expect(new Set(a.capabilities).size, `${a.id}: capabilities listed twice`).toBe(a.capabilities.length);
    for (const c of a.capabilities) expect(CAPABILITY_IDS, `${a.id}: unknown capability`).toContain(c);
    if (a.capabilities.includes('skip')) expect(a.capabilities, `${a.id}: skip without keyRange`).toContain('keyRange');
  }
  const unsupported = listed.filter((a) => a.supported !== true);
  for (const { id, supported: reason } of unsupported) {
    expect(typeof reason, id).toBe('string');
    expect(String(reason).trim(), id).not.toBe('');
    expect(String(reason), `${id}: the reason is one line`).not.toContain('\n');
  }
  if (browserName === 'chromium') expect(unsupported.map((a) => a.id)).toEqual(UNSUPPORTED_IN_CHROMIUM);
});

for (const id of ADAPTER_IDS) {
  test(`adapters - ${id}`, async ({ page, browserName }) => {
    await openBlankPage(page);
    const report = await exercise(page, id);

    if (report.supported !== true) {
      expect(typeof report.supported).toBe('string');
      expect(report.supported.trim()).not.toBe('');
      expect(report.supported, 'the reason is one line').not.toContain('\n');
      expect(report.openWhenUnsupported, 'open() on an unsupported store').toBe('rejected');
      if (browserName === 'chromium') expect(UNSUPPORTED_IN_CHROMIUM).toContain(id);
      return;
    }
    if (browserName === 'chromium') expect(UNSUPPORTED_IN_CHROMIUM).not.toContain(id);
    // Chromium has the durability hint (Chrome 83+), so the check below must run there.
    if (browserName === 'chromium' && id === 'idb') expect(report.capabilities).toContain('durability');

    // Each declared capability has its methods, and no gated method exists undeclared.
    for (const c of report.capabilities) for (const m of METHODS[c] ?? []) expect(report.methods, `${id} declares ${c}`).toContain(m);
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
    expect(step('get each'), 'get returns exactly what was put').toStrictEqual(makeDocs(fixtureShape('person'), 42, 50));
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
    expect(added(report.afterDestroy, report.before), 'left after handle.destroy()').toEqual(NOTHING);
    expect(added(report.afterSecondDestroy, report.before), 'left after the transcript').toEqual(NOTHING);
    expect(added(report.byNameClosed.footprint, report.before), 'left after adapter.destroy(name)').toEqual(NOTHING);
    expect(added(report.byNameOpen.footprint, report.before), 'left after adapter.destroy(name) with a handle open').toEqual(NOTHING);
    expect(report.byNameClosed.countWhenReopened).toBe(0);
    expect(report.byNameOpen.countWhenReopened).toBe(0);
    expect(added(report.afterWorker, report.before), 'left after the worker').toEqual(NOTHING);

    if (report.capabilities.includes('durability')) {
      const seen = report.durability;
      expect(seen).toBeDefined();
      for (const level of ['relaxed', 'strict', 'default'] as const) {
        expect(seen?.[level].length, `${level}: readwrite transactions seen`).toBeGreaterThan(0);
        for (const d of seen?.[level] ?? []) expect(d, `transaction opened with durability ${level}`).toBe(level);
      }
    }
    if (report.capabilities.includes('worker')) {
      expect(report.worker, 'the store works in a dedicated Worker').toEqual({ ok: true, count: 2, doc: { _id: 'b', n: 2 } });
    }
  });
}
