/**
 * The runner: executes a plan and emits events. It prints nothing, writes no files and touches
 * no DOM; the page, the sweep and the tests subscribe to its events and render in their own way.
 *
 * A run goes group by group (a case at one size, on every store that can run it), over the groups
 * in several passes (plan.auto.passes), so each row's samples come from minutes apart: a machine
 * that is slow for a minute slows a share of every row's samples, not all of a few rows', and the
 * row's interval sees it. In each pass a group reads as its phases:
 *   0. stop the rows the run's budget has no time left for, before anything runs for them;
 *   1. fill the shared databases of read-only cases, once per row (a fresh one each pass);
 *   2. warm up; in the first pass, also calibrate how many runs of a fast case body one sample takes;
 *   3. take the pass's minimum samples, in rounds, each round's stores in a seeded random order,
 *      so slow drift of the machine spreads over all stores instead of landing on whichever ran last;
 *   4. with adaptive sampling, give the group's share of the budget to the rows the sampling
 *      policy picks, until each has enough (sampling/);
 *   5. in the last pass, the measurement pass: probes that would disturb timed samples run once
 *      more, untimed;
 *   6. close the shared databases; after the last pass, emit the rows.
 * How many samples each row takes, and when it stops, is the sampling policy's (sampling/policy.ts).
 * The sweep may spread the passes over browser launches (input.launch, launch.ts): a launch then
 * runs only its passes, going on from the rows the launch before it carried, and hands its rows on.
 * Only the case body is timed (timed-sample.ts). A step that makes no progress within the time limit is
 * a `timeout`; running out of budget or of a row's time cap only stops its sampling.
 */
import type { Doc, StoreAdapter } from '../store/adapter.ts';
import { CancelledError, errorMessage, TimeoutError } from '../base/errors.ts';
import { CARRY_SCHEMA, carryKey, type Carry } from './launch.ts';
import { planGroups, type PlannedGroup } from './plan-groups.ts';
import { curesOf, passesOf, PlanError, type Plan } from '../plan/plan.ts';
import { addSample, carriedRow, failRow, isSampling, type CarriedRow, type Row } from './row.ts';
import { Progress, type RunEvent } from './events.ts';
import { cancelGroup, endCarriedRows, finishGroup, openGroup } from './groups.ts';
import {
  RunRows,
  type Group,
  type LaunchPasses,
  type RunContext,
  type RunInput,
  type RunOutput,
  type Support,
} from './records.ts';
import { Sampler } from './timed-sample.ts';
import { BATCH_TARGET_MS, sampleTargetMs } from './sampling/repeats.ts';
import { equalRepeats, roundOrder } from './sampling/pairing.ts';
import { passSamples, rowWeight } from './sampling/passes.ts';
import { isLook, settleAtLook } from './sampling/looks.ts';
import { SamplingPolicy } from './sampling/policy.ts';
import { selectShard } from '../plan/shard.ts';
import { Budget } from '../plan/budget.ts';
import { setStepWatch } from '../base/step-watch.ts';
import type { FixtureSource } from '../store/suite.ts';
import { measureTimerStep, now } from '../base/timer.ts';
import { missingCapabilities } from '../store/capabilities.ts';
import { chunks, fixtureShape, makeDocs } from '../../../fixtures/index.ts';
import { shuffled } from '../../../fixtures/random.ts';

export type { FootprintProbe, PassProbe } from './timed-sample.ts';
export type { RunEvent } from './events.ts';
export type { RunInput, RunOutput } from './records.ts';
export { planGroups } from './plan-groups.ts';
export { OUTLIER_K } from '../stats/stats.ts';

/** A run: its fixed parts, this launch's passes, its rows, its progress, and the pass it ends at. */
interface Run {
  readonly ctx: RunContext;
  readonly launch: LaunchPasses;
  readonly rows: RunRows;
  readonly progress: Progress;
  /** The run's last pass: the plan's, or the one after a planned look that left nothing to sample. */
  readonly ends: { atPass: number };
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
    await run.ctx.sampler.disposeAll();
    run.ctx.emit({ type: 'run-end', cancelled });
    const leftover = [...run.ctx.sampler.created].map(([name, adapter]) => ({
      adapter: adapter.id,
      name,
    }));
    const { last } = run.launch;
    const carry = !cancelled && last < run.ends.atPass ? carryOf(run, last) : undefined;
    const { cases, order } = run.rows;
    return { cases, order, cancelled, leftover, ...(carry ? { carry } : {}) };
  } finally {
    setStepWatch(null);
  }
}

/** This launch's passes over the groups; whether Cancel cut them short. */
async function runPasses(run: Run, groups: readonly PlannedGroup[]): Promise<boolean> {
  try {
    for (let pass = run.launch.first; pass <= lastHere(run); pass++) {
      for (const planned of groups) await runGroupPass(run, planned, pass);
      await run.ctx.sampler.closePool();
      lookAfter(run, pass);
      // A copy: the rows go on growing, and a listener may keep the event.
      if (pass < lastHere(run) && run.rows.open.size > 0)
        run.ctx.emit({ type: 'pass-end', carry: structuredClone(carryOf(run, pass)) });
    }
    return false;
  } catch (e) {
    if (!(e instanceof CancelledError)) throw e;
    // Rows of earlier passes keep what they have: a cancelled run loses only the sample in flight.
    for (const group of run.rows.open.values()) if (!group.finished) cancelGroup(run.rows, group);
    endCarriedRows(run.rows, run.launch);
    return true;
  }
}

/** The last pass this launch takes: its own, or the run's when a look ended the run early. */
function lastHere(run: Run): number {
  return run.ends.atPass < run.launch.passes ? run.ends.atPass : run.launch.last;
}

/**
 * After a pass the plan looks at: the rows whose comparisons are all decided settle
 * (sampling/looks.ts); when no row is left to sample, the next pass is the run's last, which
 * only measures and finishes the rows, and no later launch is needed.
 */
function lookAfter(run: Run, pass: number): void {
  const { plan } = run.ctx;
  if (!isLook(plan, pass, run.ends.atPass)) return;
  const rows = [...run.rows.open.values()].flatMap((g) =>
    g.rows.map((row) => ({ id: g.identity(row.adapter), row })),
  );
  if (settleAtLook(plan, rows) === 0) run.ends.atPass = pass + 1;
}

/** The open groups' rows and order after `passesDone` passes: for the next launch, or kept against a crash. */
function carryOf(run: Run, passesDone: number): Carry {
  const rows = [...run.rows.open.values()].flatMap((group) =>
    group.rows.map((row) => carriedRow(group.identity(row.adapter), row, group.target.c.series)),
  );
  const { runId } = run.ctx.input;
  return { schema: CARRY_SCHEMA, runId, passesDone, rows, order: run.rows.order };
}

/** Whether each adapter can run here at all, asked once; a store whose supported() threw failed to load. */
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

function startRun(
  input: RunInput,
  groups: readonly PlannedGroup[],
  support: Map<string, Support>,
): Run {
  const { plan } = input;
  const emit = (event: RunEvent) => input.onEvent?.(event);
  const runnable = (a: StoreAdapter, g: PlannedGroup) =>
    g.c.driven === undefined &&
    support.get(a.id) === true &&
    missingCapabilities(g.c.needs, a.capabilities).length === 0;
  const runnableRows = groups.reduce(
    (sum, g) => sum + input.adapters.filter((a) => runnable(a, g)).length,
    0,
  );
  const launch = launchOf(input, passesOf(plan.auto));
  const here = Array.from({ length: launch.last - launch.first + 1 }, (_, i) => launch.first + i);
  const samplesTotal = runnableRows * here.reduce((sum, pass) => sum + passSamples(plan, pass), 0);
  const weightTotal = runnableRows * rowWeight(plan) * here.length;
  const whole = new Budget(plan);
  const budget = whole.inLaunch(input.launch, weightTotal, now);
  const policy = new SamplingPolicy({
    plan,
    passes: launch.passes,
    budget,
    shareMs: whole.rowMs(runnableRows),
    sampleTargetMs: sampleTargetMs(input.timerStepMs ?? measureTimerStep()),
    ...(curesOf(plan).includes('batch') ? { batchTargetMs: BATCH_TARGET_MS } : {}),
    ...(input.baseline ? { baseline: input.baseline } : {}),
  });
  const sampler = makeSampler(input, emit);
  const ctx: RunContext = { input, plan, emit, sampler, policy, budget, support };
  const rowsTotal = groups.length * input.adapters.length;
  const progress = new Progress(emit, budget, rowsTotal, samplesTotal, weightTotal);
  const rows = new RunRows(structuredClone(input.launch?.carry?.order ?? []), progress);
  return { ctx, launch, rows, progress, ends: { atPass: launch.passes } };
}

/** The passes this launch takes and the rows it goes on from; PlanError when they do not fit the plan. */
function launchOf(input: RunInput, passes: number): LaunchPasses {
  const { launch } = input;
  if (!launch) return { passes, first: 1, last: passes, carried: new Map() };
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
  const carried = new Map<string, CarriedRow>(
    (launch.carry?.rows ?? []).map((row) => [carryKey(row), row]),
  );
  return { passes, first: launch.first, last: launch.last, carried };
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
    ...(input.sampleWatch ? { sampleWatch: input.sampleWatch } : {}),
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
  const { ctx, launch, rows } = run;
  const group =
    pass === launch.first ? openGroup(ctx, launch, rows, planned) : rows.open.get(planned);
  if (!group) return;
  if (pass > 1) ctx.policy.resumeRows(group.rows);
  ctx.policy.shareBaselineShift([...rows.open.values()].flatMap((g) => g.rows));
  const last = pass === run.ends.atPass;
  ctx.emit({
    type: 'group-start',
    suite: group.suiteId,
    case: planned.c.id,
    title: planned.c.title,
    size: planned.size,
    adapters: group.rows.map((r) => r.adapter.id),
    pass,
    passes: run.ends.atPass,
  });
  group.startedAt = now();
  group.endsAt = ctx.budget.nextGroupEnd(group.weight);
  ctx.policy.stopBeforePass(group.rows, pass);
  try {
    await fillSharedDatabases(run, group, last);
    await warmUp(run, group, pass);
    await takeMinimumSamples(run, group, pass);
    // Time left at the end of a launch that is not the run's last goes to the later launches (launch.ts).
    if (ctx.plan.auto)
      await takeAdditionalSamples(
        run,
        group,
        ctx.budget.hasLaterShares() || launch.last < run.ends.atPass,
      );
    if (last) await measurementPass(run, group);
  } finally {
    await closeSharedDatabases(run, group);
  }
  if (last) finishGroup(rows, group);
  run.progress.weightDone += group.weight;
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
      row.shared = await run.ctx.sampler.openShared(row, group.target);
    } catch (e) {
      failed(run, row, e, 'filling its shared database', false);
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
  const { policy, plan } = run.ctx;
  const fastest = new Map<Row, number>(); // ms per run
  const settled = new Set<Row>();
  const note = (row: Row, ms: number) => {
    const before = fastest.get(row) ?? Infinity;
    // A body still getting faster (a JIT tiering up) would leave later samples short of the target.
    if (ms > before * 0.9) settled.add(row);
    else settled.delete(row);
    fastest.set(row, Math.min(before, ms));
  };
  for (let r = 0; r < policy.warmups(pass); r++)
    await round(run, group, policy.warmupRows(group.rows, pass), true, note);
  if (plan.warmup === 0 || pass > 1) return;
  try {
    for (let tries = 0; tries < 8; tries++) {
      const pending = policy.calibrate(group.rows, fastest, settled);
      if (pending.length === 0) return;
      run.progress.addSamples(pending.length);
      await round(run, group, pending, true, note);
    }
  } finally {
    for (const row of group.rows) equalRepeats(row);
  }
}

/**
 * Phase 3: rounds until every row has taken its least samples in this pass, as the policy sets
 * them, unless the policy stops it first (its own cap, or the end of the whole budget).
 */
async function takeMinimumSamples(run: Run, group: Group, pass: number): Promise<void> {
  const { policy } = run.ctx;
  const inPass = (row: Row) => row.samplesPerPass.at(-1) ?? 0;
  const wants = policy.minimums(group.rows, pass);
  const want = (row: Row) => wants.get(row) ?? 0;
  for (;;) {
    for (const row of group.rows.filter(isSampling))
      policy.judgeMinimum(row, pass, inPass(row), want(row));
    const short = group.rows.filter((row) => isSampling(row) && inPass(row) < want(row));
    if (short.length === 0) return;
    await round(run, group, short, false);
  }
}

/**
 * Phase 4 (adaptive): rounds of one sample each to the rows the policy picks, until none is left:
 * each has stopped at its target, its maximum, its time cap, or the end of the group's share of
 * the budget in this pass.
 */
async function takeAdditionalSamples(run: Run, group: Group, timeFlowsOn: boolean): Promise<void> {
  const { policy } = run.ctx;
  for (;;) {
    const picked = policy.nextRound(group, timeFlowsOn);
    if (picked.length === 0) return;
    if (picked[0]?.pair) {
      // Two rounds, AB then BA (pairing.roundOrder): a pair's samples in a pass stay balanced in
      // order, so a side that gains from going second gains as often as the other.
      for (let i = 0; i < 2; i++) await round(run, group, picked.filter(isSampling), false);
      continue;
    }
    group.rounds.push(picked.map((row) => row.adapter.id));
    for (const row of picked)
      if (policy.mayTake(row, group)) await sampleOnce(run, group, row, false);
  }
}

/**
 * Phase 5: measurements that would disturb timed samples (a probe that makes the page render
 * every frame, a heap measurement that forces a garbage collection) run once per ok row, untimed.
 */
async function measurementPass(run: Run, group: Group): Promise<void> {
  if (!measuresGroup(run, group)) return;
  const { probe, footprint } = run.ctx.input;
  const pass = {
    probe,
    footprint: footprint?.appliesTo(group.suiteId, group.target.c.id) ? footprint : undefined,
  };
  for (const row of group.rows) {
    if (row.state.kind === 'failed' || row.samples.length === 0) continue;
    await beforeSample(run);
    try {
      const measured = await run.ctx.sampler.take(row, group.target, -1, 1, pass);
      if (measured.blocking && Object.keys(measured.blocking).length > 0)
        row.blocking = measured.blocking;
      if (measured.footprint && Object.keys(measured.footprint).length > 0)
        row.footprint = measured.footprint;
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      // The samples are good; a store that fails only when measured loses only the measurement.
      run.ctx.emit({
        type: 'warning',
        message: `the measurement pass (${row.adapter.id}, ${group.target.c.id}) failed; its metrics are left out: ${errorMessage(e)}`,
      });
    }
  }
}

/** Whether the measurement pass has anything to measure in the group. */
function measuresGroup(run: Run, group: Group): boolean {
  const { probe, footprint } = run.ctx.input;
  return probe !== undefined || footprint?.appliesTo(group.suiteId, group.target.c.id) === true;
}

/** Phase 6: tear down and delete the shared databases, also after a failure or Cancel. */
async function closeSharedDatabases(run: Run, group: Group): Promise<void> {
  for (const row of group.rows) {
    const db = row.shared;
    if (!db) continue;
    row.shared = undefined;
    const aborted = run.ctx.input.signal?.aborted === true;
    await run.ctx.sampler.closeShared(row, group.target, db, aborted);
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
    const sample = await run.ctx.sampler.take(
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
      run.ctx.policy.keepAboveTarget(row, sample.ms);
    }
    const { plan } = run.ctx;
    const of = warmup ? plan.warmup : plan.auto ? plan.auto.minN : plan.iterations;
    const at = {
      suite: group.suiteId,
      case: group.target.c.id,
      adapter: row.adapter.id,
      size: group.target.size,
    };
    run.progress.sampleDone(group, { at, warmup, index, of, ms: sample.ms });
    return sample.ms;
  } catch (e) {
    if (e instanceof CancelledError) throw e;
    run.progress.sampleDone(group);
    failed(run, row, e, `${warmup ? 'warm-up ' : ''}sample ${index}`, true);
    return undefined;
  }
}

async function beforeSample(run: Run): Promise<void> {
  const { betweenSamples, signal } = run.ctx.input;
  if (betweenSamples) await betweenSamples();
  if (signal?.aborted) throw new CancelledError('cancelled');
}

/**
 * A step that failed ends the row with its samples kept. A step cut off at the time limit made
 * no progress within it: `timeout`. Fixed sampling gives its unused samples back to the total.
 */
function failed(run: Run, row: Row, e: unknown, during: string, inSample: boolean): void {
  const { plan } = run.ctx;
  const taken = `after ${row.samples.length} timed samples`;
  failRow(
    row,
    e instanceof TimeoutError
      ? {
          status: 'timeout',
          reason: `${during} made no progress within the ${plan.timeoutMs} ms limit of one step (${taken}): ${e.message}`,
        }
      : { status: 'error', reason: `${errorMessage(e)} (${during}, ${taken})` },
  );
  if (!plan.auto) {
    const left = plan.warmup + plan.iterations - row.warmup.length - row.samples.length;
    run.progress.addSamples(-Math.max(0, left - (inSample ? 1 : 0)));
  }
}
