/**
 * Run as a child process by vocabulary.ts (beside it). With no arguments: loads the registries and prints
 * their ids as JSON, and the packages each adapter wraps. With `--modules JSON`, a list of the
 * config's adapter modules: imports each and prints, per module, the exports that are adapters
 * (core/store/adapter-shape.ts) with their ids and what they wrap, or why it has none. With `--check`
 * and a plan's JSON on stdin: prints `{"error": …, "rows": N, "groups": N, "allGroups": N,
 * "driven": [...]}`: the reason the plan's cases and parameters cannot run (runner.ts
 * planGroups), or null; the rows and case groups it runs in its shard, the groups of the whole
 * plan, and its driven suites. Some store libraries read browser globals when imported
 * (pouchdb-browser reads `self` at module load), so this process gets `self` and the sweep's own
 * process never loads them.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { adapterProblems, looksLikeAdapter } from '../../core/store/adapter-shape.ts';

/** Before the JSON: whatever a module printed on import comes before it and is not read. */
const MARK = '@@storebench-probe@@';

const g = globalThis as { self?: unknown };
g.self ??= globalThis;

const [suites, adapters, fixtures] = await Promise.all([
  import('../../../suites/index.ts'),
  import('../../adapters/registry.ts'),
  import('../../../fixtures/index.ts'),
]);
// vocabulary.ts times the config's modules from this word on, apart from the registries' load.
process.stderr.write('@@storebench-registries-loaded@@\n');

/**
 * The answer after MARK, then exit: a module that leaves a timer or a socket open at import has
 * finished importing, and must not hold the probe open until its time limit.
 */
function answer(json: string): void {
  process.stdout.write(`\n${MARK}${json}`, () => process.exit(0));
}

/** The value after `flag` in this process's arguments, or undefined. */
function arg(flag: string): string | undefined {
  const i = process.argv.indexOf(flag);
  return i < 0 ? undefined : process.argv[i + 1];
}

/** One config module: its adapters, or why none could be taken from it. */
export interface ModuleReport {
  module: string;
  adapters: { exportName: string; id: string; wraps?: unknown }[];
  /** The module could not be imported, or exports no adapter, or an export meant as one is not. */
  problem: string | null;
}

async function inspect(module: string): Promise<ModuleReport> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(module).href)) as Record<string, unknown>;
  } catch (e) {
    // esbuild's first line is "Transform failed with 1 error:"; the error itself is the next.
    const lines = (e instanceof Error ? e.message : String(e)).split('\n').filter((l) => l.trim());
    const why = lines[0]?.endsWith(':') ? lines.slice(0, 2).join(' ') : (lines[0] ?? '');
    return { module, adapters: [], problem: `could not be imported in Node: ${why}` };
  }
  const found: ModuleReport['adapters'] = [];
  const seen = new Set<unknown>();
  // Named exports first, so an adapter exported both ways is known by its name.
  const names = Object.keys(exports).sort(
    (a, b) => Number(a === 'default') - Number(b === 'default'),
  );
  for (const name of names) {
    const value = exports[name];
    if (!looksLikeAdapter(value) || seen.has(value)) continue;
    seen.add(value);
    const problems = adapterProblems(value);
    if (problems.length > 0)
      return {
        module,
        adapters: [],
        problem: `its export ${name} is not a StoreAdapter: ${problems.join('; ')}`,
      };
    const a = value as { id: string; wraps?: unknown };
    found.push({ exportName: name, id: a.id, ...(a.wraps ? { wraps: a.wraps } : {}) });
  }
  if (found.length > 0) return { module, adapters: found, problem: null };
  const list = Object.keys(exports).join(', ') || 'none';
  return {
    module,
    adapters: [],
    problem: `exports no StoreAdapter (an object with id, label, backend, capabilities, supported(), open() and destroy()); its exports: ${list}`,
  };
}

if (process.argv.includes('--check')) {
  const { planGroups } = await import('../../core/run/runner.ts');
  const { selectShard } = await import('../../core/plan/shard.ts');
  // On stdin: a plan can be longer than one argument may be (128 kB on Linux).
  const plan = JSON.parse(
    readFileSync(0, 'utf8') || 'null',
  ) as import('../../core/plan/plan.ts').Plan;
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
  answer(JSON.stringify({ error, rows, groups, allGroups, driven }));
} else {
  const modules = JSON.parse(arg('--modules') ?? '[]') as string[];
  const reports: ModuleReport[] = [];
  for (const m of modules) reports.push(await inspect(m));
  answer(
    JSON.stringify({
      suites: suites.SUITE_IDS,
      adapters: adapters.ADAPTER_IDS,
      fixtures: fixtures.FIXTURE_IDS,
      wraps: adapters.ADAPTER_WRAPS,
      modules: reports,
    }),
  );
}
