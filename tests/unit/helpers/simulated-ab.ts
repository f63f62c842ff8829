/**
 * Simulated --ab runs for the gate's tests: rows of per-pass log ratios B/A with a known truth,
 * sampled and stopped as the runner does (a pair settles at a planned look only when its repeated
 * interval decides it same or faster: ab.pairAtLook), then read as the sweep reads a finished run
 * (paired.comparisonRatio) and judged by the gate's rule over the family (ab.abDecision).
 */
import type { Rng } from '../../../fixtures/random.ts';
import {
  abDecision,
  pairAtLook,
  type AbDecision,
  type AbRow,
} from '../../../src/core/verdicts/ab.ts';
import { comparisonRatio, passLogRatios } from '../../../src/core/stats/paired.ts';
import { plannedLooks } from '../../../src/core/stats/sequential.ts';
import { variance } from '../../../src/core/stats/stats.ts';
import { SIZED_AFTER } from '../../../src/core/plan/ab-plan.ts';
import { earlySpreads, sizePasses } from '../../../src/core/verdicts/ab-size.ts';

export const gauss = (rng: Rng) =>
  Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());

/** Student's t with 4 degrees of freedom, scaled to unit variance (its variance is 2): heavy tails. */
const t4 = (rng: Rng) => {
  // χ² with 4 degrees of freedom is twice the sum of two standard exponentials.
  const chi = -2 * Math.log((1 - rng.next()) * (1 - rng.next()));
  return gauss(rng) / Math.sqrt(chi / 4) / Math.SQRT2;
};

/**
 * One simulated pair over `passes` launches, `k` pairs of samples in each, B/A truly exp(delta).
 * Each launch moves every store (shared, sd 8%), this row (sd 5%) and each store of it on its own
 * (sd 3%); a sample has lognormal noise (sd 10%) and, one time in ten, a stall of up to +50%.
 */
export function launchPassLogs(rng: Rng, delta: number, passes = 7, k = 4): number[] {
  const a = { samples: [] as number[], samplesPerPass: [] as number[] };
  const b = { samples: [] as number[], samplesPerPass: [] as number[] };
  for (let p = 0; p < passes; p++) {
    const launch = 0.08 * gauss(rng) + 0.05 * gauss(rng);
    const ea = launch + 0.03 * gauss(rng);
    const eb = launch + 0.03 * gauss(rng) + delta;
    const sample = (level: number) =>
      Math.exp(level + 0.1 * gauss(rng)) * (rng.next() < 0.1 ? 1 + 0.5 * rng.next() : 1);
    for (let i = 0; i < k; i++) {
      a.samples.push(10 * sample(ea));
      b.samples.push(10 * sample(eb));
    }
    a.samplesPerPass.push(k);
    b.samplesPerPass.push(k);
  }
  return passLogRatios(a, b);
}

export interface RunShape {
  /** Rows in the family, passes a row may take, the threshold in %. */
  rows: number;
  passes: number;
  thresholdPct: number;
  /** Standard deviation of one pass's log ratio. */
  sigma: number;
  heavy: boolean;
}

/** One pass's log ratio of a row whose B/A is truly exp(theta). */
const draw = (rng: Rng, o: RunShape, theta: number) =>
  theta + o.sigma * (o.heavy ? t4(rng) : gauss(rng));

/**
 * One simulated row: B/A truly exp(theta), going on from the passes in `logs` to `passes`, and
 * stopped at a look of a plan of `passes` where it settles (none at the passes it came with).
 */
function simulatedRow(
  rng: Rng,
  o: RunShape,
  theta: number,
  index: number,
  logs: number[],
  passes: number,
): AbRow {
  const looks = plannedLooks(passes);
  let settled = false;
  for (let p = logs.length + 1; p <= passes && !settled; p++) {
    logs.push(draw(rng, o, theta));
    settled = p < passes && looks.includes(p) && pairAtLook(logs, looks, o.thresholdPct, p).settled;
  }
  const side = { stopped: settled ? 'settled' : 'budget', samplesPerPass: logs.map(() => 1) };
  return {
    browser: 'sim',
    suite: 's',
    case: `c${index}`,
    size: 1,
    params: {},
    a: 'A',
    b: 'B',
    ratio: comparisonRatio(logs, looks, side, side),
    verdict: 'undecided',
    pSlower: 1,
    detectable: null,
  };
}

/** One simulated run: row i has B/A truly exp(thetas[i]) (the rest 1), judged over the family. */
export function simulatedRun(rng: Rng, o: RunShape, thetas: readonly number[] = []): AbDecision {
  const rows = Array.from({ length: o.rows }, (_, i) =>
    simulatedRow(rng, o, thetas[i] ?? 0, i, [], o.passes),
  );
  return abDecision(rows, o.thresholdPct);
}

/** --budget auto: the fewest and most passes, and the slowdown the run is sized to catch. */
export interface SizedShape extends RunShape {
  least: number;
  most: number;
  goalPct: number;
}

/**
 * One simulated run under --budget auto, as the sweep takes it: every row's first SIZED_AFTER
 * passes (no look before them), the run sized from their spreads (ab-size.sizePasses), then each
 * row on to the passes it was sized to, stopped at that plan's looks, and the family judged as a
 * run with `--detect goalPct` (which moves no row's verdict, only pass against undecided).
 */
export function simulatedSizedRun(
  rng: Rng,
  o: SizedShape,
  thetas: readonly number[] = [],
): { decision: AbDecision; passes: number } {
  const firsts = Array.from({ length: o.rows }, (_, i) =>
    Array.from({ length: SIZED_AFTER }, () => draw(rng, o, thetas[i] ?? 0)),
  );
  const { passes } = sizePasses(earlySpreads(firsts.map((logs) => Math.sqrt(variance(logs)))), {
    thresholdPct: o.thresholdPct,
    goalPct: o.goalPct,
    after: SIZED_AFTER,
    least: o.least,
    most: o.most,
  });
  const rows = firsts.map((logs, i) => simulatedRow(rng, o, thetas[i] ?? 0, i, logs, passes));
  return { decision: abDecision(rows, o.thresholdPct, o.goalPct), passes };
}

/** Figures the simulations give, printed when STOREBENCH_REPORT is set (docs/method.md quotes them). */
export function report(line: string): void {
  if (process.env.STOREBENCH_REPORT) console.info(line);
}
