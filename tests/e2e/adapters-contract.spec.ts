import { expect, test, type Page } from '@playwright/test';
import type { installWebSqlShim } from './websql-shim.ts';
import type { exercise as exerciseInPage, Footprint, Report } from './contract-page.ts';
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
// The page imports these modules by URL; naming their exports here shows knip they are used.
type ShimModule = { installWebSqlShim: typeof installWebSqlShim };
type ContractPage = { exercise: typeof exerciseInPage };

const SHIM_MODULE = '/tests/e2e/websql-shim.ts';
/** The contract's side in the page: each phase of what runs there for one store (contract-page.ts). */
const CONTRACT_MODULE = '/tests/e2e/contract-page.ts';

const MODULES = {
  registry: '/src/adapters/registry.ts',
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

/** Everything that runs in the page for one adapter (contract-page.ts), and what it reports. */
function exercise(page: Page, id: string): Promise<Report> {
  return page.evaluate(async ({ id, url }) => ((await import(url)) as ContractPage).exercise(id), {
    id,
    url: CONTRACT_MODULE,
  });
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
