/**
 * Run as a child process by vocabulary.ts (beside it). With no arguments: loads the registries and prints
 * their ids as JSON, and the packages each adapter wraps. With `--check` and a plan's JSON on stdin: prints
 * `{"error": …, "rows": N, "groups": N, "allGroups": N, "driven": [...]}`: the reason the plan's cases and
 * parameters cannot run (runner.ts planGroups), or null; the rows and case groups it runs in its shard, the
 * groups of the whole plan, and its driven suites. Some store libraries read
 * browser globals when imported (pouchdb-browser reads `self` at module load), so this process
 * gets `self` and the sweep's own process never loads them.
 */
import { readFileSync } from 'node:fs';

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
  // On stdin: a plan can be longer than one argument may be (128 kB on Linux).
  const plan = JSON.parse(readFileSync(0, 'utf8') || 'null') as import('../../core/plan.ts').Plan;
  let error: string | null = null;
  let rows = 0;
  let groups = 0;
  let allGroups = 0;
  let driven: string[] = [];
  try {
    const all = planGroups(
      plan,
      suites.SUITES.filter((s) => plan.suites.includes(s.id)),
    );
    const mine = selectShard(all, plan.shard, (g) => g.size);
    rows = mine.length * plan.adapters.length;
    groups = mine.length;
    allGroups = all.length;
    driven = [...new Set(all.filter((g) => g.c.driven !== undefined).map((g) => g.suite.id))];
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  process.stdout.write(JSON.stringify({ error, rows, groups, allGroups, driven }));
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
