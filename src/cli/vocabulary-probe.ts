/**
 * Run as a child process by vocabulary.ts: loads the registries and prints their ids as JSON.
 * Some store libraries read browser globals when imported (pouchdb-browser reads `self` at
 * module load), so this process gets `self` and the sweep's own process never loads them.
 */
export {}; // a module, for top-level await

const g = globalThis as { self?: unknown };
g.self ??= globalThis;

const [suites, adapters, fixtures] = await Promise.all([
  import('../../suites/index.ts'),
  import('../adapters/registry.ts'),
  import('../../fixtures/index.ts'),
]);
process.stdout.write(JSON.stringify({ suites: suites.SUITE_IDS, adapters: adapters.ADAPTER_IDS, fixtures: fixtures.FIXTURE_IDS }));
