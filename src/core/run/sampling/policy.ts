/**
 * The sampling policy: how many samples each row takes in each pass, where the budget's time
 * goes, and when a row stops. The runner asks it at each phase of a group's pass and takes the
 * samples it is told to; everything here decides, nothing here runs a sample.
 *
 * The rules live in the modules beside this one: passes and their minimums (passes.ts), what a
 * row costs against its share of the budget (share.ts), the next round of samples
 * (allocator.ts), how many runs a sample repeats (repeats.ts), the pair of an A/B run
 * (pairing.ts), and the planned looks (looks.ts). The budget and every share of it, the groups'
 * and the rows', are plan/budget.ts's: the policy asks it, and divides no time itself.
 */
import { changeFrom, isDecided, type Baseline } from '../../verdicts/baseline.ts';
import type { Plan } from '../../plan/plan.ts';
import type { StopReason } from '../../results/results.ts';
import {
  costPerSample,
  isSampling,
  knownCost,
  MIN_SAMPLES_ON_TIME_CAP,
  RESUMED_IN_LATER_PASSES,
  stopRow,
  type Row,
} from '../row.ts';
import { sharedShift, type LogRatio } from '../../stats/stats.ts';
import { now } from '../../base/timer.ts';
import type { LaunchBudget } from '../../plan/budget.ts';
import { capReason, passShareUsed, pickRound, stopReason, type RowGauge } from './allocator.ts';
import { nextRepeats } from './repeats.ts';
import { equalRepeats, pairedPrecision, withPartners } from './pairing.ts';
import { minimumInPass, sharedOut, warmupsIn } from './passes.ts';
import { passNeed, shareClass, shareDone, type PassShare } from './share.ts';

export interface PolicyInput {
  plan: Plan;
  /** Passes of the whole run. */
  passes: number;
  /** This launch's budget on its clock (plan/budget.ts): where the run ends, and its pace. */
  budget: LaunchBudget;
  /** A row's share of the run's budget (Budget.rowMs, weighed in share.ts); Infinity without a budget. */
  shareMs: number;
  /** How long one sample should last (repeats.ts). */
  sampleTargetMs: number;
  /** The `batch` cure's target for rows on fresh databases; absent: they never repeat. */
  batchTargetMs?: number;
  baseline?: Baseline;
}

/** A group as the policy sees it: its rows and the clock reading its share of this pass ends at. */
export interface GroupClock {
  rows: Row[];
  endsAt: number;
}

export class SamplingPolicy {
  /** With a baseline: the shift the rows share against it, taken again as each group starts a pass. */
  private baselineShift: LogRatio | null = null;

  constructor(private readonly p: PolicyInput) {}

  /**
   * At the start of a later pass, rows that stopped for their precision or the budget sample
   * again: they take this pass's minimum and are judged on all their samples. Rows at their own
   * caps (max-n, max-ms), settled rows and failed rows stay as they are. Every row counts its
   * samples per pass.
   */
  resumeRows(rows: readonly Row[]): void {
    for (const row of rows) {
      const { state } = row;
      const resumed = state.kind === 'stopped' && RESUMED_IN_LATER_PASSES.has(state.why);
      if (resumed && !shareDone(row.share, row.samples.length)) row.state = { kind: 'sampling' };
      row.samplesPerPass.push(0);
    }
  }

  /** Warm-up samples per row in this pass. */
  warmups(pass: number): number {
    return warmupsIn(this.p.plan, pass);
  }

  /**
   * The rows that warm up in this pass: every one sampling in the first; after it, not a costly
   * one, whose sample is long enough that the engine's first runs are a small part of it, and
   * whose warm-up would double what a pass costs it.
   */
  warmupRows(rows: readonly Row[], pass: number): Row[] {
    return rows.filter((row) => isSampling(row) && (pass === 1 || !this.isCostly(row, pass)));
  }

  /**
   * Phase 0: a row with samples to keep and too little of the run's budget left for this pass's
   * warm-up and one sample stops as `budget` before anything runs for it. A costly row's few
   * passes are its share of the budget, set aside for it: a launch whose time went to the groups
   * before it does not take them.
   */
  stopBeforePass(rows: readonly Row[], pass: number): void {
    if (!this.p.plan.auto) return;
    const runs = this.warmups(pass) + 1;
    for (const row of rows.filter(isSampling)) {
      if (this.shareNeed(row, pass) === 0) {
        this.stopForShare(row);
        continue;
      }
      if (this.isCostly(row, pass)) continue;
      const gauge = this.gauge(row);
      if (gauge.n >= MIN_SAMPLES_ON_TIME_CAP && outOfTime(this.p.budget.endsAt(), gauge, runs))
        stopRow(row, 'budget');
    }
  }

  /**
   * Phase 2: the rows whose fastest run, times their repeats, spans less than a sample should (or
   * that are still getting faster), with their repeats raised for the next warm-up round.
   */
  calibrate(rows: readonly Row[], fastest: Map<Row, number>, settled: Set<Row>): Row[] {
    const pending = rows.filter((row) => {
      const target = this.targetOf(row);
      return (
        isSampling(row) &&
        target !== undefined &&
        ((fastest.get(row) ?? Infinity) * row.repeats < target ||
          (row.repeats > 1 && !settled.has(row)))
      );
    });
    for (const row of pending)
      row.repeats = nextRepeats(row.repeats, fastest.get(row) ?? 0, this.targetOf(row) ?? 0);
    return pending;
  }

  /** How long a row's sample should last: shared rows by the timer, fresh ones by the batch cure. */
  private targetOf(row: Row): number | undefined {
    return row.db === 'shared' ? this.p.sampleTargetMs : this.p.batchTargetMs;
  }

  /**
   * A shared row whose runs got quicker after calibration takes more repeats from its next sample
   * on, as soon as one sample falls short of the target: no later sample spans fewer steps than
   * the target asks. Samples stay per run, so this moves only their quantisation.
   */
  keepAboveTarget(row: Row, perRunMs: number): void {
    const target = this.targetOf(row);
    if (target === undefined || perRunMs * row.repeats >= target) return;
    row.repeats = nextRepeats(row.repeats, perRunMs, target);
    equalRepeats(row);
  }

  /** Phase 3: each row's least samples in this pass, decided once the warm-up told what a sample costs. */
  minimums(rows: readonly Row[], pass: number): Map<Row, number> {
    const want = minimumInPass(this.p.plan, pass);
    return new Map(rows.map((row) => [row, this.shareNeed(row, pass) ?? want]));
  }

  /**
   * Phase 3, before each round: whether a row stops short of its minimum. Fixed sampling stops at
   * the count; a costly row that has its least takes no more; otherwise only a cap of its own or
   * the end of the whole budget stops it (a row without its minimum has no interval).
   */
  judgeMinimum(row: Row, pass: number, taken: number, want: number): void {
    const auto = this.p.plan.auto;
    if (!auto) {
      if (taken >= want) stopRow(row, 'iterations');
      return;
    }
    const costly = this.isCostly(row, pass);
    if (costly && taken >= want) return this.stopForShare(row);
    const gauge = this.gauge(row);
    if (gauge.n < MIN_SAMPLES_ON_TIME_CAP) return;
    const why =
      capReason(gauge, auto) ?? (costly ? undefined : outOfTime(this.p.budget.endsAt(), gauge));
    if (why) stopRow(row, why);
  }

  /**
   * Phase 4 (adaptive): the rows that take the next round of samples, after stopping those that
   * have enough or are out of the group's time; none when the group is done. Rows that had their
   * share of the pass go only while no other row samples; once they are all that is left they
   * stop as `budget`, and the time flows on to later groups, unless none is left to use it.
   */
  nextRound(group: GroupClock, timeFlowsOn: boolean): Row[] {
    const auto = this.p.plan.auto;
    if (!auto) return [];
    const gauges = new Map<RowGauge, Row>();
    for (const row of group.rows.filter(isSampling)) {
      const gauge = this.judge(row, group.endsAt);
      if (gauge) gauges.set(gauge, row);
    }
    const open = [...gauges.keys()];
    if (timeFlowsOn && open.length > 0 && open.every((g) => g.passShareUsed === true)) {
      for (const row of gauges.values()) stopRow(row, 'budget');
      return [];
    }
    return withPartners(pickRound(open).map((g) => gauges.get(g) as Row));
  }

  /** Whether a row picked for a round may still take its sample: the round's earlier samples may have used up the group's time. */
  mayTake(row: Row, group: GroupClock): boolean {
    return isSampling(row) && this.judge(row, group.endsAt) !== undefined;
  }

  /** With a baseline: the shift the rows share against it, from the rows open now; rows are decided net of it. */
  shareBaselineShift(rows: readonly Row[]): void {
    if (!this.p.baseline) return;
    const changes = rows.flatMap((row) =>
      row.baseline?.now ? (changeFrom(row.baseline.row, row.baseline.now) ?? []) : [],
    );
    this.baselineShift = sharedShift(changes);
  }

  /** The row as the allocator sees it, after stopping it when it has enough or is out of the group's time; undefined once stopped. */
  private judge(row: Row, endsAt: number): RowGauge | undefined {
    const gauge = this.gauge(row);
    const why = stopReason(gauge, this.p.plan.auto ?? NO_AUTO) ?? outOfTime(endsAt, gauge);
    if (why) stopRow(row, why);
    return why ? undefined : gauge;
  }

  private gauge(row: Row): RowGauge {
    return {
      n: row.samples.length,
      precision: pairedPrecision(row),
      costMs: costPerSample(row),
      spentMs: row.spentMs,
      passShareUsed: passShareUsed(
        row.samplesPerPass,
        row.passBound,
        this.p.plan.auto?.maxN,
        this.p.passes,
      ),
      ...(row.baseline ? { decided: isDecided(row.baseline, this.baselineShift) } : {}),
    };
  }

  /**
   * The row's least samples in this pass by its share of the budget (share.ts), or null where
   * share.ts does not decide (fixed sampling, fewer than 3 passes). 0: not a pass it samples in.
   * A pair goes by its costlier side, so both sides sample in the same passes.
   */
  private shareNeed(row: Row, pass: number): number | null {
    const share = this.shareOf(row, pass);
    if (!share) return null;
    const need = passNeed(share);
    return typeof need === 'string' ? 0 : need.take;
  }

  /** Whether the row samples fewer passes than every one because of what it costs (share.ts). */
  private isCostly(row: Row, pass: number): boolean {
    const share = this.shareOf(row, pass);
    return share !== null && shareClass(share) !== 'cheap';
  }

  private shareOf(row: Row, pass: number): PassShare | null {
    const auto = this.p.plan.auto;
    if (!auto || !sharedOut(this.p.plan)) return null;
    const costs = [knownCost(row), ...(row.pair ? [knownCost(row.pair.other)] : [])].filter(
      (c): c is number => c !== null,
    );
    const live = costs.length > 0 ? Math.max(...costs) : null;
    // Settled after the row's first pass: a cost near the line would flip the row between cheap
    // and costly from pass to pass, and a costly row that skipped passes then lose its set-aside ones.
    if (pass > 1 && row.settledCostMs === undefined && live !== null) row.settledCostMs = live;
    return {
      passes: this.p.passes,
      pass,
      n: row.samples.length,
      costMs: pass > 1 && row.settledCostMs !== undefined ? row.settledCostMs : live,
      shareMs: this.p.shareMs,
      pace: this.p.budget.paceIn(pass),
    };
  }

  /** A costly row stops for now, and records what a sample costs against its share (share.ts). */
  private stopForShare(row: Row): void {
    const cost = row.settledCostMs ?? knownCost(row);
    if (cost !== null && Number.isFinite(this.p.shareMs))
      row.share = { sampleMs: cost, shareMs: this.p.shareMs };
    stopRow(row, 'share');
  }
}

/** Fixed sampling has no adaptive settings; the allocator is never asked then. */
const NO_AUTO = { targetRelCi: 0, minN: Infinity, maxN: Infinity, maxMs: Infinity };

/** `budget` when `runs` more runs of the row (a sample, or a warm-up and a sample) would end past `endsAt`. */
function outOfTime(endsAt: number, gauge: RowGauge, runs = 1): StopReason | undefined {
  return now() + gauge.costMs * runs > endsAt ? 'budget' : undefined;
}
