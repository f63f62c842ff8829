/**
 * The plan room (src/core/plan/): what to run: the Plan, its defaults (defaults.ts), its text
 * fields (fields.ts) and URL (url.ts), shards, variants, the A/B plan, and the budget with every
 * share of it (budget.ts). It imports base and stats, nothing above: a plan is written before any
 * result exists.
 *
 * The plan: what to run. One shape for the page controls, the URL query and the sweep's flags,
 * parsed and checked in one place (fields.ts) so every entry point rejects bad input the same way.
 */
import type { Shard } from './shard.ts';
import type { ParamValue } from '../base/identity.ts';
import { plannedLooks } from '../stats/sequential.ts';
import type { Wraps } from './variant.ts';
import { DEFAULT_CURES, type Cure } from './cures.ts';

export interface Plan {
  suites: string[];
  adapters: string[];
  sizes: number[];
  /** Timed samples per row with fixed sampling (no `auto`); with `auto` it is unused. */
  iterations: number;
  /** Untimed warm-up samples per case, taken before the timed ones. */
  warmup: number;
  seed: number;
  /**
   * Time limit of one step, in ms: one sample (open, setup, run, verify, teardown), or a shared
   * database's fill. A step past it made no progress: the row is `timeout`. Sampling time is
   * bounded by `budgetMs` and `auto.maxMs`, which stop a row without failing it.
   */
  timeoutMs: number;
  fixture: string;
  /** Suite parameters, e.g. `{ chunkSizes: [1, 10, 100] }`; suites fill in their defaults. */
  params: Record<string, ParamValue>;
  /**
   * Adaptive sampling, the default: instead of a fixed `iterations`, each row takes samples until
   * the 95% interval of its median is within the target, and the run's budget goes to the rows
   * whose interval is widest for what a sample costs. Absent means fixed `iterations` (as in
   * every file written without it).
   */
  auto?: AutoSampling;
  /**
   * With `auto`: the time one browser's run may spend sampling, in ms. Rows always get their
   * first 2 samples, so a plan whose minimum alone is longer overruns it (and says so).
   */
  budgetMs?: number;
  /** Run the whole plan in a dedicated Worker instead of the page's main thread. Absent means main. */
  worker?: boolean;
  /**
   * The noise cures on (cures.ts), where they are not the defaults: `[]` is every cure off.
   * Absent means DEFAULT_CURES; what actually ran is in the environment (`forcedGc`).
   */
  cures?: Cure[];
  /** Only these case ids of the chosen suites (e.g. `bulk`). Absent means every case. */
  cases?: string[];
  /**
   * Only this shard's share of the case groups (src/core/plan/shard.ts), for one plan split over
   * several jobs. Absent means the whole plan. Shards of one plan differ only here.
   */
  shard?: Shard;
  /**
   * The study and part this plan runs for `npm run study` (src/studies/), as `study/part`, so a
   * report can find its rows in any set of files. Absent for every other plan.
   */
  study?: string;
  /**
   * Chromium's DevTools CPU throttling (Emulation.setCPUThrottlingRate) at this rate, for every
   * case: 4 runs the page's thread about 4 times slower. It emulates a slow CPU; it is not a
   * device. Only a driver with the DevTools protocol can apply it; elsewhere every row is
   * unsupported, with the reason. Absent means no throttling.
   */
  cpuThrottle?: number;
  /**
   * B against A in one run (paired.ts): `adapters` is the pair [A, B], which sample as adjacent
   * pairs in balanced order in every pass, and each row's B/A is judged against ±thresholdPct
   * (core/verdicts/change.ts). `detectPct` (--detect): the slowdown a run must be able to catch in
   * two thirds of its rows, else it is undecided. Absent for every other plan.
   */
  ab?: { thresholdPct: number; detectPct?: number };
}

/** The slowest CPU throttling rate a plan may ask for. */
export const MAX_CPU_THROTTLE = 20;

/** A study part's tag: lower-case words joined by '-' or '.', a slash, then the part's. */
export const STUDY_TAG = /^[a-z0-9][a-z0-9.-]{0,39}\/[a-z0-9][a-z0-9-]{0,39}$/;

export interface AutoSampling {
  /**
   * Stop once the 95% interval of the median lies within ± this fraction of the median
   * (0.02 = ±2%; files written before the median's interval existed meant the mean's)...
   */
  targetRelCi: number;
  /** ...but not before this many timed samples (the median has no 95% interval below 6)... */
  minN: number;
  /** ...and never take more than this many. */
  maxN: number;
  /**
   * ...nor keep sampling once the row (case, store, size) has spent this long on its own steps,
   * in ms. The cap wins over minN: a case whose samples are slow stops with fewer and says so.
   */
  maxMs: number;
  /**
   * Passes over the plan: the budget is spent in this many rounds over every case, each row
   * taking samples in each, so its samples come from minutes apart. Absent in files written
   * before passes, which ran one (read it with passesOf).
   */
  passes?: number;
  /**
   * Looks: the pass counts at which the plan's comparisons (A against B, the findings) are
   * decided, evenly spaced, the last after every pass (sequential.plannedLooks). A comparison
   * decided at a look stops its rows. Absent in files written before looks: one, at the end.
   */
  looks?: number;
}

/** The cures a plan runs with: its own, else the defaults. */
export function curesOf(plan: Pick<Plan, 'cures'>): readonly Cure[] {
  return plan.cures ?? DEFAULT_CURES;
}

/** Passes over the plan: adaptive sampling's, or one (fixed sampling, and files without the field). */
export function passesOf(auto: AutoSampling | undefined): number {
  return auto?.passes ?? 1;
}

/** The pass counts a plan's comparisons are decided at; null for one look after every pass (fixed sampling, files without looks). */
export function plannedLooksOf(auto: AutoSampling | undefined): number[] | null {
  const looks = auto?.looks ?? 1;
  return auto && looks > 1 && passesOf(auto) >= 3 ? plannedLooks(passesOf(auto), looks) : null;
}

/** What the plan may name; the registries supply it so this module stays free of imports. */
export interface PlanVocabulary {
  suites: readonly string[];
  adapters: readonly string[];
  fixtures: readonly string[];
  /** The packages each adapter wraps, for variants `ADAPTER@VERSION` and `ADAPTER@file:DIR` (variant.ts); absent: none. */
  wraps?: Readonly<Record<string, Wraps>>;
}

export class PlanError extends Error {
  override readonly name = 'PlanError';
}
