/**
 * The stats room (src/core/stats/): the numbers of samples: summaries, outliers, intervals of a
 * median and of ratios, distributions, sequential looks, paired B/A ratios and the between-runs
 * spread. Pure arithmetic: it imports base (and the seeded random numbers of fixtures/), nothing
 * above.
 *
 * Summary statistics of raw samples. Pure: no DOM, IndexedDB, Node or timer imports.
 * The raw samples are always kept next to these; summaries never replace them.
 */
import { createRng, type Rng } from '../../../fixtures/random.ts';
import { studentTQuantile } from './distributions.ts';

export interface Stats {
  n: number;
  min: number;
  max: number;
  mean: number;
  median: number;
  /** Sample standard deviation (divides by n - 1); 0 when n < 2. */
  stddev: number;
  /**
   * Half-width of the 95% confidence interval of the mean, Student t with n - 1 degrees of
   * freedom: the mean lies in mean ± ci95. `null` when n < 2, where no interval exists.
   */
  ci95: number | null;
  /**
   * 95% interval of the median (see medianCi): distribution-free from order statistics, widened
   * where the samples drift over the run or its passes disagree. `null` when n < 6, where no two order statistics cover
   * the median 95% of the time. Absent in files written before it was recorded.
   */
  medianCi?: Interval | null;
}

/** A closed interval [lo, hi]. */
export interface Interval {
  lo: number;
  hi: number;
}

/** The 97.5% quantile of the standard normal: the z of a two-sided 95% interval. */
const Z975 = 1.959963984540054;

/** Scales the median absolute deviation to estimate the standard deviation of normal data. */
const MAD_TO_SD = 1.4826;

/** k of the outlier bound: median ± k·MAD·MAD_TO_SD is ± 3 standard deviations for normal data. */
export const OUTLIER_K = 3;

/** t such that P(|T| <= t) = 0.95 for Student's t with `df` degrees of freedom (distributions.ts). */
export function tQuantile95(df: number): number {
  if (!Number.isInteger(df) || df < 1)
    throw new RangeError(`degrees of freedom must be a positive integer, got ${df}`);
  return studentTQuantile(0.975, df);
}

function mean(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  let sum = 0;
  for (const x of xs) sum += x;
  return sum / xs.length;
}

/** Median of the values; NaN for none. */
export function median(xs: ArrayLike<number>): number {
  return quantile(xs, 0.5);
}

/** The q-quantile with linear interpolation between order statistics (type 7, as in R and NumPy). */
export function quantile(xs: ArrayLike<number>, q: number): number {
  return quantileInPlace(Float64Array.from(xs), q);
}

/** quantile, reordering the values: two order statistics found by selection, the values sorting gives in O(n). */
function quantileInPlace(xs: Float64Array, q: number): number {
  const n = xs.length;
  if (n === 0) return NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  selectInPlace(xs, lo);
  const a = xs[lo] as number;
  let b = a;
  if (Math.ceil(pos) > lo) {
    b = Infinity;
    for (let i = lo + 1; i < n; i++) if ((xs[i] as number) < b) b = xs[i] as number;
  }
  return a + (b - a) * (pos - lo);
}

/** Rounds of selection before it sorts instead: far more than random data takes (about 2·log2 n), so crafted samples cannot make it quadratic. */
const SELECT_ROUNDS = 64;

/**
 * Reorder xs so that xs[k] holds the value sorting would put there, with no larger value before
 * it and no smaller one after: Hoare's selection around a median of three, in place.
 */
function selectInPlace(xs: Float64Array, k: number): void {
  let left = 0;
  let right = xs.length - 1;
  for (let round = 0; right > left; round++) {
    if (round === SELECT_ROUNDS) {
      xs.subarray(left, right + 1).sort();
      return;
    }
    const a = xs[left] as number;
    const b = xs[(left + right) >> 1] as number;
    const c = xs[right] as number;
    const pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    let i = left;
    let j = right;
    while (i <= j) {
      while ((xs[i] as number) < pivot) i++;
      while ((xs[j] as number) > pivot) j--;
      if (i <= j) {
        const t = xs[i] as number;
        xs[i++] = xs[j] as number;
        xs[j--] = t;
      }
    }
    if (k <= j) right = j;
    else if (k >= i) left = i;
    else return;
  }
}

/**
 * The values in ascending order, as a typed array: sorted natively, without a comparator called a
 * million times for a million samples, and sorted once for every statistic of a row that needs it.
 */
function ascending(xs: ArrayLike<number>): Float64Array {
  return Float64Array.from(xs).sort();
}

/** quantile of values already in ascending order. */
function quantileOfSorted(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (pos - lo);
}

/** Sample variance (n - 1); 0 for fewer than two values, where it is undefined. */
export function variance(xs: readonly number[]): number {
  if (xs.length < 2) return 0;
  const m = mean(xs);
  let ss = 0;
  for (const x of xs) ss += (x - m) ** 2;
  return ss / (xs.length - 1);
}

/** The median absolute deviation from `m`, the values' median. */
function madAbout(xs: readonly number[], m: number): number {
  const deviations = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) deviations[i] = Math.abs((xs[i] as number) - m);
  return quantileInPlace(deviations, 0.5);
}

/**
 * Fewest samples for an outlier flag: the median and MAD of fewer are themselves so loose that a
 * flag says more about the sample count than the sample (with 5, most rows carried one).
 */
const OUTLIER_MIN_N = 10;

/**
 * Indexes of samples beyond median ± k·MAD·MAD_TO_SD (the scale factor makes MAD estimate the
 * standard deviation for normal data). Flags only; the samples stay in the results.
 */
export function outlierIndexes(xs: readonly number[], k = OUTLIER_K): number[] {
  return xs.length < OUTLIER_MIN_N ? [] : outliersAbout(xs, median(xs), k);
}

/** outlierIndexes around `m`, the values' median. */
function outliersAbout(xs: readonly number[], m: number, k: number): number[] {
  if (xs.length < OUTLIER_MIN_N) return [];
  const spread = madAbout(xs, m) * MAD_TO_SD;
  if (spread === 0) return [];
  const out: number[] = [];
  for (let i = 0; i < xs.length; i++) if (Math.abs((xs[i] as number) - m) > k * spread) out.push(i);
  return out;
}

/**
 * P(X <= k) for X ~ Binomial(n, 1/2), summed in log space so n in the thousands stays exact
 * enough. The sums are kept, so asking for k, k+1, … adds one term each: a search over k costs
 * O(n), not O(n²) (2.9 ms a call at n = 1,000 before, on the page between every two samples).
 */
function binomialHalfCdf(n: number): (k: number) => number {
  const sums: number[] = [];
  let logTerm = -n * Math.LN2; // log C(n, 0) / 2^n
  let sum = Math.exp(logTerm);
  sums.push(sum);
  return (k) => {
    if (k < 0) return 0;
    if (k >= n) return 1;
    for (let i = sums.length; i <= k; i++) {
      logTerm += Math.log((n - i + 1) / i);
      sum += Math.exp(logTerm);
      sums.push(sum);
    }
    return Math.min(1, sums[k] as number);
  };
}

/** Smallest n with a 95% order-statistic interval of the median: [x(1), x(6)] covers 96.9%, n = 5 only 93.75%. */
export const MEDIAN_CI_MIN_N = 6;

/**
 * The 95% interval of the median from order statistics: distribution-free, because the number of
 * samples below the true median is Binomial(n, 1/2) whatever the distribution (benchmark times are
 * skewed, with a long right tail, so a normal-theory interval would not be honest). The exact
 * intervals [x(k), x(n-k+1)] jump in coverage; Hettmansperger and Sheather's interpolation
 * (1986, Statistics & Probability Letters 4:75-79) between the two nearest ones gives close to 95%
 * instead of up to 99%, so rows reach a precision target with fewer samples. `null` for n < 6.
 */
export function medianInterval(xs: readonly number[], level = 0.95): Interval | null {
  return xs.length < MEDIAN_CI_MIN_N ? null : intervalOfSorted(ascending(xs), level);
}

/** medianInterval of values already in ascending order. */
function intervalOfSorted(sorted: Float64Array, level: number): Interval | null {
  const n = sorted.length;
  if (n < MEDIAN_CI_MIN_N) return null;
  const at = (rank: number) => sorted[rank - 1] as number; // 1-based order statistic
  // Coverage of [x(k), x(n-k+1)] is 1 - 2·P(B <= k-1); take the largest k that still reaches the level.
  const cdf = binomialHalfCdf(n);
  const coverage = (k: number) => 1 - 2 * cdf(k - 1);
  let k = 1;
  while (k + 1 <= n / 2 && coverage(k + 1) >= level) k++;
  const outer = coverage(k);
  const inner = coverage(k + 1);
  if (k + 1 > n - k || outer === inner) return { lo: at(k), hi: at(n - k + 1) };
  const share = (outer - level) / (outer - inner);
  const lambda = ((n - k) * share) / (k + (n - 2 * k) * share);
  return {
    lo: lambda * at(k + 1) + (1 - lambda) * at(k),
    hi: lambda * at(n - k) + (1 - lambda) * at(n - k + 1),
  };
}

/** Batches of the drift check: 10, the low end of the 10 to 30 that batch-means analysis uses. */
const DRIFT_BATCHES = 10;
/** Fewest samples for the drift check: 3 per batch. */
const DRIFT_MIN_N = 3 * DRIFT_BATCHES;

/**
 * The interval of the median from batches of consecutive samples: split the samples, in the
 * order taken, into 10 batches, and take the Student-t interval of their medians' mean, centred
 * on the median. Samples of one run are not independent: a store's speed drifts in regimes that
 * last seconds (compaction, caches, the other core's work), and the order-statistic interval,
 * which assumes independence, then claims a precision that the next run does not reproduce (two
 * back-to-back runs here differed by 10 to 20% on rows whose intervals said ±1%). Batch medians
 * see that drift as spread. `null` below 30 samples.
 */
export function batchMedianInterval(xs: readonly number[]): Interval | null {
  return xs.length < DRIFT_MIN_N ? null : batchInterval(xs, median(xs));
}

/** batchMedianInterval around `m`, the values' median. */
function batchInterval(xs: readonly number[], m: number): Interval | null {
  const n = xs.length;
  if (n < DRIFT_MIN_N) return null;
  const medians: number[] = [];
  for (let b = 0; b < DRIFT_BATCHES; b++)
    medians.push(
      median(
        xs.slice(Math.floor((b * n) / DRIFT_BATCHES), Math.floor(((b + 1) * n) / DRIFT_BATCHES)),
      ),
    );
  const half =
    (tQuantile95(DRIFT_BATCHES - 1) * Math.sqrt(variance(medians))) / Math.sqrt(DRIFT_BATCHES);
  return { lo: m - half, hi: m + half };
}

/** Fewest samples of a pass whose median the pass check counts: two, so a median is an average of two. */
const PASS_CHECK_MIN_N = 2;

/** How far a row's passes disagree, from passSpread. */
export interface PassSpread {
  /** Standard deviation of a pass's own effect on the median, on the log scale (0: the passes agree within their noise). */
  tau: number;
  /** Sum of the squared shares of the samples in each pass: 1/passes when balanced, 1 when one pass holds them all. */
  weight: number;
  /** Robust standard deviation of a sample around its pass's median, on the log scale. */
  within: number;
  /** Samples in the passes counted. */
  n: number;
}

/**
 * The between-pass component of a row's samples, with `perPass` the samples taken in each pass, in
 * order: a one-way random-effects estimate on the log scale. The passes' medians scatter by their
 * sampling noise (passNoise) plus tau²; tau² is their variance less that noise, or 0. `noise` is
 * passNoise's value, for a caller that keeps it between samples (it changes slowly and costs a
 * millisecond or two at 1,000 samples). `null` with fewer than 2 passes of PASS_CHECK_MIN_N
 * samples, counts that do not add up, or a median of 0.
 */
export function passSpread(
  xs: readonly number[],
  perPass: readonly number[],
  noise?: number,
): PassSpread | null {
  const counted = countedPasses(xs, perPass);
  if (!counted) return null;
  const { passes, medians } = counted;
  const n = passes.reduce((a, p) => a + p.length, 0);
  const deviations = new Float64Array(n);
  let d = 0;
  passes.forEach((p, i) => {
    for (const x of p) if (x > 0) deviations[d++] = Math.abs(Math.log(x / (medians[i] as number)));
  });
  const within = MAD_TO_SD * quantileInPlace(deviations.subarray(0, d), 0.5);
  const between = variance(medians.map((m) => Math.log(m)));
  const tau = Math.sqrt(
    Math.max(
      0,
      between - (noise !== undefined && Number.isFinite(noise) ? noise : noiseOfPasses(passes)),
    ),
  );
  return { tau, weight: passes.reduce((a, p) => a + (p.length / n) ** 2, 0), within, n };
}

/** The passes passSpread counts (those of PASS_CHECK_MIN_N samples or more) with their medians, or null where it has none. */
function countedPasses(
  xs: readonly number[],
  perPass: readonly number[],
): { passes: number[][]; medians: number[] } | null {
  if (perPass.reduce((a, k) => a + k, 0) !== xs.length) return null;
  const passes: number[][] = [];
  let at = 0;
  for (const k of perPass) {
    if (k >= PASS_CHECK_MIN_N) passes.push(xs.slice(at, at + k));
    at += k;
  }
  if (passes.length < 2) return null;
  const medians = passes.map((p) => median(p));
  return medians.every((m) => m > 0) ? { passes, medians } : null;
}

/** Random regroupings passNoise averages over: its estimate then varies by about a tenth. */
const PASS_NOISE_DRAWS = 32;

/**
 * How far the passes' log medians would scatter if the passes did not differ: their variance,
 * averaged over PASS_NOISE_DRAWS seeded random regroupings of the row's samples into passes of the
 * same sizes. Not the normal-theory (π/2)·σ²/k of a median: times are skewed, with a long right
 * tail, and the median of a pass of 2 to 4 samples scatters far more than that says, so with it
 * passes that cannot differ (real rows' samples, shuffled over their passes) read a median tau of
 * 1 to 3% at 6 to 12 passes and 6% at 24. NaN where passSpread is null.
 */
export function passNoise(xs: readonly number[], perPass: readonly number[]): number {
  const counted = countedPasses(xs, perPass);
  return counted ? noiseOfPasses(counted.passes) : NaN;
}

/**
 * In place on one typed array, not random.shuffled and median: it runs between samples, up to 32
 * deals of 1,000 samples, and those copy and sort with a comparator, which measured 2.6 times slower.
 * Each pass's median is selected in one scratch array, not sorted in a copy: a pooled row of
 * millions of samples deals 32 times, and the garbage of those copies would exhaust a reader's memory.
 */
function noiseOfPasses(passes: readonly number[][]): number {
  let size = 0;
  for (const p of passes) size += p.length;
  const pool = new Float64Array(size);
  // A regrouped pass of samples under the timer step can have a median of 0, which has no log.
  let floor = Infinity;
  let at = 0;
  for (const p of passes) {
    for (const x of p) {
      pool[at++] = x;
      if (x > 0 && x < floor) floor = x;
    }
  }
  const scratch = new Float64Array(size);
  const rng = createRng(pool.length); // seeded by the count: the same samples always give the same value
  const logMedians: number[] = [];
  let sum = 0;
  for (let d = 0; d < PASS_NOISE_DRAWS; d++) {
    shuffleInPlace(pool, rng);
    at = 0;
    logMedians.length = 0;
    for (const p of passes) {
      scratch.set(pool.subarray(at, at + p.length));
      logMedians.push(Math.log(Math.max(floor, selectedMedian(scratch, p.length))));
      at += p.length;
    }
    sum += variance(logMedians);
  }
  return sum / PASS_NOISE_DRAWS;
}

function shuffleInPlace(xs: Float64Array, rng: Rng): void {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    const t = xs[i] as number;
    xs[i] = xs[j] as number;
    xs[j] = t;
  }
}

/** The median of xs[0, n), reordering them, as the midpoint of the two middle values: the value sorting gives, found by selection. */
function selectedMedian(xs: Float64Array, n: number): number {
  const pass = xs.subarray(0, n);
  const k = n >> 1;
  selectInPlace(pass, k);
  const upper = pass[k] as number;
  if (n % 2 === 1) return upper;
  // The lower middle is the largest of those selected below the upper one.
  let lower = -Infinity;
  for (let i = 0; i < k; i++) if ((pass[i] as number) > lower) lower = pass[i] as number;
  return (lower + upper) / 2;
}

/** Variance of the median's log from the passes' own effects, and from the samples' noise (see passInterval). */
function passVariances(s: PassSpread): { between: number; within: number } {
  return { between: s.tau ** 2 * s.weight, within: ((Math.PI / 2) * s.within ** 2) / s.n };
}

/**
 * The half-width, as a fraction of the median, that the passes' own effects alone give the pass
 * interval: exp(1.96·τ·√weight) − 1. More samples in a pass leave it; only more passes narrow it.
 */
export function passPart(s: PassSpread): number {
  return Math.expm1(Z975 * Math.sqrt(passVariances(s).between));
}

/**
 * Whether the passes' own effects, more than the samples' noise, set the width of the pass
 * interval: then more samples in one pass no longer narrow it.
 */
export function passesDominate(s: PassSpread | null): boolean {
  if (!s) return false;
  const v = passVariances(s);
  return v.between > v.within;
}

/**
 * The 95% interval of the median when each pass moves it by its own effect (passSpread): on the
 * log scale, ±z·sqrt(tau²·weight + (π/2)·within²/n) around the median. Its between-pass part
 * shrinks only as the samples spread evenly over more passes, not with more samples of one pass.
 * z rather than Student's t: with three passes a t quantile of 2 degrees of freedom (4.30) would
 * let a guess from three numbers decide every row; what the passes still miss, compare measures
 * between runs. `null` where passSpread is.
 */
export function passInterval(xs: readonly number[], perPass: readonly number[]): Interval | null {
  const spread = passSpread(xs, perPass);
  return spread ? intervalOverPasses(median(xs), spread) : null;
}

function intervalOverPasses(m: number, spread: PassSpread): Interval {
  const v = passVariances(spread);
  const half = Z975 * Math.sqrt(v.between + v.within);
  return { lo: m * Math.exp(-half), hi: m * Math.exp(half) };
}

/**
 * The 95% interval of the median that the tool reports: the order-statistic interval
 * (medianInterval), widened to the batch-median interval (drift within the run) and, given the
 * samples taken in each pass, to the pass interval (passInterval), where those are wider. A
 * machine's state differs between passes minutes apart by a few percent here, and a row whose
 * samples sit mostly in one pass carries that pass's state whole; the batches, cut by count, miss
 * it when one pass holds most of them. Samples in the order taken.
 */
export function medianCi(xs: readonly number[], perPass?: readonly number[]): Interval | null {
  return medianCiWith(xs, perPass ? passSpread(xs, perPass) : null);
}

/** medianCi from the passes' spread already taken (passSpread), for a caller that needs the spread too. */
export function medianCiWith(xs: readonly number[], spread: PassSpread | null): Interval | null {
  return xs.length < MEDIAN_CI_MIN_N ? null : ciOfSorted(xs, ascending(xs), spread);
}

/** medianCiWith from the samples in the order taken and in ascending order. */
function ciOfSorted(
  xs: readonly number[],
  sorted: Float64Array,
  spread: PassSpread | null,
): Interval | null {
  const os = intervalOfSorted(sorted, 0.95);
  if (!os) return null;
  const m = quantileOfSorted(sorted, 0.5);
  const wider = [batchInterval(xs, m), spread ? intervalOverPasses(m, spread) : null].filter(
    (i): i is Interval => i !== null,
  );
  return wider.reduce(
    (a, b) => ({ lo: Math.max(0, Math.min(a.lo, b.lo)), hi: Math.max(a.hi, b.hi) }),
    os,
  );
}

/** A median with its 95% interval (medianCi), the samples sorted once for both. */
export function medianWithCi(xs: readonly number[], perPass?: readonly number[]): MedianWithCi {
  const sorted = ascending(xs);
  return {
    median: quantileOfSorted(sorted, 0.5),
    ci: ciOfSorted(xs, sorted, perPass ? passSpread(xs, perPass) : null),
  };
}

/**
 * How precisely a row's median is known: the larger side of its 95% interval as a fraction of the
 * median, so "median ± precision" contains the whole interval. `null` with no interval; 0 for a
 * median of 0 with a zero-width interval (a row below the timer step).
 */
export function medianPrecision(stats: Pick<Stats, 'median' | 'medianCi'>): number | null {
  const ci = stats.medianCi;
  if (!ci) return null;
  const side = Math.max(stats.median - ci.lo, ci.hi - stats.median);
  if (stats.median <= 0) return side <= 0 ? 0 : Infinity;
  return side / stats.median;
}

/** The ratio of two medians, median(b) / median(a), with its 95% interval. */
export interface MedianRatio {
  ratio: number;
  lo: number;
  hi: number;
}

/**
 * The 95% interval of median(b) / median(a) from the two medians' own intervals (medianCi), after
 * Price and Bonett (2002, J. Statist. Comput. Simul. 72:119-124): on the log scale each median's
 * standard error is its interval's width over 2 × 1.96, the two add in quadrature, and the
 * interval maps back to a ratio. On the log scale because times are skewed and a slowdown is a
 * factor; from the medians' intervals so that the comparison inherits their allowance for drift
 * and, given each side's samples per pass, for passes that disagree.
 * `null` when a side has no interval (n < 6) or a median or bound of 0 (no log).
 */
export function medianRatio(
  a: readonly number[],
  b: readonly number[],
  perPassA?: readonly number[],
  perPassB?: readonly number[],
): MedianRatio | null {
  return ratioOfMedians(
    { median: median(a), ci: medianCi(a, perPassA) },
    { median: median(b), ci: medianCi(b, perPassB) },
  );
}

/** A median with its 95% interval, as kept for a side that is not all at hand (a baseline row). */
export interface MedianWithCi {
  median: number;
  ci: Interval | null;
}

/** medianRatio from the two medians and their intervals. */
export function ratioOfMedians(a: MedianWithCi, b: MedianWithCi): MedianRatio | null {
  const ia = a.ci;
  const ib = b.ci;
  if (!ia || !ib || !(ia.lo > 0 && ib.lo > 0 && a.median > 0 && b.median > 0)) return null;
  const se = Math.hypot(Math.log(ia.hi / ia.lo), Math.log(ib.hi / ib.lo)) / (2 * Z975);
  return widenRatio({ y: Math.log(b.median / a.median), se }, 0);
}

/** A ratio on the log scale: its log, and that log's standard error. */
export interface LogRatio {
  y: number;
  se: number;
}

/** The log and standard error of a ratio with a 95% interval (as medianRatio gives it). */
export function logRatio(r: MedianRatio): LogRatio {
  return { y: Math.log(r.ratio), se: Math.log(r.hi / r.lo) / (2 * Z975) };
}

/** The ratio with its interval widened by an extra spread `tau` on the log scale, added in quadrature. */
export function widenRatio(r: LogRatio, tau: number): MedianRatio {
  const half = Z975 * Math.hypot(r.se, tau);
  return { ratio: Math.exp(r.y), lo: Math.exp(r.y - half), hi: Math.exp(r.y + half) };
}

/** Fewest rows that the run-to-run spread is estimated from: with fewer, a median of them says little. */
export const RUN_TO_RUN_MIN_ROWS = 10;

/** Median of the chi-square distribution with 1 degree of freedom. */
const CHI2_1_MEDIAN = 0.454936423119572;

/**
 * How far rows moved between two runs beyond what their own intervals allow: the standard
 * deviation tau, on the log scale, of a run-to-run effect each row gets anew (the between-run
 * variance component of a random-effects model). A run's intervals cannot see it: a browser
 * launch and the machine's state over minutes move every row of a run a little, each its own way.
 * Estimated like Paule and Mandel's (1982, J. Res. NBS 87:377-385), which solves
 * sum (y - centre)^2 / (se^2 + tau^2) = k - 1, but with medians: the median of those terms is set to
 * the median of chi-square(1), around the shift every row shares (sharedShift, the median log
 * ratio), so rows that really changed (a minority) do not count as spread, and a change of every
 * row shows as a shift, not as spread. tau is 0 when the rows' own intervals already explain how
 * they scatter, or below RUN_TO_RUN_MIN_ROWS (no shift).
 */
export function runToRunSpread(
  rows: readonly LogRatio[],
  shift: LogRatio | null = sharedShift(rows),
): { tau: number } {
  return { tau: shift ? spreadAround(rows, shift.y) : 0 };
}

/**
 * The change every row of a browser shares between two runs (the machine's state, the browser's
 * launch, or a change in code every row runs): the median of the rows' log ratios, with a standard
 * error from that median's distribution-free interval (medianInterval), so the few rows that
 * really changed neither move it much nor narrow it. Why: with one run per side such a shift
 * cannot be told from a change of every store, and it would otherwise make every row whose own
 * interval is narrower than it read as a change. Null below RUN_TO_RUN_MIN_ROWS rows.
 */
export function sharedShift(rows: readonly LogRatio[]): LogRatio | null {
  if (rows.length < RUN_TO_RUN_MIN_ROWS) return null;
  const ys = ascending(rows.map((r) => r.y));
  const ci = intervalOfSorted(ys, 0.95);
  return ci && { y: quantileOfSorted(ys, 0.5), se: (ci.hi - ci.lo) / (2 * Z975) };
}

/** A row's log ratio net of the shift every row shares: the difference, the two errors in quadrature (conservative: the row is one of those the shift is the median of). */
export function netOf(row: LogRatio, shift: LogRatio | null): LogRatio {
  return shift ? { y: row.y - shift.y, se: Math.hypot(row.se, shift.se) } : row;
}

/** runToRunSpread's tau: the root of its median equation, by bisection. */
function spreadAround(rows: readonly LogRatio[], centre: number): number {
  // A row on the centre adds 0, also with a zero-width interval (constant samples), not 0/0.
  const term = (r: LogRatio, tau: number) =>
    r.y === centre ? 0 : (r.y - centre) ** 2 / (r.se ** 2 + tau ** 2);
  const excess = (tau: number) => median(rows.map((r) => term(r, tau))) - CHI2_1_MEDIAN;
  if (excess(0) <= 0) return 0;
  // excess falls as tau grows; the rows' own spread around the centre bounds the root.
  let lo = 0;
  let widest = -Infinity;
  for (const r of rows) widest = Math.max(widest, Math.abs(r.y - centre));
  let hi = widest * 2 + 1e-9;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (excess(mid) > 0) lo = mid;
    else hi = mid;
  }
  return hi;
}

export function summarize(samples: readonly number[], perPass?: readonly number[]): Stats {
  return summaryOfSorted(samples, ascending(samples), perPass);
}

/** summarize, with the samples also in ascending order. */
function summaryOfSorted(
  samples: readonly number[],
  sorted: Float64Array,
  perPass?: readonly number[],
): Stats {
  const n = samples.length;
  if (n === 0)
    return {
      n: 0,
      min: NaN,
      max: NaN,
      mean: NaN,
      median: NaN,
      stddev: 0,
      ci95: null,
      medianCi: null,
    };
  let min = Infinity;
  let max = -Infinity;
  for (const x of samples) {
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const sd = Math.sqrt(variance(samples));
  return {
    n,
    min,
    max,
    mean: mean(samples),
    median: quantileOfSorted(sorted, 0.5),
    stddev: sd,
    ci95: n < 2 ? null : (tQuantile95(n - 1) * sd) / Math.sqrt(n),
    medianCi: ciOfSorted(samples, sorted, perPass ? passSpread(samples, perPass) : null),
  };
}

/**
 * A row's noise: the standard deviation of its samples' logs inside one pass, pooled over the
 * passes with 2 or more samples (each pass's squared deviations from its own mean log, over their
 * degrees of freedom). Within a pass, so what a launch or a pass does to every sample is not in it;
 * on the log scale, so rows of 5 ms and of 1.5 s compare; every sample counted, tails included,
 * because the tails are the noise a cure has to remove. `null` with no pass of 2 positive samples.
 */
export function withinPassLogSd(
  samples: readonly number[],
  perPass: readonly number[] = [samples.length],
): number | null {
  const counts = perPass.reduce((a, k) => a + k, 0) === samples.length ? perPass : [samples.length];
  let squares = 0;
  let df = 0;
  let at = 0;
  for (const k of counts) {
    const logs = samples
      .slice(at, at + k)
      .filter((x) => x > 0)
      .map(Math.log);
    at += k;
    if (logs.length < 2) continue;
    const m = mean(logs);
    for (const l of logs) squares += (l - m) ** 2;
    df += logs.length - 1;
  }
  return df > 0 ? Math.sqrt(squares / df) : null;
}

/** What a results row derives from its samples: never trusted from a file, always recomputed. */
export function derivedFromSamples(
  samples: readonly number[],
  perPass?: readonly number[],
): {
  stats: Stats;
  precision: number | null;
  noise: number | null;
  outliers: { k: number; indexes: number[] };
} {
  const stats = summaryOfSorted(samples, ascending(samples), perPass);
  return {
    stats,
    precision: medianPrecision(stats),
    noise: withinPassLogSd(samples, perPass),
    outliers: { k: OUTLIER_K, indexes: outliersAbout(samples, stats.median, OUTLIER_K) },
  };
}

/** Operations per second for a sample that covered `operations` operations in `ms`. */
export function opsPerSecond(ms: number, operations: number): number {
  return ms > 0 ? (operations * 1000) / ms : Infinity;
}

/**
 * The 95% Wilson score interval of a proportion, k successes in n independent trials (the crash
 * suite: kills that lost an acknowledged write). Chosen over the normal approximation because it
 * stays honest at 0 of n and n of n, where that one collapses to a zero-width interval: 0 losses
 * in 20 kills still allows a loss rate up to 16%. `null` for n = 0.
 */
export function wilsonInterval(k: number, n: number): Interval | null {
  if (n === 0) return null;
  const z = Z975;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { lo: Math.max(0, centre - half), hi: Math.min(1, centre + half) };
}
