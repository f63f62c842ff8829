/**
 * The runner: executes a plan and emits events. It prints nothing, writes no files and touches
 * no DOM; the page, the sweep and the tests subscribe to its events and render in their own way.
 *
 * A run goes group by group (a case at one size, on every store that can run it). With adaptive
 * sampling it goes over the groups in several passes (plan.auto.passes), each with its part of
 * the budget, so each row's samples come from minutes apart: a machine that is slow for a minute
 * slows a share of every row's samples, not all of a few rows', and the row's interval sees it.
 * In each pass a group reads as its phases:
 *   0. stop the rows the run's budget has no time left for, before anything runs for them;
 *   1. fill the shared databases of read-only cases, once per row (a fresh one each pass);
 *   2. warm up; in the first pass, also calibrate how many runs of a fast case body one sample takes;
 *   3. take the pass's minimum samples, in rounds, each round's stores in a seeded random order,
 *      so slow drift of the machine spreads over all stores instead of landing on whichever ran last;
 *   4. with adaptive sampling, give the group's share of the budget to the rows whose median
 *      interval is widest for what a sample costs, until each reaches its target (allocator.ts);
 *   5. in the last pass, the measurement pass: probes that would disturb timed samples run once
 *      more, untimed;
 *   6. close the shared databases; after the last pass, emit the rows.
 * The sweep may spread the passes over browser launches (input.launch, launch.ts): a launch then
 * runs only its passes, going on from the rows the launch before it carried, and hands its rows on.
 * Only the case body is timed (sample.ts). A step that makes no progress within the time limit is
 * a `timeout`; running out of budget or of a row's time cap only stops its sampling.
 */
import type { Doc, StoreAdapter } from './adapter.ts';
import {
  Budget,
  capReason,
  MIN_SAMPLES_ON_TIME_CAP,
  passShareUsed,
  pickRound,
  RESUMED_IN_LATER_PASSES,
  stopReason,
  type RowGauge,
} from './allocator.ts';
import { changeFrom, isDecided, matchBaseline, type Baseline } from './baseline.ts';
import { nextRepeats, sampleTargetMs } from './calibrate.ts';
import { CAPABILITIES, missingCapabilities } from './capabilities.ts';
import { drivenReason } from './driven.ts';
import { CancelledError, errorMessage, TimeoutError } from './errors.ts';
import { passesOf, PlanError, type Plan } from './plan.ts';
import { clipped, quoted } from './shown.ts';
import { createRng, deriveSeed, shuffled, type Rng } from '../../fixtures/random.ts';
import type { CaseIdentity } from './identity.ts';
import type { CaseResult, RunInfo, StopReason } from './results.ts';
import { CARRY_SCHEMA, carryKey, type Carry, type LaunchOrder } from './launch.ts';
import {
  addSample,
  carriedResult,
  carriedRow,
  costPerSample,
  cutShort,
  isSampling,
  knownCost,
  newRow,
  refreshInterval,
  restoreRow,
  rowResult,
  type CarriedRow,
  type Row,
} from './row.ts';
import { passNeed, shareClass, type PassShare } from './share.ts';
import { equalRepeats, pairedPrecision, pairUp, roundOrder, withPartners } from './pairing.ts';
import { Sampler, type FootprintProbe, type PassProbe, type SampleTarget } from './sample.ts';
import { selectShard } from './shard.ts';
import { sharedShift, type LogRatio } from './stats.ts';
import { setStepWatch, type StepWatch } from './step-watch.ts';
import { resolveSuiteParams, type BenchCase, type FixtureSource, type Suite } from './suite.ts';
import { measureTimerStep, now } from './timer.ts';
import { chunks, fixtureShape, makeDocs } from '../../fixtures/index.ts';

export type { FootprintProbe, PassProbe } from './sample.ts';
export { OUTLIER_K } from './stats.ts';

export type RunEvent =
  | { type: 'run-start'; rows: number; samples: number }
  | {
      type: 'group-start';
      suite: string;
      case: string;
      title: string;
      size: number;
      adapters: string[];
      pass: number;
      passes: number;
    }
  | {
      type: 'sample';
      suite: string;
      case: string;
      adapter: string;
      size: number;
      warmup: boolean;
      /** 1-based index of this sample within its kind (warm-up or timed). */
      index: number;
      /** Samples of that kind the row takes: exact with fixed sampling, the minimum with adaptive. */
      of: number;
      ms: number;
      samplesDone: number;
      /** Exact with fixed sampling; with adaptive sampling, an estimate from the time used so far. */
      samplesTotal: number;
      /** Estimated fraction of the run done, 0 to 1. */
      fraction?: number;
    }
  | { type: 'case-end'; result: CaseResult; rowsDone: number; rows: number }
  /**
   * A pass over every group ended with passes left in this launch: the rows as they stand, so a
   * crash or hang later loses at most the pass in flight (the sweep keeps them as a launch's carry).
   */
  | { type: 'pass-end'; carry: Carry }
  | { type: 'warning'; message: string }
  | { type: 'run-end'; cancelled: boolean };

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

interface PlannedGroup {
  suite: Suite;
  c: BenchCase;
  size: number;
}

/**
 * The case groups a plan runs: each chosen suite's cases (only `plan.cases` when given) at each
 * size. Throws PlanError when `plan.cases` names a case none of the chosen suites has, or
 * `plan.params` a parameter none of them takes or a value it does not allow, so a typo fails
 * before anything runs instead of silently running the defaults. The sweep calls it before it
 * starts a browser (src/cli/build/vocabulary.ts), the page before it runs.
 */
export function planGroups(plan: Plan, suites: readonly Suite[]): PlannedGroup[] {
  const declared = new Set(suites.flatMap((s) => Object.keys(s.params ?? {})));
  const unknownParams = Object.keys(plan.params).filter((name) => !declared.has(name));
  if (unknownParams.length > 0) {
    const allowed = suites
      .filter((s) => s.params)
      .map((s) => `${s.id}: ${Object.keys(s.params ?? {}).join(', ')}`);
    throw new PlanError(
      `params: unknown ${clipped(unknownParams.map((n) => quoted(n)).join(', '), 600)} for suites ${suites.map((s) => s.id).join(', ')}; allowed: ${allowed.length > 0 ? allowed.join('; ') : 'none (these suites take no parameters)'}`,
    );
  }
  const all = suites.map((suite) => {
    try {
      return { suite, cases: suite.cases(resolveSuiteParams(suite, plan.params)) };
    } catch (e) {
      throw e instanceof RangeError ? new PlanError(`params: ${e.message}`) : e;
    }
  });
  const wanted = plan.cases;
  if (wanted) {
    const known = new Set(all.flatMap((s) => s.cases.map((c) => c.id)));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new PlanError(
        `cases: unknown ${clipped(unknown.map((id) => quoted(id)).join(', '), 600)} in suites ${suites.map((s) => s.id).join(', ')}; allowed: ${[...known].join(', ')}`,
      );
    }
  }
  return all.flatMap(({ suite, cases }) =>
    cases
      .filter((c) => !wanted || wanted.includes(c.id))
      .flatMap((c) => plan.sizes.map((size) => ({ suite, c, size }))),
  );
}

/** What every phase of a run shares. */
interface Run {
  readonly input: RunInput;
  readonly plan: Plan;
  readonly emit: (event: RunEvent) => void;
  readonly sampler: Sampler;
  readonly budget: Budget;
  readonly support: Map<string, Support>;
  readonly sampleTargetMs: number;
  /** A row's share of the whole run's budget (share.ts): the budget over the rows that run; Infinity without a budget. */
  readonly shareMs: number;
  readonly cases: CaseResult[];
  readonly order: RunInfo['order'];
  /** Passes over the groups: adaptive sampling's, or one. */
  readonly passes: number;
  /** The passes this launch takes (all of them without input.launch). */
  readonly first: number;
  readonly last: number;
  /** Rows an earlier launch carried, by carryKey. */
  readonly carried: Map<string, CarriedRow>;
  /** The groups opened in this launch's first pass that have rows, by their plan entry. */
  readonly open: Map<PlannedGroup, Group>;
  /** With a baseline: the shift the rows share against it (shareBaselineShift). */
  baselineShift: LogRatio | null;
  /** Budget weight of every group in every pass (its runnable rows' minimum samples), and of those done. */
  readonly weightTotal: number;
  weightDone: number;
  rowsTotal: number;
  rowsDone: number;
  samplesDone: number;
  /** Fixed sampling: the exact total, less what failed rows gave back. */
  samplesTotal: number;
}

/** One group while it runs. */
interface Group {
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

export async function runPlan(input: RunInput): Promise<RunOutput> {
  // First, so a plan naming an unknown case fails before any store is asked anything.
  const groups = selectShard(planGroups(input.plan, input.suites), input.plan.shard, (g) => g.size);
  const support = await askSupport(input.adapters);
  const run = startRun(input, groups, support);
  setStepWatch(input.stepWatch ?? null);
  try {
    const cancelled = await runPasses(run, groups);
    // Delete anything a cancelled or wedged sample left behind, and report what could not be.
    await run.sampler.disposeAll();
    run.emit({ type: 'run-end', cancelled });
    const leftover = [...run.sampler.created].map(([name, adapter]) => ({
      adapter: adapter.id,
      name,
    }));
    const carry = !cancelled && run.last < run.passes ? carryOf(run, run.last) : undefined;
    return { cases: run.cases, order: run.order, cancelled, leftover, ...(carry ? { carry } : {}) };
  } finally {
    setStepWatch(null);
  }
}

/** This launch's passes over the groups; whether Cancel cut them short. */
async function runPasses(run: Run, groups: readonly PlannedGroup[]): Promise<boolean> {
  try {
    for (let pass = run.first; pass <= run.last; pass++) {
      for (const planned of groups) await runGroupPass(run, planned, pass);
      // A copy: the rows go on growing, and a listener may keep the event.
      if (pass < run.last && run.open.size > 0)
        run.emit({ type: 'pass-end', carry: structuredClone(carryOf(run, pass)) });
    }
    return false;
  } catch (e) {
    if (!(e instanceof CancelledError)) throw e;
    // Rows of earlier passes keep what they have: a cancelled run loses only the sample in flight.
    for (const group of run.open.values()) if (!group.finished) cancelGroup(run, group);
    endCarriedRows(run);
    return true;
  }
}

/** The open groups' rows and order after `passesDone` passes: for the next launch, or kept against a crash. */
function carryOf(run: Run, passesDone: number): Carry {
  const rows = [...run.open.values()].flatMap((group) =>
    group.rows.map((row) => carriedRow(group.identity(row.adapter), row, group.target.c.series)),
  );
  return { schema: CARRY_SCHEMA, runId: run.input.runId, passesDone, rows, order: run.order };
}

/**
 * Whether a store can run here: it can (true); it honestly cannot, and supported() says why (a
 * reason: its rows are `unsupported`); or it failed to load, supported() throwing (its rows are
 * `error`: a broken build must fail a run, never pass as a store this browser lacks).
 */
type Support = true | string | { failed: string };

/** Whether each adapter can run here at all, asked once. */
async function askSupport(adapters: readonly StoreAdapter[]): Promise<Map<string, Support>> {
  const support = new Map<string, Support>();
  for (const adapter of adapters) {
    try {
      support.set(adapter.id, await adapter.supported());
    } catch (e) {
      support.set(adapter.id, { failed: errorMessage(e) });
    }
  }
  return support;
}

/** The reason of a row whose store failed to load, or null when it loaded. */
function loadFailure(support: Support | undefined): string | null {
  return typeof support === 'object'
    ? `failed to load (supported() threw): ${support.failed}`
    : null;
}

function startRun(
  input: RunInput,
  groups: readonly PlannedGroup[],
  support: Map<string, Support>,
): Run {
  const { plan } = input;
  const emit = (event: RunEvent) => input.onEvent?.(event);
  const runnable = (a: StoreAdapter, c: BenchCase) =>
    c.driven === undefined &&
    support.get(a.id) === true &&
    missingCapabilities(c.needs, a.capabilities).length === 0;
  const runnableRows = groups.reduce(
    (sum, g) => sum + input.adapters.filter((a) => runnable(a, g.c)).length,
    0,
  );
  const passes = passesOf(plan.auto);
  const { first, last, carried } = launchOf(input, passes);
  const here = Array.from({ length: last - first + 1 }, (_, i) => first + i);
  const samplesTotal =
    runnableRows * here.map((pass) => passSamples(plan, pass)).reduce((a, b) => a + b, 0);
  const weightTotal = runnableRows * minimumSamples(plan) * here.length;
  const rowsTotal = groups.length * input.adapters.length;
  emit({ type: 'run-start', rows: rowsTotal, samples: samplesTotal });
  return {
    input,
    plan,
    emit,
    sampler: makeSampler(input, emit),
    budget: plan.auto
      ? new Budget(
          input.launch?.budgetMs ?? plan.budgetMs,
          weightTotal,
          now,
          input.launch?.budgetLeftMs ?? plan.budgetMs,
        )
      : new Budget(undefined, weightTotal, now),
    support,
    sampleTargetMs: sampleTargetMs(input.timerStepMs ?? measureTimerStep()),
    shareMs:
      plan.auto && plan.budgetMs !== undefined && runnableRows > 0
        ? plan.budgetMs / runnableRows
        : Infinity,
    cases: [],
    order: structuredClone(input.launch?.carry?.order ?? []),
    passes,
    first,
    last,
    carried,
    open: new Map(),
    baselineShift: null,
    weightTotal,
    weightDone: 0,
    rowsTotal,
    rowsDone: 0,
    samplesDone: 0,
    samplesTotal,
  };
}

/** The passes this launch takes and the rows it goes on from; PlanError when they do not fit the plan. */
function launchOf(
  input: RunInput,
  passes: number,
): { first: number; last: number; carried: Map<string, CarriedRow> } {
  const { launch } = input;
  if (!launch) return { first: 1, last: passes, carried: new Map() };
  if (!input.plan.auto && launch.last > 1)
    throw new PlanError('only adaptive sampling runs in several launches');
  if (launch.first < 1 || launch.last < launch.first || launch.last > passes)
    throw new PlanError(
      `passes ${launch.first} to ${launch.last} are not within the plan's 1 to ${passes}`,
    );
  if ((launch.carry?.passesDone ?? 0) !== launch.first - 1)
    throw new PlanError(
      `pass ${launch.first} needs the rows of the ${launch.first - 1} passes before it`,
    );
  return {
    first: launch.first,
    last: launch.last,
    carried: new Map((launch.carry?.rows ?? []).map((row) => [carryKey(row), row])),
  };
}

/** The sampler of a run: its databases, its clock, Cancel, and where its warnings go. */
function makeSampler(input: RunInput, emit: (event: RunEvent) => void): Sampler {
  const { signal } = input;
  const cancelled = new Promise<never>((_, reject) => {
    const onAbort = () => reject(new CancelledError('cancelled'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  cancelled.catch(() => {});
  const warned = new Set<string>();
  return new Sampler({
    plan: input.plan,
    runId: input.runId,
    prefix: input.dbPrefix ?? 'storebench',
    cleanupMs: input.cleanupTimeoutMs ?? 15_000,
    fixture: fixtureSource(input.plan),
    signal,
    cancelled,
    warning: (message) => emit({ type: 'warning', message }),
    warnOnce: (what, e) => {
      if (warned.has(what)) return;
      warned.add(what);
      emit({
        type: 'warning',
        message: `${what} failed; its metrics are left out: ${errorMessage(e)}`,
      });
    },
  });
}

/** The plan's documents: its fixture shape and seed. */
function fixtureSource(plan: Plan): FixtureSource {
  const shape = fixtureShape(plan.fixture);
  return {
    shape: shape.id,
    seed: plan.seed,
    indexedFields: shape.indexedFields,
    docs: (count: number, start = 0): Doc[] => makeDocs(shape, plan.seed, count, start),
    chunks: (count: number, chunkSize: number, start = 0) =>
      chunks(shape, plan.seed, count, chunkSize, start),
  };
}

/** One pass of one group: its phases, and after the last pass its rows. */
async function runGroupPass(run: Run, planned: PlannedGroup, pass: number): Promise<void> {
  const group = pass === run.first ? openGroup(run, planned) : run.open.get(planned);
  if (!group) return;
  if (pass > 1) resumeRows(group);
  if (run.input.baseline) shareBaselineShift(run);
  const last = pass === run.passes;
  run.emit({
    type: 'group-start',
    suite: group.suiteId,
    case: planned.c.id,
    title: planned.c.title,
    size: planned.size,
    adapters: group.rows.map((r) => r.adapter.id),
    pass,
    passes: run.passes,
  });
  group.startedAt = now();
  group.endsAt = run.budget.nextGroupEnd(group.weight);
  stopRowsOutOfTime(run, group, pass);
  try {
    await fillSharedDatabases(run, group, last);
    await warmUp(run, group, pass);
    await takeMinimumSamples(run, group, minimumInPass(run.plan, pass), pass);
    // Time left at the end of a launch that is not the run's last goes to the later launches (launch.ts).
    if (run.plan.auto)
      await takeAdditionalSamples(run, group, run.budget.hasLaterShares() || run.last < run.passes);
    if (last) await measurementPass(run, group);
  } finally {
    await closeSharedDatabases(run, group);
  }
  if (last) finishGroup(run, group);
  run.weightDone += group.weight;
}

/** Emit the group's rows (all of them, or those given). */
function finishGroup(run: Run, group: Group, rows: readonly Row[] = group.rows): void {
  group.finished = true;
  for (const row of rows)
    finishRow(run, rowResult(group.identity(row.adapter), row, group.target.c.series));
}

/** After Cancel: each row ends as row.cutShort says, and one with too few samples to keep is left out. */
function cancelGroup(run: Run, group: Group): void {
  const kept = group.rows.filter((row) => {
    const state = cutShort(row);
    if (state) row.state = state;
    return state !== null;
  });
  finishGroup(run, group, kept);
}

/** After Cancel in a later launch: the carried rows of groups it had not opened yet end as carriedResult says. */
function endCarriedRows(run: Run): void {
  const ended = new Set(run.cases.map(carryKey));
  for (const [key, carried] of run.carried) {
    const result = ended.has(key) ? null : carriedResult(carried);
    if (result) finishRow(run, result);
  }
}

/**
 * At the start of a later pass, rows that stopped for their precision or the budget sample
 * again: they take this pass's minimum and are judged on all their samples. Rows at their own
 * caps (max-n, max-ms) and failed rows stay as they are. Every row counts its samples per pass.
 */
function resumeRows(group: Group): void {
  for (const row of group.rows) {
    if (row.state.kind === 'stopped' && RESUMED_IN_LATER_PASSES.has(row.state.why))
      row.state = { kind: 'sampling' };
    row.samplesPerPass.push(0);
  }
}

/** The group's rows: stores that cannot run the case are finished at once as `unsupported`, those that failed to load as `error`. */
function openGroup(run: Run, planned: PlannedGroup): Group | undefined {
  const { suite, c, size } = planned;
  const params = resolveSuiteParams(suite, run.plan.params);
  const identity = (adapter: StoreAdapter): CaseIdentity => ({
    suite: suite.id,
    case: c.id,
    title: c.title,
    adapter: adapter.id,
    size,
    // Only what the case itself uses: rows of runs with other suite-wide values still match.
    params: { ...c.params },
    operations: c.operations(size),
  });
  const rows: Row[] = [];
  for (const adapter of run.input.adapters) {
    const support = run.support.get(adapter.id) ?? 'not checked';
    const failed = loadFailure(support);
    const reason = failed ?? unsupportedReason(support as true | string, c, adapter);
    if (reason === null) rows.push(rowFor(run, adapter, c, identity(adapter)));
    else
      finishRow(run, {
        ...identity(adapter),
        status: failed === null ? 'unsupported' : 'error',
        reason,
        samples: [],
        warmup: [],
      });
  }
  const earlier = run.order.find((o) => o.suite === suite.id && o.case === c.id && o.size === size);
  const rounds: string[][] = earlier?.rounds ?? [];
  // A later launch deals its own orders: the same seed would repeat the first launch's.
  const rng = createRng(
    deriveSeed(
      run.plan.seed,
      `order/${suite.id}/${c.id}/${size}${run.first > 1 ? `/from-pass-${run.first}` : ''}`,
    ),
  );
  const weight = rows.length * minimumSamples(run.plan);
  if (run.plan.ab) pairRows(run, rows, identity);
  const group: Group = {
    target: { c, size, params },
    suiteId: suite.id,
    rows,
    rounds,
    rng,
    identity,
    startedAt: now(),
    endsAt: Infinity,
    weight,
    finished: false,
    aFirst: rng.next() < 0.5,
  };
  if (rows.length === 0) return undefined;
  if (!earlier) run.order.push({ suite: suite.id, case: c.id, size, rounds });
  run.open.set(planned, group);
  return group;
}

/**
 * With --ab the group's two rows sample as a pair (pairing.ts). A row whose other side cannot run
 * the case has nothing to be compared with: it ends unsupported, saying so, instead of sampling alone.
 */
function pairRows(run: Run, rows: Row[], identity: (adapter: StoreAdapter) => CaseIdentity): void {
  if (rows.length === 2) return pairUp(rows);
  for (const row of rows.splice(0)) {
    const other = run.input.adapters.find((a) => a !== row.adapter);
    const otherId = other?.id ?? 'the other store';
    // As when a side fails mid-run (failRow): a side that failed to load fails its partner too.
    const failed = loadFailure(other && run.support.get(other.id));
    finishRow(run, {
      ...identity(row.adapter),
      status: failed === null ? 'unsupported' : 'error',
      reason:
        failed === null
          ? `--ab: ${otherId} cannot run this case, so ${row.adapter.id} has nothing to be compared with`
          : `not compared: the other side of the pair, ${otherId}, ${failed}`,
      samples: row.samples,
      warmup: row.warmup,
    });
  }
}

/** A new row, or the one an earlier launch carried; set to sample against its baseline counterpart where there is one. */
function rowFor(run: Run, adapter: StoreAdapter, c: BenchCase, id: CaseIdentity): Row {
  const carried = run.carried.get(carryKey(id));
  const row = withBaseline(
    carried ? restoreRow(adapter, c, carried) : newRow(adapter, c),
    run.input.baseline,
    id,
  );
  if (carried) refreshInterval(row);
  return row;
}

/** A group's budget weight in each pass: its rows' first-pass minimum samples, warm-up included. */
function minimumSamples(plan: Plan): number {
  return passSamples(plan, 1);
}

/** Timed samples a row takes in a later pass at the least: enough to check it against the earlier ones. */
const LATER_PASS_SAMPLES = 2;

/**
 * Timed samples a row takes in this pass at the least: in the first, the minimum (adaptive) or the
 * count (fixed); in a later one, 2 more, however many the row took in the passes before.
 */
function minimumInPass(plan: Plan, pass: number): number {
  if (pass > 1 || sharedOut(plan)) return LATER_PASS_SAMPLES;
  return plan.auto ? plan.auto.minN : plan.iterations;
}

/**
 * Whether rows take their minimum pass by pass, by what they cost (share.ts): adaptive sampling in
 * 3 passes or more, where a row reaches the samples an interval needs over its passes instead of
 * taking them all in the first (which at 1,000 documents took a Chromium run's first pass past 4 min).
 */
function sharedOut(plan: Plan): boolean {
  return plan.auto !== undefined && passesOf(plan.auto) >= 3;
}

/** Samples a row takes at the least in this pass, warm-up included: the run's progress total. */
function passSamples(plan: Plan, pass: number): number {
  return warmupsIn(plan, pass) + minimumInPass(plan, pass);
}

/** Warm-up samples per row in this pass: the plan's in the first; one in a later pass, for its fresh database and cold caches. */
function warmupsIn(plan: Plan, pass: number): number {
  return pass === 1 ? plan.warmup : Math.min(1, plan.warmup);
}

function unsupportedReason(
  support: true | string,
  c: BenchCase,
  adapter: StoreAdapter,
): string | null {
  if (support !== true) return support;
  const missing = missingCapabilities(c.needs, adapter.capabilities);
  if (missing.length === 0) {
    const own = c.supports?.(adapter) ?? true;
    if (own !== true) return own;
    return c.driven === undefined ? null : drivenReason(c.driven);
  }
  const why = missing.map((m) => adapter.lacks?.[m]).filter(Boolean);
  return `needs ${missing.map((m) => `${m} (${CAPABILITIES[m]})`).join(', ')}, which ${adapter.id} does not declare${why.length > 0 ? `: ${why.join('; ')}` : ''}`;
}

function finishRow(run: Run, result: CaseResult): void {
  run.cases.push(result);
  run.rowsDone++;
  run.emit({ type: 'case-end', result, rowsDone: run.rowsDone, rows: run.rowsTotal });
}

/**
 * Phase 0: a row with samples to keep (phase 3's rule) and too little of the run's budget left
 * for this pass's warm-up and one sample stops as `budget` before anything runs for it. Filled
 * and warmed up only to be stopped in phase 3, such rows had a 60-s Firefox sweep take 2:29 and
 * 1,231 warm-ups for 748 timed samples; it now takes 1:14 and 307 for 759.
 */
function stopRowsOutOfTime(run: Run, group: Group, pass: number): void {
  if (!run.plan.auto) return;
  const runs = warmupsIn(run.plan, pass) + 1;
  for (const row of group.rows.filter(isSampling)) {
    if (shareNeed(run, row, pass) === 0) {
      stopForShare(run, row);
      continue;
    }
    // A costly row's few passes are its share of the budget, set aside for it: a launch whose time
    // went to the groups before it must not take them (views, last in the plan, lost every one).
    if (isCostly(run, row, pass)) continue;
    const gauge = gaugeOf(run, row);
    if (gauge.n >= MIN_SAMPLES_ON_TIME_CAP && outOfTime(run.budget.endsAt(), gauge, runs))
      stopRow(row, 'budget');
  }
}

/**
 * The row's least samples in this pass by its share of the budget (share.ts), or null where
 * share.ts does not decide (fixed sampling, fewer than 3 passes). 0: not a pass it samples in.
 * A pair goes by its costlier side, so both sides sample in the same passes.
 */
function shareNeed(run: Run, row: Row, pass: number): number | null {
  const share = shareOf(run, row, pass);
  if (!share) return null;
  const need = passNeed(share);
  return typeof need === 'string' ? 0 : need.take;
}

/** Whether the row samples fewer passes than every one because of what it costs (share.ts). */
function isCostly(run: Run, row: Row, pass: number): boolean {
  const share = shareOf(run, row, pass);
  return share !== null && shareClass(share) !== 'cheap';
}

function shareOf(run: Run, row: Row, pass: number): PassShare | null {
  const auto = run.plan.auto;
  if (!auto || !sharedOut(run.plan)) return null;
  const costs = [knownCost(row), ...(row.pair ? [knownCost(row.pair.other)] : [])].filter(
    (c): c is number => c !== null,
  );
  const live = costs.length > 0 ? Math.max(...costs) : null;
  // Settled after the row's first pass: a cost near the line flipped a row between cheap and costly
  // from pass to pass, and a costly row that had skipped passes then lost its set-aside ones as a
  // cheap row out of time (Firefox, 2026-11-25: pouchdb-indexeddb ref-startkey ended at 3 samples).
  if (pass > 1 && row.settledCostMs === undefined && live !== null) row.settledCostMs = live;
  return {
    passes: run.passes,
    pass,
    minN: auto.minN,
    n: row.samples.length,
    costMs: pass > 1 && row.settledCostMs !== undefined ? row.settledCostMs : live,
    shareMs: run.shareMs,
  };
}

/** A costly row stops for now, and records what a sample costs against its share (share.ts). */
function stopForShare(run: Run, row: Row): void {
  const cost = row.settledCostMs ?? knownCost(row);
  if (cost !== null && Number.isFinite(run.shareMs))
    row.share = { sampleMs: cost, shareMs: run.shareMs };
  stopRow(row, 'share');
}

/**
 * Phase 1: each read-only row fills one database, which all its samples in the pass then read. In
 * the last pass, a row that stopped sampling earlier gets one too when the measurement pass will
 * run on it.
 */
async function fillSharedDatabases(run: Run, group: Group, last: boolean): Promise<void> {
  const measured = last && measuresGroup(run, group);
  for (const row of shuffled(group.rows, group.rng)) {
    const wanted =
      isSampling(row) || (measured && row.state.kind === 'stopped' && row.samples.length > 0);
    if (row.db !== 'shared' || !wanted) continue;
    await beforeSample(run);
    try {
      row.shared = await run.sampler.openShared(row, group.target);
    } catch (e) {
      failRow(run, row, e, 'filling its shared database', false);
    }
  }
}

/**
 * Phase 2: the warm-up rounds, then, in the first pass, calibration. A shared row whose fastest
 * warm-up run, times its count, spans fewer timer steps than a sample should repeats its body, and
 * takes warm-up samples at the new count until it reaches the target and its runs stop getting
 * faster (up to 8 tries: a body's first runs are slower while the engine compiles it).
 */
async function warmUp(run: Run, group: Group, pass: number): Promise<void> {
  const fastest = new Map<Row, number>(); // ms per run
  const settled = new Set<Row>();
  const note = (row: Row, ms: number) => {
    const before = fastest.get(row) ?? Infinity;
    // A body still getting faster (a JIT tiering up) would leave later samples short of the target.
    if (ms > before * 0.9) settled.add(row);
    else settled.delete(row);
    fastest.set(row, Math.min(before, ms));
  };
  for (let r = 0; r < warmupsIn(run.plan, pass); r++)
    await round(run, group, group.rows.filter(isSampling), true, note);
  if (run.plan.warmup === 0 || pass > 1) return;
  try {
    for (let tries = 0; tries < 8; tries++) {
      const pending = group.rows.filter(
        (row) =>
          isSampling(row) &&
          row.db === 'shared' &&
          ((fastest.get(row) ?? Infinity) * row.repeats < run.sampleTargetMs ||
            (row.repeats > 1 && !settled.has(row))),
      );
      if (pending.length === 0) return;
      for (const row of pending)
        row.repeats = nextRepeats(row.repeats, fastest.get(row) ?? 0, run.sampleTargetMs);
      run.samplesTotal += pending.length;
      await round(run, group, pending, true, note);
    }
  } finally {
    for (const row of group.rows) equalRepeats(row);
  }
}

/**
 * Phase 3: rounds until every row has taken `want` samples in this pass: the pass's minimum
 * (adaptive) or its count (fixed). An adaptive row with 2 samples stops early when it reaches a
 * cap of its own, or one more sample would pass the end of the budget; its precision does not
 * stop it here.
 */
async function takeMinimumSamples(
  run: Run,
  group: Group,
  want: number,
  pass: number,
): Promise<void> {
  const auto = run.plan.auto;
  const inPass = (row: Row) => row.samplesPerPass.at(-1) ?? 0;
  // Decided once the warm-up told what a sample costs: a costly row's least in this pass (share.ts).
  const wants = new Map(group.rows.map((row) => [row, shareNeed(run, row, pass) ?? want]));
  const wantOf = (row: Row) => wants.get(row) ?? want;
  const costly = (row: Row) => isCostly(run, row, pass);
  for (;;) {
    for (const row of group.rows.filter(isSampling)) {
      if (!auto) {
        if (inPass(row) >= want) stopRow(row, 'iterations');
        continue;
      }
      // A costly row that has its least in this pass takes no more: the time is the other rows'.
      if (costly(row) && inPass(row) >= wantOf(row)) {
        stopForShare(run, row);
        continue;
      }
      const gauge = gaugeOf(run, row);
      // Bounded by the whole budget, not the group's share: a row without its minimum has no interval.
      // A costly row takes its least in its pass whatever is left: that is its share (phase 0).
      const why =
        gauge.n >= MIN_SAMPLES_ON_TIME_CAP
          ? (capReason(gauge, auto) ??
            (costly(row) ? undefined : outOfTime(run.budget.endsAt(), gauge)))
          : undefined;
      if (why) stopRow(row, why);
    }
    const short = group.rows.filter((row) => isSampling(row) && inPass(row) < wantOf(row));
    if (short.length === 0) return;
    await round(run, group, short, false);
  }
}

/**
 * Phase 4 (adaptive): rounds of one sample each to the rows the allocator picks, until every row
 * has stopped: at its target, its maximum, its time cap, or the end of the group's share of the
 * budget in this pass. Rows that had their share of the pass (allocator.passShareUsed) sample
 * only while no other row does; once they are all that is left they stop as `budget`, and the
 * time flows on to the later groups, unless none is left to use it (`timeFlowsOn` false).
 */
async function takeAdditionalSamples(run: Run, group: Group, timeFlowsOn: boolean): Promise<void> {
  const auto = run.plan.auto;
  if (!auto) return;
  const judge = (row: Row): RowGauge | undefined => {
    const gauge = gaugeOf(run, row);
    const why = stopReason(gauge, auto) ?? outOfTime(group.endsAt, gauge);
    if (why) stopRow(row, why);
    return why ? undefined : gauge;
  };
  for (;;) {
    const gauges = new Map<RowGauge, Row>();
    for (const row of group.rows.filter(isSampling)) {
      const gauge = judge(row);
      if (gauge) gauges.set(gauge, row);
    }
    if (
      timeFlowsOn &&
      gauges.size > 0 &&
      [...gauges.keys()].every((g) => g.passShareUsed === true)
    ) {
      for (const row of gauges.values()) stopRow(row, 'budget');
      return;
    }
    const picked = withPartners(pickRound([...gauges.keys()]).map((g) => gauges.get(g) as Row));
    if (picked.length === 0) return;
    if (picked[0]?.pair) {
      await round(run, group, picked.filter(isSampling), false);
      continue;
    }
    group.rounds.push(picked.map((row) => row.adapter.id));
    for (const row of picked) {
      // The round's earlier samples may have used up the group's share.
      if (isSampling(row) && judge(row)) await sampleOnce(run, group, row, false);
    }
  }
}

/**
 * Phase 5: measurements that would disturb timed samples (a probe that makes the page render
 * every frame, a heap measurement that forces a garbage collection) run once per ok row, untimed.
 */
async function measurementPass(run: Run, group: Group): Promise<void> {
  if (!measuresGroup(run, group)) return;
  const { probe, footprint } = run.input;
  const pass = {
    probe,
    footprint: footprint?.appliesTo(group.suiteId, group.target.c.id) ? footprint : undefined,
  };
  for (const row of group.rows) {
    if (row.state.kind === 'failed' || row.samples.length === 0) continue;
    await beforeSample(run);
    try {
      const measured = await run.sampler.take(row, group.target, -1, 1, pass);
      if (measured.blocking && Object.keys(measured.blocking).length > 0)
        row.blocking = measured.blocking;
      if (measured.footprint && Object.keys(measured.footprint).length > 0)
        row.footprint = measured.footprint;
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      // The samples are good; a store that fails only when measured loses only the measurement.
      run.emit({
        type: 'warning',
        message: `the measurement pass (${row.adapter.id}, ${group.target.c.id}) failed; its metrics are left out: ${errorMessage(e)}`,
      });
    }
  }
}

/** Whether the measurement pass has anything to measure in the group. */
function measuresGroup(run: Run, group: Group): boolean {
  return (
    run.input.probe !== undefined ||
    run.input.footprint?.appliesTo(group.suiteId, group.target.c.id) === true
  );
}

/** Phase 6: tear down and delete the shared databases, also after a failure or Cancel. */
async function closeSharedDatabases(run: Run, group: Group): Promise<void> {
  for (const row of group.rows) {
    const db = row.shared;
    if (!db) continue;
    row.shared = undefined;
    await run.sampler.closeShared(row, group.target, db, run.input.signal?.aborted === true);
  }
}

/** One round: each of `rows` takes a sample, in a seeded random order that is recorded (none for no rows). */
async function round(
  run: Run,
  group: Group,
  rows: readonly Row[],
  warmup: boolean,
  onSample?: (row: Row, ms: number) => void,
): Promise<void> {
  if (rows.length === 0) return;
  const order = roundOrder(rows, group.aFirst, (rs) => shuffled(rs, group.rng));
  if (order[0]?.pair) group.aFirst = !group.aFirst;
  group.rounds.push(order.map((r) => r.adapter.id));
  for (const row of order) {
    if (!isSampling(row)) continue;
    const ms = await sampleOnce(run, group, row, warmup);
    if (ms !== undefined) onSample?.(row, ms);
  }
}

/** Take one sample of the row and record it; a failure ends the row. Returns the sample's ms. */
async function sampleOnce(
  run: Run,
  group: Group,
  row: Row,
  warmup: boolean,
): Promise<number | undefined> {
  await beforeSample(run);
  const index = warmup ? row.warmup.length + 1 : row.samples.length + 1;
  try {
    const sample = await run.sampler.take(
      row,
      group.target,
      warmup ? `w${index}` : index,
      row.repeats,
    );
    if (warmup) {
      row.warmup.push(sample.ms);
      row.warmupWallMs += sample.wallMs;
    } else {
      addSample(row, sample.ms, sample.metrics, sample.points);
      row.sampleWallMs += sample.wallMs;
      keepAboveTarget(run, row, sample.ms);
    }
    emitSample(run, group, row, warmup, index, sample.ms);
    return sample.ms;
  } catch (e) {
    if (e instanceof CancelledError) throw e;
    run.samplesDone++;
    failRow(run, row, e, `${warmup ? 'warm-up ' : ''}sample ${index}`, true);
    return undefined;
  }
}

/**
 * A shared row whose runs got quicker after calibration (a JIT tier, a warm cache, a machine that
 * was busy during warm-up) takes more repeats from its next sample on, as soon as one sample falls
 * short of the target: calibration aims 25% past it, so that takes runs over 20% quicker, and no
 * later sample spans fewer steps than the target asks. Samples stay per run, so the change does
 * not move the numbers, only their quantisation.
 */
function keepAboveTarget(run: Run, row: Row, perRunMs: number): void {
  if (row.db !== 'shared' || perRunMs * row.repeats >= run.sampleTargetMs) return;
  row.repeats = nextRepeats(row.repeats, perRunMs, run.sampleTargetMs);
  equalRepeats(row);
}

async function beforeSample(run: Run): Promise<void> {
  if (run.input.betweenSamples) await run.input.betweenSamples();
  if (run.input.signal?.aborted) throw new CancelledError('cancelled');
}

function emitSample(
  run: Run,
  group: Group,
  row: Row,
  warmup: boolean,
  index: number,
  ms: number,
): void {
  const { plan } = run;
  run.samplesDone++;
  // With a budget, progress is time: the share of the run the budget says is done. Without one
  // (fixed sampling) the total count is known.
  const fraction =
    run.budget.totalMs === undefined
      ? undefined
      : run.budget.fraction(run.weightDone + group.weight * groupShareDone(group), run.weightTotal);
  const total =
    fraction === undefined
      ? run.samplesTotal
      : Math.round(run.samplesDone / Math.max(fraction, 0.001));
  run.emit({
    type: 'sample',
    suite: group.suiteId,
    case: group.target.c.id,
    adapter: row.adapter.id,
    size: group.target.size,
    warmup,
    index,
    of: warmup ? plan.warmup : plan.auto ? plan.auto.minN : plan.iterations,
    ms,
    samplesDone: run.samplesDone,
    samplesTotal: Math.max(run.samplesDone, total),
    ...(fraction === undefined ? {} : { fraction }),
  });
}

/** How much of its share of the budget the group has used, 0 to 0.99. */
function groupShareDone(group: Group): number {
  if (!Number.isFinite(group.endsAt)) return 0;
  return Math.min(0.99, (now() - group.startedAt) / Math.max(1, group.endsAt - group.startedAt));
}

function stopRow(row: Row, why: StopReason): void {
  row.state = { kind: 'stopped', why };
  // A pair stops together: no step may leave one side sampling alone.
  const other = row.pair?.other;
  if (other && isSampling(other)) other.state = { kind: 'stopped', why };
}

/**
 * A step that failed ends the row with its samples kept. A step cut off at the time limit made
 * no progress within it: `timeout`. Fixed sampling gives its unused samples back to the total.
 */
function failRow(run: Run, row: Row, e: unknown, during: string, inSample: boolean): void {
  const taken = `after ${row.samples.length} timed samples`;
  row.state =
    e instanceof TimeoutError
      ? {
          kind: 'failed',
          status: 'timeout',
          reason: `${during} made no progress within the ${run.plan.timeoutMs} ms limit of one step (${taken}): ${e.message}`,
        }
      : { kind: 'failed', status: 'error', reason: `${errorMessage(e)} (${during}, ${taken})` };
  if (!run.plan.auto)
    run.samplesTotal -= Math.max(
      0,
      run.plan.warmup +
        run.plan.iterations -
        row.warmup.length -
        row.samples.length -
        (inSample ? 1 : 0),
    );
  const other = row.pair?.other;
  if (other && other.state.kind !== 'failed')
    other.state = {
      kind: 'failed',
      status: 'error',
      reason: `not compared: the other side of the pair, ${row.adapter.id}, failed (${row.state.reason})`,
    };
}

function gaugeOf(run: Run, row: Row): RowGauge {
  return {
    n: row.samples.length,
    precision: pairedPrecision(row),
    costMs: costPerSample(row),
    spentMs: row.spentMs,
    passShareUsed: passShareUsed(
      row.samplesPerPass,
      row.passBound,
      run.plan.auto?.maxN,
      run.passes,
    ),
    ...(row.baseline ? { decided: isDecided(row.baseline, run.baselineShift) } : {}),
  };
}

/**
 * The shift the open groups' rows share against the baseline, taken again as each group starts a
 * pass (it moves slowly); rows are decided net of it (gaugeOf). Rows with an interval count, with
 * all their samples so far; below stats.RUN_TO_RUN_MIN_ROWS of them there is none yet, and rows
 * are decided on their raw change.
 */
function shareBaselineShift(run: Run): void {
  const changes = [...run.open.values()].flatMap((g) =>
    g.rows.flatMap((row) =>
      row.baseline?.now ? (changeFrom(row.baseline.row, row.baseline.now) ?? []) : [],
    ),
  );
  run.baselineShift = sharedShift(changes);
}

/** The row, set to sample against its baseline counterpart when the run has a baseline and the case is in it. */
function withBaseline(row: Row, baseline: Baseline | undefined, id: CaseIdentity): Row {
  const match = baseline ? matchBaseline(baseline.rows, id) : undefined;
  if (baseline && match) row.baseline = { row: match, thresholdPct: baseline.thresholdPct };
  return row;
}

/** `budget` when `runs` more runs of the row (a sample, or a warm-up and a sample) would end past `endsAt`. */
function outOfTime(endsAt: number, gauge: RowGauge, runs = 1): StopReason | undefined {
  return now() + gauge.costMs * runs > endsAt ? 'budget' : undefined;
}
