/**
 * The sampling budget, every level of it: `--budget` (plan.budgetMs) is read here, and nowhere else
 * but the plan's own text and URL (fields.ts), and every share of it is cut here, so a change of
 * one rule cannot leave another level counting the old way. A Budget is made once from the plan
 * (and, in the sweep, the launches each browser's run is spread over) and answers: a browser's
 * budget, which is the whole that `--budget` gives each browser; a launch's share of it and what is
 * left of the browser's run from that launch on; what the passes left were planned to have; a row's
 * share; and how far through its budget a browser spread over launches is. For the groups of one
 * launch it hands the runner a LaunchBudget, which keeps the clock: each group's share and its end,
 * and the time left. The sweep, the CLI's session and progress line, the runner and the sampling
 * policy ask it instead of dividing the budget themselves. It imports only the Plan, so every room
 * above can ask it.
 */
import { passesOf, type Plan } from './plan.ts';

/**
 * Sampling time a launch gets at the least by default. Starting a browser costs 1 to 5 s here, on
 * top of the budget: launches of 15 s keep that under a quarter of the wall time, and give the
 * default budget its 12 launches, one per pass, so every comparison has 11 degrees of freedom.
 */
export const MIN_LAUNCH_MS = 15_000;

/** A launch may take at most this many times its even share: the rest of a pool left by browsers that ended early is saved. */
const POOL_STRETCH = 2;

/**
 * --ab's budget when none is given: one question, answered in 9 launches of Chromium within about
 * 6 minutes with the page's build and the launches' starts (the default plan's 12 cases on one pair).
 */
export const AB_BUDGET_MS = 4 * 60_000;

/**
 * Launches by default: one per pass, as long as each gets MIN_LAUNCH_MS of the budget (one
 * without a budget). The rule the sweep's --launches default and --ab's passes (ab-plan.ts) both
 * follow; a function of its own because ab-plan.ts asks it of budgets no plan holds yet.
 */
export function defaultLaunches(passes: number, budgetMs: number | undefined): number {
  if (budgetMs === undefined) return 1;
  return Math.max(1, Math.min(passes, Math.floor(budgetMs / MIN_LAUNCH_MS)));
}

/** What a launch's share depends on besides the plan: how the browser's launches so far, and the other browsers, used theirs. */
export interface LaunchUse {
  /** Which launch of its browser this is, from 1. */
  launch: number;
  /** What this browser's launches so far used. */
  usedMs: number;
  /** Browsers that ended, what they used in all, and the browsers still open (this one among them). */
  ended: number;
  endedUsedMs: number;
  open: number;
}

/** What a launch's page is handed of the budget (launch.ts, LaunchOrder). */
export interface LaunchShare {
  /** The launch's own share. */
  budgetMs: number;
  /** What is left of the browser's run from this launch on: its minimum samples are bounded by it. */
  budgetLeftMs: number;
}

/** A group as the budget sees it: when its current pass started and when its share ends. */
export interface GroupSpan {
  startedAt: number;
  endsAt: number;
}

/** Where a browser spread over launches stands, for Budget.doneAcross. */
export interface AcrossUse {
  /** The launch in flight, from 1, of the browser's `of`. */
  launch: number;
  of: number;
  /** Time the earlier launches ran in their pages. */
  usedMs: number;
  /** The launch in flight: its time in its page so far, the fraction of it done, and its share. */
  spentMs: number;
  done: number;
  shareMs: number;
}

export class Budget {
  /** The whole budget of a browser's run, as --budget gives each browser; undefined without one. */
  readonly browserMs: number | undefined;
  /** Browser launches each browser's passes are spread over, from 1 to the passes. */
  readonly launches: number;
  /** Passes of the plan: the budget is planned evenly over them. */
  private readonly passes: number;
  /** Only adaptive sampling spends a budget; fixed sampling takes its count whatever the time. */
  private readonly adaptive: boolean;

  /** `launches`: --launches, or --manual's one; absent, as many as the budget gives (defaultLaunches). */
  constructor(plan: Pick<Plan, 'auto' | 'budgetMs'>, launches?: number) {
    this.browserMs = plan.budgetMs;
    this.adaptive = plan.auto !== undefined;
    this.passes = passesOf(plan.auto);
    const asked = launches ?? defaultLaunches(this.passes, plan.budgetMs);
    this.launches = Math.max(1, Math.min(asked, this.passes));
  }

  /**
   * A launch's share of its browser's budget: what its own budget has left, plus an even part of
   * what the browsers that ended left unused, over its launches still to come (this one among
   * them), at most POOL_STRETCH times its even share; and what is left of the run from it on, that
   * share for each launch to come. A browser's own overrun (its fills and warm-ups, a slow
   * engine's launches) stays its own: taken from one pool, Firefox's had left Chromium's cheap
   * rows no sample after pass 4 of 12 in a three-engine default sweep, where alone it sampled them
   * to pass 8. A browser whose rows all settled early leaves its time to the others.
   */
  launchShare(use: LaunchUse): LaunchShare {
    const budgetMs = this.browserMs ?? 0;
    const launchesLeft = this.launches - use.launch + 1;
    const leftover = Math.max(0, use.ended * budgetMs - use.endedUsedMs) / Math.max(1, use.open);
    const own = Math.max(0, budgetMs - use.usedMs) + leftover;
    const share = Math.min(
      (POOL_STRETCH * budgetMs) / this.launches,
      own / Math.max(1, launchesLeft),
    );
    return { budgetMs: share, budgetLeftMs: share * launchesLeft };
  }

  /** What the passes from `pass` to the last were planned to have: the budget spread evenly over the passes (Infinity without one). */
  passPlanMs(pass: number): number {
    return ((this.browserMs ?? Infinity) * (this.passes - pass + 1)) / this.passes;
  }

  /** A row's share of the budget, one of `rows` (share.ts decides what it buys); Infinity without a budget. */
  rowMs(rows: number): number {
    return this.adaptive && this.browserMs !== undefined && rows > 0
      ? this.browserMs / rows
      : Infinity;
  }

  /**
   * The fraction of a browser's run done, at most 1; undefined without a budget. Reckoned in time:
   * the launches so far, this one projected from its own fraction, and each launch to come at the
   * mean time the earlier ones took (at this one's projection in the first). A launch often ends
   * before its share, its rows sampled or settled at a look: reckoned against the shares, a sized
   * A/B read 38% at pass 8 of 12 and ended 9 s later.
   */
  doneAcross(u: AcrossUse): number | undefined {
    if ((this.browserMs ?? 0) <= 0) return undefined;
    const thisMs = u.done > 0 ? u.spentMs / u.done : u.shareMs;
    const eachMs = u.launch > 1 ? u.usedMs / (u.launch - 1) : thisMs;
    const whole = u.usedMs + thisMs + Math.max(0, u.of - u.launch) * eachMs;
    return whole > 0 ? Math.min(1, (u.usedMs + u.spentMs) / whole) : 0;
  }

  /** What is left of a browser's budget with `done` of it done (0 without a budget). */
  browserLeftMs(done: number): number {
    return (1 - done) * (this.browserMs ?? 0);
  }

  /**
   * The budget one launch's runner hands out group by group: the launch's share when the sweep
   * spread the run over launches (`order`), the whole budget in a run of one; none with fixed
   * sampling. `totalWeight` is the weight (rows) of every group the launch will start.
   */
  inLaunch(order: LaunchShare | undefined, totalWeight: number, clock: () => number): LaunchBudget {
    if (!this.adaptive) return new LaunchBudget(this, undefined, undefined, totalWeight, clock);
    return new LaunchBudget(
      this,
      order?.budgetMs ?? this.browserMs,
      order?.budgetLeftMs ?? this.browserMs,
      totalWeight,
      clock,
    );
  }
}

/**
 * One launch's budget on its clock, handed out group by group in proportion to each group's rows
 * (a case four stores can run needs about twice the time of one two stores can). Time a quick
 * group does not need flows on to the groups after it. Made by Budget.inLaunch only.
 */
class LaunchBudget {
  private readonly start: number;
  private weightLeft: number;
  /** The run's pace, read once at the start of each pass. */
  private paceOf: { pass: number; pace: number } | null = null;

  constructor(
    private readonly budget: Budget,
    /** The launch's share in ms, or undefined for none (fixed sampling). */
    readonly totalMs: number | undefined,
    /** What is left of the whole run's budget from this launch on; the same as totalMs in a run of one launch. */
    private readonly runLeftMs: number | undefined,
    totalWeight: number,
    private readonly clock: () => number,
  ) {
    this.start = clock();
    this.weightLeft = totalWeight;
  }

  /** ms of the launch's budget used so far. */
  spentMs(): number {
    return this.clock() - this.start;
  }

  /** ms of the launch's budget left, never below 0 (Infinity without a budget). */
  leftMs(): number {
    return this.leftOf(this.spentMs());
  }

  private leftOf(spentMs: number): number {
    return this.totalMs === undefined ? Infinity : Math.max(0, this.totalMs - spentMs);
  }

  /** Whether groups after those started so far take a share: time one leaves over flows on to them. */
  hasLaterShares(): boolean {
    return this.weightLeft > 0;
  }

  /** The clock reading the whole run's budget ends at (Infinity without one): it bounds the rows' minimum samples. */
  endsAt(): number {
    return this.runLeftMs === undefined ? Infinity : this.start + this.runLeftMs;
  }

  /** Start the next group, of this weight: the clock reading its share of the remaining budget ends at. */
  nextGroupEnd(weight = 1): number {
    const left = this.leftMs();
    const share =
      this.weightLeft > 0 ? (left * Math.min(weight, this.weightLeft)) / this.weightLeft : left;
    this.weightLeft = Math.max(0, this.weightLeft - weight);
    return this.clock() + share;
  }

  /** How much of its share the group in flight has used, 0 to 0.99 (0 without a budget). */
  groupDone(group: GroupSpan): number {
    if (!Number.isFinite(group.endsAt)) return 0;
    return Math.min(
      0.99,
      (this.clock() - group.startedAt) / Math.max(1, group.endsAt - group.startedAt),
    );
  }

  /**
   * Estimated fraction of the launch done: time spent over time spent plus what the rest should
   * take, at the pace so far, but never more than the budget left. `done` and `total` are in the
   * same unit as the groups' weights.
   */
  fraction(done: number, total: number): number {
    const spent = this.spentMs();
    if (done >= total) return 1;
    const pace = done > 0 ? spent / done : Infinity;
    const left = Math.min(pace * (total - done), this.leftOf(spent));
    if (!Number.isFinite(left)) return done / total;
    return spent + left > 0 ? spent / (spent + left) : 0;
  }

  /**
   * The run's pace at the start of this pass: the budget left over what the passes left were
   * planned to have (Budget.passPlanMs), at most 1; read once a pass, so every group of the pass
   * sees the same.
   */
  paceIn(pass: number): number {
    if (this.paceOf?.pass === pass) return this.paceOf.pace;
    const planned = this.budget.passPlanMs(pass);
    const left = this.endsAt() - this.clock();
    const pace = Number.isFinite(planned) && planned > 0 ? Math.min(1, left / planned) : 1;
    this.paceOf = { pass, pace };
    return pace;
  }
}

export type { LaunchBudget };
