/**
 * E-divisive means (Matteson and James, "A Nonparametric Approach for Multiple Change Point
 * Analysis of Multivariate Data", JASA 109(505), 2014), the split half of Apache Otava (formerly
 * Hunter; Fleming et al., "Hunter: Using Change Point Detection to Hunt for Performance
 * Regressions", ICPE 2023). The variant Otava and MongoDB's signal-processing package use: the
 * energy statistic with alpha = 1, each segment split where q̂ is largest with the segment's end
 * as kappa (no search over kappa), the split kept while a permutation test finds it significant,
 * permuting within each current segment. Pure and seeded: the same input gives the same splits.
 */
import { createRng, type Rng } from '../../../fixtures/random.ts';

export interface SplitOptions {
  /** Significance level of the permutation test. */
  alpha: number;
  /** Permutations per test. */
  permutations: number;
  /** Fewest points a segment keeps on each side of a split (2: the within-sample sums need pairs). */
  minSize: number;
  seed: number;
}

/** The best split of one segment: where q̂ is largest, as an offset into the segment, and that q̂. */
interface Best {
  tau: number;
  q: number;
}

/**
 * q̂(tau) for every tau of `x` (alpha = 1), the largest kept. One pass over the pairs: each point's
 * distance sums to the points before and after it give both within-sample sums at every tau, and
 * the cross sum is what is left of the total.
 */
export function bestSplit(x: ArrayLike<number>, minSize: number): Best | null {
  const n = x.length;
  if (n < 2 * minSize) return null;
  const toEarlier = new Float64Array(n);
  const toLater = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    const xi = x[i] as number;
    for (let k = i + 1; k < n; k++) {
      const d = Math.abs(xi - (x[k] as number));
      toEarlier[k] = (toEarlier[k] as number) + d;
      toLater[i] = (toLater[i] as number) + d;
      total += d;
    }
  }
  const withinRight = new Float64Array(n + 1);
  for (let t = n - 1; t >= 0; t--)
    withinRight[t] = (withinRight[t + 1] as number) + (toLater[t] as number);
  let withinLeft = 0;
  for (let t = 0; t < minSize; t++) withinLeft += toEarlier[t] as number;
  let best: Best | null = null;
  for (let tau = minSize; tau <= n - minSize; tau++) {
    const m = tau;
    const k = n - tau;
    const right = withinRight[tau] as number;
    const cross = total - withinLeft - right;
    const energy =
      (2 * cross) / (m * k) - withinLeft / ((m * (m - 1)) / 2) - right / ((k * (k - 1)) / 2);
    const q = ((m * k) / n) * energy;
    if (!best || q > best.q) best = { tau, q };
    withinLeft += toEarlier[tau] as number;
  }
  return best;
}

/** The largest q̂ over the segments between `cuts` (ascending, with 0 and n), and where. */
function bestOver(
  x: Float64Array,
  cuts: readonly number[],
  minSize: number,
): { at: number; q: number } | null {
  let out: { at: number; q: number } | null = null;
  for (let s = 0; s + 1 < cuts.length; s++) {
    const from = cuts[s] as number;
    const b = bestSplit(x.subarray(from, cuts[s + 1]), minSize);
    if (b && (!out || b.q > out.q)) out = { at: from + b.tau, q: b.q };
  }
  return out;
}

/** Shuffle each segment of `x` in place (Fisher-Yates), the segments' bounds kept. */
function shuffleWithin(x: Float64Array, cuts: readonly number[], rng: Rng): void {
  for (let s = 0; s + 1 < cuts.length; s++) {
    const from = cuts[s] as number;
    for (let i = (cuts[s + 1] as number) - 1; i > from; i--) {
      const j = from + rng.int(i - from + 1);
      const t = x[i] as number;
      x[i] = x[j] as number;
      x[j] = t;
    }
  }
}

/**
 * The permutation test's p-value of q̂ against the same maximum over segments shuffled within
 * themselves: (exceedances + 1) / (permutations + 1). It stops once p must exceed alpha, so a
 * p-value above alpha is a lower bound.
 */
function permutationP(
  x: Float64Array,
  cuts: readonly number[],
  observed: number,
  opts: SplitOptions,
  rng: Rng,
): number {
  const copy = Float64Array.from(x);
  const limit = opts.alpha * (opts.permutations + 1);
  let exceed = 0;
  for (let r = 0; r < opts.permutations; r++) {
    shuffleWithin(copy, cuts, rng);
    const b = bestOver(copy, cuts, opts.minSize);
    // A tie counts as an exceedance: a permutation as extreme as the data.
    if (b && b.q >= observed * (1 - 1e-12)) exceed++;
    if (exceed + 1 > limit) return (exceed + 1) / (r + 2);
  }
  return (exceed + 1) / (opts.permutations + 1);
}

/** One accepted split: the index of the first point after it, and its permutation p-value. */
export interface Split {
  index: number;
  p: number;
}

/** The splits of `x`, top-down, while each is significant; ascending by index. */
export function eDivisive(x: readonly number[], opts: SplitOptions): Split[] {
  const data = Float64Array.from(x);
  const rng = createRng(opts.seed);
  const cuts = [0, data.length];
  const splits: Split[] = [];
  for (;;) {
    const best = bestOver(data, cuts, opts.minSize);
    if (!best || !(best.q > 0)) break;
    const p = permutationP(data, cuts, best.q, opts, rng);
    if (p > opts.alpha) break;
    splits.push({ index: best.at, p });
    cuts.push(best.at);
    cuts.sort((a, b) => a - b);
  }
  return splits.sort((a, b) => a.index - b.index);
}
