/**
 * The sweep's flags as a table: every flag's name and kind with an example value, the plan field
 * each value flag fills, the ones a config file may give as lists or numbers or not at all, and
 * what the flags read as (SweepArgs). The config's schema (config-schema.ts), the config's keys
 * as flags (commands/sweep/inputs.ts) and the sweep's records (browser-runs/sweep-run.ts) read it;
 * reading a command line into SweepArgs is the sweep's own (commands/sweep/args.ts).
 */
import type { Plan } from '../../core/plan/plan.ts';
import type { PlanFields } from '../../core/plan/fields.ts';
import type { OutputKind } from '../files/output.ts';
import type { FlagSpec } from './flags.ts';
import { CAPABILITIES_EXAMPLE } from './capabilities.ts';

export interface SweepArgs {
  help: boolean;
  /** Browser ids to run, in the order given; null means every browser found on this machine. */
  browsers: string[] | null;
  plan: Plan;
  /** Directory the results files go to. */
  out: string;
  /** False with --no-build: reuse dist/ when it exists. */
  build: boolean;
  /** --page DIR: serve this built page instead of building one (npm run study builds once for all its parts). */
  page: string | null;
  /** --manual: print the page URL and collect whichever browser opens it, instead of driving one. */
  manual: boolean;
  /** How long --manual waits for a browser to open the URL, or a grid to start a session, in ms. */
  waitMs: number;
  /** Address the page and collector listen on. */
  host: string;
  /** --remote: a Playwright browser server (ws://, wss://) or a WebDriver endpoint (http://, https://). */
  remote: string | null;
  /** --capabilities: what to ask a WebDriver endpoint for, over the sweep's defaults (drivers/remote.ts). */
  capabilities: Record<string, unknown> | null;
  /** --baseline: a results file each row samples against until its change is decided, with --threshold. */
  baseline: { path: string; thresholdPct: number } | null;
  /** --launches: browser launches the plan's passes are spread over (launch.ts); null: as many as the budget gives (core/plan/budget.ts). */
  launches: number | null;
  /** False with --no-check: time the config's adapters without running their contract first. */
  check: boolean;
  /** --summary FILE: what the run found, as Markdown for a pull request or $GITHUB_STEP_SUMMARY. */
  summary: string | null;
  /** --record-machine: each sample also records what the machine did during it (core/run/machine.ts). */
  recordMachine: boolean;
  /**
   * --budget auto or --budget-max: an --ab run sized to its question after its first passes
   * (core/verdicts/ab-size.ts), to `least` passes at the fewest and `most` at the most, which
   * --budget-max (`maxMs` per browser) pays for; null: the budget is fixed.
   */
  sizing: { maxMs: number; least: number; most: number } | null;
}

/** Whether a --budget value is `auto` (any case, any spaces around it): an --ab run sized to its question. */
export const isAutoBudget = (budget: string): boolean => budget.trim().toLowerCase() === 'auto';

/** Flags that take a value, and the plan field each one fills (null: not a plan field). */
export const VALUE_FLAGS: Readonly<Record<string, keyof PlanFields | null>> = {
  browsers: null,
  suites: 'suites',
  adapters: 'adapters',
  sizes: 'sizes',
  iterations: 'iterations',
  budget: 'budget',
  'budget-max': null,
  warmup: 'warmup',
  seed: 'seed',
  'timeout-ms': 'timeoutMs',
  fixture: 'fixture',
  params: 'params',
  cases: 'cases',
  shard: 'shard',
  study: 'study',
  'cpu-throttle': 'cpuThrottle',
  cures: 'cures',
  out: null,
  host: null,
  remote: null,
  capabilities: null,
  'wait-ms': null,
  launches: null,
  baseline: null,
  threshold: null,
  ab: null,
  detect: 'detect',
  page: null,
  config: null,
  summary: null,
};
const EXAMPLES: Record<string, string> = {
  browsers: 'chromium,firefox',
  suites: 'insert,read',
  adapters: 'memory',
  sizes: '100,1000',
  iterations: '5',
  budget: '4m',
  'budget-max': '12m',
  warmup: '1',
  seed: '42',
  'timeout-ms': '120000',
  fixture: 'person',
  params: "'chunkSizes=1,10,100;pageSize=10'",
  shard: '2/4',
  launches: '4',
  study: 'pouchdb-2.2/paging',
  'cpu-throttle': '4',
  cures: 'none',
  cases: 'bulk,serial',
  out: 'out',
  host: '192.168.1.20',
  remote: 'ws://127.0.0.1:9222/abc',
  capabilities: CAPABILITIES_EXAMPLE,
  'wait-ms': '600000',
  baseline: 'results/base-chromium.json',
  threshold: '5%',
  ab: 'idb,idb@8.0.4',
  detect: '10%',
  page: 'dist',
  config: 'storebench.config.json',
  summary: 'summary.md',
};
/** The value flags that name what the sweep writes: its results folder and its Markdown summary. */
const OUTPUTS: Readonly<Record<string, OutputKind>> = { out: 'folder', summary: 'file' };
/** The sweep's flags: `--auto` is adaptive sampling's defaults, `--auto=ci:1%` tunes it. */
export const SWEEP_FLAGS: Readonly<Record<string, FlagSpec>> = {
  ...Object.fromEntries(
    Object.keys(VALUE_FLAGS).map((name) => [
      name,
      {
        kind: 'value',
        example: EXAMPLES[name],
        ...(OUTPUTS[name] ? { output: OUTPUTS[name] } : {}),
      },
    ]),
  ),
  'no-build': { kind: 'switch' },
  manual: { kind: 'switch' },
  auto: { kind: 'switch=' },
  worker: { kind: 'switch' },
  'no-check': { kind: 'switch' },
  'record-machine': { kind: 'switch' },
};

/**
 * The value flags a config file may also give as JSON lists (joined with commas) or whole numbers;
 * every other value flag takes a string there (config-schema.ts).
 */
export const LIST_FLAGS: readonly string[] = ['browsers', 'suites', 'adapters', 'sizes', 'cases'];
export const COUNT_FLAGS: readonly string[] = [
  'iterations',
  'warmup',
  'seed',
  'timeout-ms',
  'cpu-throttle',
  'launches',
  'wait-ms',
];
/** Flags that are no key of a config file: the file itself. */
export const NOT_IN_CONFIG: readonly string[] = ['config'];
