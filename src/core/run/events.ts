/**
 * What a run tells its listeners (the page, the sweep's collector, the tests), and the counters
 * behind its progress: rows and samples done, and how far through its budget it is.
 */
import type { Carry } from './launch.ts';
import type { CaseResult } from '../results/results.ts';
import type { GroupSpan, LaunchBudget } from '../plan/budget.ts';

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

/** A sample as its event names it. */
export interface SampleWhere {
  suite: string;
  case: string;
  adapter: string;
  size: number;
}

/** A group's share of the budget in its current pass, for the progress estimate. */
export interface GroupShare extends GroupSpan {
  weight: number;
}

/** The counters of a run's progress, and the events that report them. */
export class Progress {
  rowsDone = 0;
  samplesDone = 0;
  /** Budget weight of the groups done in every pass so far. */
  weightDone = 0;

  constructor(
    private readonly emit: (event: RunEvent) => void,
    private readonly budget: LaunchBudget,
    readonly rowsTotal: number,
    /** Fixed sampling: the exact total, less what failed rows gave back; adaptive: the minimum. */
    private samplesTotal: number,
    private readonly weightTotal: number,
  ) {
    emit({ type: 'run-start', rows: rowsTotal, samples: samplesTotal });
  }

  /** A row is finished: its result goes to the listeners. */
  rowDone(result: CaseResult): void {
    this.rowsDone++;
    this.emit({ type: 'case-end', result, rowsDone: this.rowsDone, rows: this.rowsTotal });
  }

  /** Samples the run will take after all (calibration's extra warm-ups), or not (a failed row's). */
  addSamples(n: number): void {
    this.samplesTotal += n;
  }

  /** A sample (or a failed one) is done; `sample` says which, for its event. */
  sampleDone(
    group: GroupShare,
    sample?: { at: SampleWhere; warmup: boolean; index: number; of: number; ms: number },
  ): void {
    this.samplesDone++;
    if (!sample) return;
    // With a budget, progress is time: the share of the run the budget says is done. Without one
    // (fixed sampling) the total count is known.
    const fraction =
      this.budget.totalMs === undefined
        ? undefined
        : this.budget.fraction(
            this.weightDone + group.weight * this.budget.groupDone(group),
            this.weightTotal,
          );
    const total =
      fraction === undefined
        ? this.samplesTotal
        : Math.round(this.samplesDone / Math.max(fraction, 0.001));
    this.emit({
      type: 'sample',
      ...sample.at,
      warmup: sample.warmup,
      index: sample.index,
      of: sample.of,
      ms: sample.ms,
      samplesDone: this.samplesDone,
      samplesTotal: Math.max(this.samplesDone, total),
      ...(fraction === undefined ? {} : { fraction }),
    });
  }
}
