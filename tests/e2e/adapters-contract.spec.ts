import { expect, test, type Page } from '@playwright/test';
import { CAPABILITY_IDS } from '../../src/core/store/capabilities.ts';
import { ADAPTER_IDS } from '../../src/adapters/registry.ts';

/**
 * The adapter contract, end to end in a real browser: every registered store runs the same
 * fixture documents through the same operations (src/adapters/contract-probes/, the module
 * `storebench check` runs too), and each answer must equal the memory store's. The Vite dev
 * server turns the TypeScript sources into modules the page imports.
 */

type Registry = typeof import('../../src/adapters/registry.ts');
type ContractModule = typeof import('../../src/adapters/contract-probes/run.ts');
type ShimModule = typeof import('./websql-shim.ts');

const SHIM_MODULE = '/tests/e2e/websql-shim.ts';

const MODULES = {
  registry: '/src/adapters/registry.ts',
  contract: '/src/adapters/contract-probes/run.ts',
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

/** The contract (src/adapters/contract-probes/run.ts) on one store in the page: its verdict, and what the checks here need of its report. */
function exercise(page: Page, id: string) {
  return page.evaluate(
    async ({ id, url }) => {
      const { checkAdapter } = (await import(url)) as ContractModule;
      const { report, ...outcome } = await checkAdapter(id);
      return {
        ...outcome,
        capabilities: report?.supported === true ? report.capabilities : [],
        openWhenUnsupported: report?.supported === true ? null : report?.openWhenUnsupported,
      };
    },
    { id, url: MODULES.contract },
  );
}

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
    const outcome = await exercise(page, id);
    const facts = ENGINE_FACTS[browserName];
    if (emulated) {
      expect(outcome.supported, `${id} runs on the WebSQL shim`).toBe(true);
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

    if (outcome.supported !== true) {
      expect(typeof outcome.supported).toBe('string');
      expect(outcome.supported.trim()).not.toBe('');
      expect(outcome.supported, 'the reason is one line').not.toContain('\n');
      expect(outcome.openWhenUnsupported, 'open() on an unsupported store').toBe('rejected');
      expect(outcome.failures).toEqual([]);
      if (facts) expect(facts.unsupported).toContain(id);
      return;
    }
    if (facts && !emulated) expect(facts.unsupported).not.toContain(id);
    // Where the engine has the durability hint (Chrome 83+, Firefox), the check below must run.
    if (facts?.idbDurability && ['idb', 'indexeddb-raw', 'dexie'].includes(id))
      expect(outcome.capabilities).toContain('durability');
    // Every check of the contract (src/core/store/contract/verdict.ts), each failure with what was expected and what came back.
    expect(outcome.failures).toEqual([]);
  });
}
