/**
 * The records every phase of a sweep shares: one SweepRun for the whole sweep, and a BrowserRun
 * for the browser in flight. Phases read and update these instead of closures over shared lets.
 */
import type { Plan, PlanVocabulary } from '../../core/plan/plan.ts';
import type { Budget } from '../../core/plan/budget.ts';
import type { LaunchOrder } from '../../core/run/launch.ts';
import type { CaseResult, ResultsFile } from '../../core/results/results.ts';
import type { DriverInfo } from '../../core/schema/results-schema.ts';
import type { SizingRecord } from '../../core/verdicts/ab-size.ts';
import type { SweepArgs } from '../args/sweep-flags.ts';
import type { FoundBrowser } from '../drivers/discovery.ts';
import type { DriveHooks } from '../drivers/driver.ts';
import { remoteLabel } from '../drivers/remote.ts';
import type { OutputDir } from '../files/output.ts';
import type { LaunchProgress, ProgressView } from '../terminal/progress.ts';
import type { StorebenchServer } from '../server/page-server.ts';
import type { BrowserSession, RunEnd } from '../server/session.ts';
import type { VariantSource } from '../build/variant-sources.ts';
import type { GitBuild, UserAdapter } from '../build/user-adapters.ts';
import type { SweepStop } from './stop.ts';
import type { CorePlacement } from '../placement/placer.ts';

/** One browser to run: how to reach it. */
export interface Target {
  /** The label before the page names itself; for --manual, 'manual'. */
  id: string;
  /** Null for --manual: the browser is whichever one opens the URL. */
  browser: FoundBrowser | null;
  drive: (
    url: string,
    session: BrowserSession,
    signal: AbortSignal,
    hooks?: DriveHooks,
  ) => Promise<RunEnd>;
}

/** How a browser's run ended, as the report reads it. */
export interface BrowserOutcome {
  browser: string;
  end: RunEnd | { kind: 'not-found'; message: string };
  cases: readonly CaseResult[];
}

/** Why the sweep cannot go on: the exit code, having printed the reason (or, for --help, the usage). */
export interface InputsRefused {
  exit: number;
}

/** What the input check hands on: everything is valid, nothing has started. */
export interface SweepInputs {
  readonly args: SweepArgs;
  readonly plan: Plan;
  /** What a plan may name, as the registries say: adapters and what packages they wrap among it. */
  readonly vocab: PlanVocabulary;
  /** The config's adapters (storebench.config.json), built into the page beside storebench's own. */
  readonly user: readonly UserAdapter[];
  readonly baselineDocs: readonly ResultsFile[];
  readonly targets: readonly Target[];
  /** Browsers asked for and not found: outcomes before anything runs. */
  readonly missing: readonly BrowserOutcome[];
  /** The sweep's budget, made once from the plan and the launches: every share of it is its answer. */
  readonly budget: Budget;
  /** The passes of each launch of a browser the sweep starts (budget.launches of them); a --manual browser takes them all in one. */
  readonly launchPlan: readonly { first: number; last: number }[];
}

export interface SweepRun extends Omit<SweepInputs, 'plan' | 'budget' | 'launchPlan'> {
  /**
   * The plan, the budget and the launches as SweepInputs has them, until --budget auto sizes the
   * run after its first passes (commands/sweep/size.ts): from then on, the passes it was sized to.
   */
  plan: Plan;
  budget: Budget;
  launchPlan: readonly { first: number; last: number }[];
  /** How --budget auto sized the run, once it has (core/verdicts/ab-size.ts); each browser's results record it. */
  sized?: SizingRecord;
  /** The plan's variants built from packages (phase 2, variants.ts), to build into the page. */
  readonly variants: readonly VariantSource[];
  /** The plan's builds of config adapters from git refs (phase 2), their worktrees removed at the end. */
  readonly git: readonly GitBuild[];
  readonly runId: string;
  readonly token: string;
  readonly output: OutputDir;
  readonly stop: SweepStop;
  readonly view: ProgressView;
  readonly outcomes: BrowserOutcome[];
  readonly out: (line?: string) => void;
  readonly fail: (line: string) => void;
  /** The built page's folder, once built or chosen (--page). */
  root: string;
  /** A page built for this sweep alone, removed at its end. */
  privateBuild?: string;
  server?: StorebenchServer;
  /** Where the browsers load the page from. */
  origin: string;
  /** The browser in flight. */
  browser?: BrowserRun;
  /** Budget the browsers whose runs ended used, in ms: the rest of the pool goes to those still open (launches.ts). */
  spentMs: number;
  /** The contract check in flight, before any timing (check.ts). */
  checkSession?: BrowserSession;
  /** Manual labels already told that another browser's results are not recorded. */
  readonly refusedLabels: Set<string>;
  /** Files that could be written neither to --out nor to the fallback folder, each with why. */
  readonly unwritten: string[];
  /** The `core` cure: the placer, why the page shares the CPUs, or null when the cure is off (commands/sweep/place.ts). */
  placement: CorePlacement | string | null;
}

/** One browser's run over its launches. */
export interface BrowserRun {
  readonly target: Target;
  /** When its first launch started (ISO), the run's start in its results. */
  readonly startedAt: string;
  /** The page's URL, with the plan it runs: re-made when --budget auto sizes the run. */
  url: string;
  /** The session of the launch in flight. */
  session: BrowserSession;
  /** The rows the launches before carried, as results rows (row.carriedResult). */
  carried: CaseResult[];
  /** Launches started. */
  launched: number;
  /** Runner warnings seen, of which the first few are shown. */
  warnings: number;
  /** What the page of the launch in flight asks for at GET ?launch= (launch.ts). */
  order: LaunchOrder | undefined;
  /** What the launch in flight waits for before its browser starts (a full grid), or null. */
  waiting: string | null;
  /** The grid nodes its launches ran on, in launch order, where the endpoint names them. */
  readonly nodes: string[];
  readonly across: LaunchProgress;
}

/** --manual labels its browser from the page's own name for itself: manual-firefox, manual-safari. */
function manualLabel(pageLabel: string | null): string {
  // The name arrives over the network and becomes part of a file name, so only a plain word of it is kept.
  const word = (pageLabel ?? '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `manual-${word || 'browser'}`;
}

/** Where the browser ran, for its results: how it was driven, the --remote endpoint, the grid nodes. */
export function driverOf(run: SweepRun, b: BrowserRun): DriverInfo {
  const browser = b.target.browser;
  return {
    kind: browser ? browser.driver : 'manual',
    ...(browser && run.args.remote !== null ? { remote: remoteLabel(run.args.remote) } : {}),
    ...(b.nodes.length > 0 ? { nodes: [...b.nodes] } : {}),
  };
}

/** The browser's name in files and lines: its id, or for --manual the page's own name. */
export function labelOf(b: BrowserRun): string {
  return b.target.browser ? b.target.id : manualLabel(b.session.browser);
}
