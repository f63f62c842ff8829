import { expect, test } from '@playwright/test';

/**
 * suites - every suite, end to end at tiny sizes, in a real browser: on the memory floor and on
 * real stores (raw IndexedDB and PouchDB). The modules are loaded through the Vite dev server,
 * the same code the page runs.
 */
const STORES = ['memory', 'idb', 'pouchdb-idb', 'pouchdb-indexeddb', 'localforage-indexeddb'];

type Runner = typeof import('../../src/core/run/runner.ts');
type Suites = typeof import('../../suites/index.ts');
type Registry = typeof import('../../src/adapters/registry.ts');
type PlanModule = typeof import('../../src/core/plan/defaults.ts');
const MODULES = {
  runner: '/src/core/run/runner.ts',
  suites: '/suites/index.ts',
  registry: '/src/adapters/registry.ts',
  plan: '/src/core/plan/defaults.ts',
};

test('suites - every suite runs on memory and real stores with no error or timeout', async ({
  page,
}) => {
  test.setTimeout(600_000);
  // Without Vite's HMR client, as in adapters-contract.spec.ts: it reloads the page whenever a
  // source file is saved, which would end page.evaluate halfway through the run.
  await page.route('**/tests/e2e/blank.html', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      /<script[^>]*\/@vite\/client[^>]*><\/script>/g,
      '',
    );
    await route.fulfill({ response, body });
  });
  await page.goto('/tests/e2e/blank.html');
  const rows = await page.evaluate(
    async ({ stores, modules }) => {
      const { runPlan } = (await import(modules.runner)) as Runner;
      const { SUITES } = (await import(modules.suites)) as Suites;
      const { adapterById } = (await import(modules.registry)) as Registry;
      const { DEFAULT_PLAN } = (await import(modules.plan)) as PlanModule;
      const params = {
        chunkSizes: [1, 10],
        batch: 10,
        batches: 3,
        ks: [1, 2],
        pageSize: 7,
        queries: 2,
      };
      const plan = {
        ...DEFAULT_PLAN,
        suites: SUITES.map((s) => s.id),
        adapters: stores,
        sizes: [30],
        iterations: 1,
        warmup: 0,
        timeoutMs: 60_000,
        params,
      };
      const out = await runPlan({
        plan,
        suites: SUITES,
        adapters: stores.map(adapterById),
        runId: 'e2e-suites',
      });
      const left = (await indexedDB.databases())
        .map((d) => d.name)
        .filter((n) => n?.includes('e2e-suites'));
      return {
        cases: out.cases.map((c) => ({
          suite: c.suite,
          case: c.case,
          adapter: c.adapter,
          status: c.status,
          reason: c.reason,
        })),
        leftover: out.leftover,
        left,
      };
    },
    { stores: STORES, modules: MODULES },
  );

  const failed = rows.cases.filter((c) => c.status === 'error' || c.status === 'timeout');
  expect(failed, JSON.stringify(failed, null, 1)).toEqual([]);
  for (const c of rows.cases)
    if (c.status === 'unsupported')
      expect(c.reason, `${c.suite}/${c.case} on ${c.adapter}`).toBeTruthy();
  // The driven suites need the sweep's driver (a kill, a restart, more tabs, a quota): in the page
  // every row of theirs on a store that persists is unsupported, most of them waiting for the
  // driver (the rest for a capability the store lacks), and none is measured.
  const DRIVEN = ['crash', 'cold', 'tabs', 'quota'];
  for (const suite of DRIVEN) {
    const own = rows.cases.filter((c) => c.suite === suite && c.adapter === 'idb');
    expect(own.length, suite).toBeGreaterThan(0);
    for (const c of own)
      expect(c.status === 'unsupported' && (c.reason ?? ''), `${suite}/${c.case} on idb`).toMatch(
        /^needs (the sweep to drive the browser: |\w+ \()/,
      );
    expect(
      own.filter((c) => c.reason?.startsWith('needs the sweep to drive the browser: ')).length,
      suite,
    ).toBeGreaterThan(0);
  }
  // Every other suite ran for real (ok rows) on raw IndexedDB and on PouchDB, not only on memory.
  const suites = [...new Set(rows.cases.map((c) => c.suite))].filter((s) => !DRIVEN.includes(s));
  // PouchDB cannot choose IndexedDB transaction durability, so its durability rows are unsupported.
  const expectedOk: Record<string, string[]> = {
    idb: suites,
    'pouchdb-idb': suites.filter((s) => s !== 'durability'),
  };
  for (const [adapter, okSuites] of Object.entries(expectedOk)) {
    for (const suite of okSuites) {
      expect(
        rows.cases.some((c) => c.suite === suite && c.adapter === adapter && c.status === 'ok'),
        `${suite} ok on ${adapter}`,
      ).toBe(true);
    }
  }
  // The query suites ran every case each store declares: pouchdb-find and map/reduce on PouchDB,
  // IndexedDB indexes on idb (which has no map/reduce), scans on localForage (which has no index).
  const notRun = (adapter: string, suite: string) =>
    rows.cases
      .filter((c) => c.adapter === adapter && c.suite === suite && c.status !== 'ok')
      .map((c) => c.case);
  for (const adapter of ['pouchdb-idb', 'pouchdb-indexeddb'])
    for (const suite of ['find', 'views'])
      expect(notRun(adapter, suite), `${suite} on ${adapter}`).toEqual([]);
  expect(notRun('idb', 'find')).toEqual([]);
  expect(notRun('idb', 'views')).toEqual([
    'build-index',
    'persisted',
    'persisted-stale',
    'persisted-cold',
    'temp',
  ]);
  expect(notRun('localforage-indexeddb', 'find')).toEqual([
    'eq-indexed',
    'gt-indexed',
    'ne-indexed',
    'two-field-indexed',
    'eq-indexed-cold',
    'gt-skip-limit',
    'gt-projection',
    'gt-count',
    'gt-find-length',
  ]);
  // The same holds for Workers: concurrency in Workers ran on a real store.
  expect(rows.cases.find((c) => c.case === 'worker-writers-2' && c.adapter === 'idb')?.status).toBe(
    'ok',
  );
  // A store bug is a finding in the row's reason, not an error the suite hides.
  expect(
    rows.cases.find((c) => c.case === 'worker-writers-2' && c.adapter === 'pouchdb-indexeddb')
      ?.reason,
  ).toMatch(/apache\/pouchdb#8209/);
  expect(rows.leftover).toEqual([]);
  expect(rows.left).toEqual([]);
});
