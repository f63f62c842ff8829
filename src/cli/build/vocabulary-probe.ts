/**
 * Run as a child process by vocabulary.ts (beside it). With no arguments: loads the registries and prints
 * their ids as JSON, and the packages each adapter wraps. With `--check PLAN_JSON`: prints `{"error": …, "rows": N}`: the reason the
 * plan's cases and parameters cannot run (runner.ts planGroups), or null, and the rows it runs. Some store libraries read
 * browser globals when imported (pouchdb-browser reads `self` at module load), so this process
 * gets `self` and the sweep's own process never loads them.
 */
export {}; // a module, for top-level await

const g = globalThis as { self?: unknown };
g.self ??= globalThis;

const [suites, adapters, fixtures] = await Promise.all([
  import('../../../suites/index.ts'),
  import('../../adapters/registry.ts'),
  import('../../../fixtures/index.ts'),
]);
if (process.argv[2] === '--check') {
  const { planGroups } = await import('../../core/runner.ts');
  const { selectShard } = await import('../../core/shard.ts');
  const plan = JSON.parse(process.argv[3] ?? 'null') as import('../../core/plan.ts').Plan;
  let error: string | null = null;
  let rows = 0;
  try {
    const groups = selectShard(
      planGroups(
        plan,
        suites.SUITES.filter((s) => plan.suites.includes(s.id)),
      ),
      plan.shard,
      (g) => g.size,
    );
    rows = groups.length * plan.adapters.length;
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  process.stdout.write(JSON.stringify({ error, rows }));
} else {
  process.stdout.write(
    JSON.stringify({
      suites: suites.SUITE_IDS,
      adapters: adapters.ADAPTER_IDS,
      fixtures: fixtures.FIXTURE_IDS,
      wraps: adapters.ADAPTER_WRAPS,
    }),
  );
}
