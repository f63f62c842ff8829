/**
 * The run's sampling budget: what is left of it, and each group's share of it in a pass. Time a
 * quick group does not need flows on to the groups after it.
 */
/**
 * The run's sampling budget, handed out group by group in proportion to each group's rows (a
 * case four stores can run needs about twice the time of one two stores can).
 */
export class Budget {
  private readonly start: number;
  private weightLeft: number;

  constructor(
    /** Total ms, or undefined for none (fixed sampling): a launch's share when the run is spread over launches. */
    readonly totalMs: number | undefined,
    /** The weight (rows) of every group the run will start. */
    totalWeight: number,
    private readonly clock: () => number,
    /** What is left of the whole run's budget (launch.ts); the same as totalMs in a run of one launch. */
    private readonly runLeftMs: number | undefined = totalMs,
  ) {
    this.start = clock();
    this.weightLeft = totalWeight;
  }

  /** ms of the budget used so far. */
  spentMs(): number {
    return this.clock() - this.start;
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
    const left = this.totalMs === undefined ? Infinity : Math.max(0, this.totalMs - this.spentMs());
    const share =
      this.weightLeft > 0 ? (left * Math.min(weight, this.weightLeft)) / this.weightLeft : left;
    this.weightLeft = Math.max(0, this.weightLeft - weight);
    return this.clock() + share;
  }

  /**
   * Estimated fraction of the run done: time spent over time spent plus what the rest should
   * take, at the pace so far, but never more than the budget left. `done` and `total` are in the
   * same unit as the groups' weights.
   */
  fraction(done: number, total: number): number {
    const spent = this.spentMs();
    if (done >= total) return 1;
    const pace = done > 0 ? spent / done : Infinity;
    const budgetLeft = this.totalMs === undefined ? Infinity : Math.max(0, this.totalMs - spent);
    const left = Math.min(pace * (total - done), budgetLeft);
    if (!Number.isFinite(left)) return done / total;
    return spent + left > 0 ? spent / (spent + left) : 0;
  }
}
