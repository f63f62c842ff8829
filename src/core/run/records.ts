/**
 * The run room (src/core/run/, with sampling/ inside it): executing a plan: the runner
 * (runner.ts), its groups and rows, timed samples, the sampling policy (sampling/),
 * launches, events and the page's collector protocol. The top room: it may import every room
 * below, and none imports it.
 *
 * The records a run's phases share, each owned by one part of it: what the run was given
 * (RunContext, fixed), which passes this launch takes (LaunchPasses, fixed), the rows open and
 * finished (RunRows, growing), and the progress counters (events.ts). A group while it runs
 * is a Group.
 */
import type { StoreAdapter } from '../store/adapter.ts';
import type { Baseline } from '../verdicts/baseline.ts';
import type { Carry, LaunchOrder } from './launch.ts';
import type { StepWatch } from '../base/step-watch.ts';
import type { Suite } from '../store/suite.ts';
import type { CaseIdentity } from '../base/identity.ts';
import type { PlannedGroup } from './plan-groups.ts';
import type { Plan } from '../plan/plan.ts';
import type { CaseResult, RunInfo } from '../results/results.ts';
import type { CarriedRow, Row } from './row.ts';
import type { Progress, RunEvent } from './events.ts';
import type { FootprintProbe, PassProbe, Sampler, SampleTarget } from './timed-sample.ts';
import type { SamplingPolicy } from './sampling/policy.ts';
import type { SampleWatch } from './machine.ts';
import type { LaunchBudget } from '../plan/budget.ts';
import type { Rng } from '../../../fixtures/random.ts';

export interface RunInput {
  plan: Plan;
  /** The suites and adapters the plan names, resolved from the registries by the caller. */
  suites: readonly Suite[];
  adapters: readonly StoreAdapter[];
  runId: string;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Prefix of every database name the run creates. */
  dbPrefix?: string;
  /** Time allowed to delete one database after a sample, in ms. */
  cleanupTimeoutMs?: number;
  /**
   * Awaited before each sample, outside any timed section. The page passes one that yields to
   * the event loop: with a store whose operations resolve at once (memory) the run would
   * otherwise hold the main thread to the end, so Cancel could not be clicked and nothing painted.
   */
  betweenSamples?: () => Promise<void>;
  /** Around `run` in each ok row's measurement pass (see PassProbe). */
  probe?: PassProbe;
  /** In the measurement pass of the rows it applies to (see FootprintProbe). */
  footprint?: FootprintProbe;
  /** The clock's step in ms, for calibration; measured here when not given. */
  timerStepMs?: number;
  /** Sample each row until its change from this baseline is decided (baseline.ts), instead of to the precision target. */
  baseline?: Baseline;
  /**
   * Run only passes `first` to `last` of the plan, within `budgetMs`, going on from the rows an
   * earlier launch carried (launch.ts). Without it, the run takes every pass in this one launch.
   */
  launch?: LaunchOrder;
  /** Told of every step's deadline, for a watchdog on another thread (step-watch.ts). */
  stepWatch?: StepWatch;
  /** Around each timed run, outside its clock: what the machine did during it (machine.ts). */
  sampleWatch?: SampleWatch;
}

export interface RunOutput {
  cases: CaseResult[];
  order: RunInfo['order'];
  cancelled: boolean;
  /** Databases created and not deleted (cleanup failed or hung). Ideally empty. */
  leftover: { adapter: string; name: string }[];
  /** When passes are left after this launch's: its rows, for the launch that takes them. */
  carry?: Carry;
}

/**
 * Whether a store can run here: it can (true); it honestly cannot, and supported() says why (a
 * reason: its rows are `unsupported`); or it failed to load, supported() throwing (its rows are
 * `error`: a broken build must fail a run, never pass as a store this browser lacks).
 */
export type Support = true | string | { failed: string };

/** What a run was given and never changes. */
export interface RunContext {
  readonly input: RunInput;
  readonly plan: Plan;
  readonly emit: (event: RunEvent) => void;
  readonly sampler: Sampler;
  readonly policy: SamplingPolicy;
  /** This launch's budget on its clock: each group's share and its end (plan/budget.ts). */
  readonly budget: LaunchBudget;
  /** Whether each store can run here at all, asked once. */
  readonly support: ReadonlyMap<string, Support>;
}

/** The passes this launch takes, of how many, and the rows an earlier launch carried into it. */
export interface LaunchPasses {
  readonly passes: number;
  readonly first: number;
  readonly last: number;
  /** Rows an earlier launch carried, by carryKey. */
  readonly carried: Map<string, CarriedRow>;
}

/** The rows of a run: those finished, the order their samples ran in, and the groups open now. */
export class RunRows {
  readonly cases: CaseResult[] = [];
  /** The groups opened in this launch's first pass that have rows, by their plan entry. */
  readonly open = new Map<PlannedGroup, Group>();

  constructor(
    readonly order: RunInfo['order'],
    private readonly progress: Progress,
  ) {}

  /** A row is finished: kept, and reported. */
  finish(result: CaseResult): void {
    this.cases.push(result);
    this.progress.rowDone(result);
  }
}

/** One group while it runs. */
export interface Group {
  readonly target: SampleTarget;
  readonly suiteId: string;
  readonly rows: Row[];
  readonly rounds: string[][];
  readonly rng: Rng;
  readonly identity: (adapter: StoreAdapter) => CaseIdentity;
  /** When its current pass started. */
  startedAt: number;
  /** The clock reading its share of the budget in this pass ends at (Infinity with fixed sampling). */
  endsAt: number;
  /** Its weight in the budget in each pass: its rows' minimum samples. */
  readonly weight: number;
  /** Whether its rows were emitted. */
  finished: boolean;
  /** With --ab: whether the pair's next round goes A then B (it alternates; pairing.roundOrder). */
  aFirst: boolean;
}
