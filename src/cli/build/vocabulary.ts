/**
 * What a plan may name, read from the same registries the page uses, so the sweep rejects a
 * mistyped suite, store, case or parameter before it starts a browser. The registries import the store
 * libraries, some of which expect a browser at import time, so they are loaded in a child
 * process (vocabulary-probe.ts) and only their ids come back.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { PlanCases } from '../../core/plan/ab-plan.ts';
import type { Plan, PlanVocabulary } from '../../core/plan/plan.ts';
import type { Wraps } from '../../core/plan/variant.ts';
import { clipped } from '../../core/base/shown.ts';
import { ConfigError, type StorebenchConfig } from '../args/config-file.ts';
import { inSeconds, timeLimitMs } from '../args/time-limits.ts';
import { tsxImport } from './tsx.ts';
import { userAdapter, type UserAdapter } from './user-adapters.ts';

const PROBE = fileURLToPath(new URL('./vocabulary-probe.ts', import.meta.url));
/** The probe's output starts after this: what a module printed on import comes before it. */
const MARK = '@@storebench-probe@@';
/** What the probe writes on its stderr once the registries have loaded (vocabulary-probe.ts). */
const LOADED = '@@storebench-registries-loaded@@';

/** The plan's vocabulary with the config's adapters among the registered ones, and those adapters. */
export interface Vocabulary extends PlanVocabulary {
  /** The config's adapters, in its order. */
  user: readonly UserAdapter[];
}

/**
 * How long the registries may take to load: about 3 s on a loaded 2-core machine. The config's
 * adapter modules, imported after them, have a limit of their own (STOREBENCH_IMPORT_TIMEOUT_MS):
 * a module that never finishes importing is stopped there, not after a minute.
 */
const REGISTRIES_TIMEOUT_MS = 30_000;

/** What the probe stopped in, when it was stopped: the registries, or the config's modules after them. */
type Stage = 'registries' | 'modules';

/** Why the probe failed, in one line: a time limit said as one, else the first lines it printed. */
function probeFailure(
  err: string,
  modules: boolean,
  stopped: { stage: Stage; ms: number } | null,
): Error {
  const names = {
    modules: "the config's adapter modules",
    registries: 'the suite, adapter and fixture registries',
  };
  const what = names[modules ? 'modules' : 'registries'];
  if (stopped !== null)
    return new ConfigError(
      `${names[stopped.stage]} did not finish importing within ${inSeconds(stopped.ms)}: a top-level await that never settles, an endless loop at import, or work at import that takes longer`,
    );
  // Node's own "Command failed: node …" line names this machine's paths, not the fault.
  const firstLines = err
    .split('\n')
    .filter(
      (l) => l.trim() && !/^\s+at /.test(l) && !l.includes('node:internal') && !l.includes(LOADED),
    )
    .slice(0, 2)
    .join(' | ');
  const why = clipped(firstLines || 'it exited with no message', 400);
  return modules
    ? new ConfigError(`${what} could not be imported: ${why}`)
    : new Error(`could not read the ids from ${what}: ${why}`);
}

/**
 * Run the probe with these arguments and `input` on its stdin; its stdout, parsed as JSON. The
 * registries have REGISTRIES_TIMEOUT_MS; from the probe's word that they loaded (LOADED, on its
 * stderr), the config's modules have the import limit, so a low limit times only the modules.
 */
async function probe(args: readonly string[], input = ''): Promise<Record<string, unknown>> {
  const modules = args[0] === '--modules';
  const importLimitMs = timeLimitMs('STOREBENCH_IMPORT_TIMEOUT_MS');
  // The probe is TypeScript: reuse this process's module hooks (tsx's), or ask for tsx.
  const hooks = loaderFlags(process.execArgv);
  const loader = hooks.some((a) => a.includes('tsx')) ? hooks : tsxImport();
  const stdout = await new Promise<string>((ok, fail) => {
    let stopped: { stage: Stage; ms: number } | null = null;
    const child = execFile(
      process.execPath,
      [...loader, PROBE, ...args],
      { maxBuffer: 1024 * 1024 },
      (error, out, err) => {
        clearTimeout(timer);
        if (error) fail(probeFailure(String(err), modules, stopped));
        else ok(String(out));
      },
    );
    const stopAfter = (ms: number, stage: Stage) =>
      setTimeout(() => {
        stopped = { stage, ms };
        child.kill('SIGKILL');
      }, ms);
    let timer = stopAfter(REGISTRIES_TIMEOUT_MS, 'registries');
    let tail = '';
    let loaded = false;
    child.stderr?.on('data', (chunk: Buffer | string) => {
      if (!modules || loaded) return;
      const text = tail + String(chunk);
      // The mark may come split over two chunks: keep just enough of this one to find it.
      tail = text.slice(-LOADED.length);
      if (!text.includes(LOADED)) return;
      loaded = true;
      clearTimeout(timer);
      timer = stopAfter(importLimitMs, 'modules');
    });
    child.stdin?.end(input);
  });
  const at = stdout.lastIndexOf(MARK);
  return JSON.parse(at < 0 ? stdout : stdout.slice(at + MARK.length)) as Record<string, unknown>;
}

/**
 * The registries' ids, with the config's adapters joined to them. Throws ConfigError when a
 * config module exports no adapter or one whose id is taken; Error when the registries cannot be read.
 */
export async function loadVocabulary(config: StorebenchConfig | null = null): Promise<Vocabulary> {
  const modules = config?.adapters ?? [];
  const data = await probe(
    modules.length > 0 ? ['--modules', JSON.stringify(modules.map((m) => m.path))] : [],
  );
  const list = (v: unknown, what: string): string[] => {
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
      throw new Error(`the ${what} registry gave no list of ids`);
    return v;
  };
  const adapters = list(data.adapters, 'adapter');
  const wraps = wrapsOf(data.wraps);
  const user: UserAdapter[] = [];
  const reports = Array.isArray(data.modules) ? (data.modules as ModuleReport[]) : [];
  modules.forEach((m, i) => {
    const report = reports[i];
    const where = `${config?.shown}: $.adapters[${i}] (${m.written})`;
    if (!report || report.problem !== null)
      throw new ConfigError(`${where}: ${report?.problem ?? 'was not read'}`);
    for (const a of report.adapters) {
      if (adapters.includes(a.id))
        throw new ConfigError(
          `${where}: adapter id "${a.id}" is taken by ${user.some((u) => u.id === a.id) ? 'another adapter of the config' : "one of storebench's own stores"}; give yours another id`,
        );
      adapters.push(a.id);
      if (a.wraps !== undefined) Object.assign(wraps, wrapsOf({ [a.id]: a.wraps }));
      user.push(userAdapter(a.id, a.exportName, m.path, config as StorebenchConfig));
    }
  });
  return {
    suites: list(data.suites, 'suite'),
    adapters,
    fixtures: list(data.fixtures, 'fixture'),
    wraps,
    user,
  };
}

/** One module as the probe read it (vocabulary-probe.ts). */
interface ModuleReport {
  adapters: { exportName: string; id: string; wraps?: unknown }[];
  problem: string | null;
}

/** The packages each adapter wraps, as the probe printed them (core/plan/variant.ts Wraps). */
function wrapsOf(v: unknown): Record<string, Wraps> {
  const names = (x: unknown): x is string[] =>
    Array.isArray(x) && x.every((n) => typeof n === 'string');
  const ok = (w: unknown): w is Wraps => {
    const { packages, before } = (w ?? {}) as Partial<Wraps>;
    return (
      names(packages) &&
      (before === undefined || (typeof before.version === 'string' && names(before.packages)))
    );
  };
  if (typeof v !== 'object' || v === null || !Object.values(v).every(ok))
    throw new Error('the adapter registry gave no list of the packages its adapters wrap');
  return v as Record<string, Wraps>;
}

/** What the registries say of a plan before any browser starts. */
export interface PlanCheck extends PlanCases {
  /**
   * Why the plan's cases or suite parameters cannot run (an unknown case, an unknown parameter, a
   * value a parameter does not allow), or null: the same check the page makes before it runs.
   */
  problem: string | null;
  /** The rows the plan runs in each browser. */
  rows: number;
}

export async function checkPlanNames(plan: Plan): Promise<PlanCheck> {
  const { error, rows, groups, allGroups, driven } = await probe(['--check'], JSON.stringify(plan));
  const count = (n: unknown) => (typeof n === 'number' ? n : 0);
  return {
    problem: typeof error === 'string' ? error : null,
    rows: count(rows),
    groups: count(groups),
    allGroups: count(allGroups),
    driven: Array.isArray(driven) ? driven.filter((d): d is string => typeof d === 'string') : [],
  };
}

/** Only the flags that install module hooks (`--import x`, `--require=x`, ...), not --eval etc. */
function loaderFlags(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i] as string;
    if (/^--(import|require|loader|experimental-loader)=/.test(a)) out.push(a);
    else if (
      /^(--import|--require|-r|--loader|--experimental-loader)$/.test(a) &&
      i + 1 < execArgv.length
    )
      out.push(a, execArgv[++i] as string);
  }
  return out;
}
