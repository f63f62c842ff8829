/**
 * Distribution functions the statistics need beyond tables: Student's t, for p-values of tests
 * over a handful of passes. Pure numerics, no imports.
 */

/** ln Γ(x) for x > 0, Lanczos' approximation (g = 7, 9 terms): within 1e-13 of the true value. */
function logGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const y = x - 1;
  let a = c[0] as number;
  const t = y + 7.5;
  for (let i = 1; i < 9; i++) a += (c[i] as number) / (y + i);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

/** The continued fraction of the incomplete beta function (modified Lentz), for x < (a+1)/(a+b+2). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  const clamp = (v: number) => (Math.abs(v) < tiny ? tiny : v);
  let c = 1;
  let d = 1 / clamp(1 - ((a + b) * x) / (a + 1));
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    const even = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 / clamp(1 + even * d);
    c = clamp(1 + even / c);
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 / clamp(1 + odd * d);
    c = clamp(1 + odd / c);
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b), for 0 ≤ x ≤ 1. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x),
  );
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(x, a, b)) / a
    : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/**
 * P(T ≤ t) for Student's t with `df` degrees of freedom: for a whole df up to 200 by its finite
 * series in θ = atan(t/√df) (Abramowitz and Stegun 26.7.3 and 26.7.4), exact and quick; else
 * through the incomplete beta function.
 */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive, got ${df}`);
  if (!Number.isFinite(t)) return t > 0 ? 1 : 0;
  if (Number.isInteger(df) && df <= 200) {
    const inside = seriesInside(Math.abs(t), df);
    return t >= 0 ? 0.5 + inside / 2 : 0.5 - inside / 2;
  }
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t > 0 ? 1 - tail : tail;
}

/** P(|T| ≤ t), t ≥ 0, for a whole df: A(t|ν) of Abramowitz and Stegun 26.7.3 (odd ν) and 26.7.4 (even ν). */
function seriesInside(t: number, df: number): number {
  const theta = Math.atan(t / Math.sqrt(df));
  const c2 = Math.cos(theta) ** 2;
  const sin = Math.sin(theta);
  if (df % 2 === 0) {
    let term = 1;
    let sum = 1;
    for (let k = 2; k <= df - 2; k += 2) {
      term *= ((k - 1) / k) * c2;
      sum += term;
    }
    return sin * sum;
  }
  if (df === 1) return (2 / Math.PI) * theta;
  let term = 1;
  let sum = 1;
  for (let k = 3; k <= df - 2; k += 2) {
    term *= ((k - 1) / k) * c2;
    sum += term;
  }
  return (2 / Math.PI) * (theta + sin * Math.cos(theta) * sum);
}

const tQuantiles = new Map<string, number>();

/**
 * The quantile of Student's t: t with P(T ≤ t) = p at `df` degrees of freedom, by bisection on
 * studentTCdf (exact to 1e-10), remembered: the runner asks for the same few again and again.
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be positive, got ${df}`);
  if (!(p > 0 && p < 1)) {
    if (p === 0) return -Infinity;
    if (p === 1) return Infinity;
    throw new RangeError(`a probability must be in [0, 1], got ${p}`);
  }
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  const key = `${p}|${df}`;
  const known = tQuantiles.get(key);
  if (known !== undefined) return known;
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p && hi < 1e12) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-10 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  const t = (lo + hi) / 2;
  if (tQuantiles.size > 4096) tQuantiles.clear();
  tQuantiles.set(key, t);
  return t;
}

/**
 * P(Z ≤ z) for the standard normal, through the complementary error function by Numerical
 * Recipes' Chebyshev fit (erfcc, fractional error under 1.2e-7): for changes whose error is taken
 * as normal (two runs' medians, compare.ts), as Student's t with infinite degrees of freedom.
 */
export function normalCdf(z: number): number {
  if (!Number.isFinite(z)) return z > 0 ? 1 : 0;
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 +
                            t *
                              (-1.13520398 +
                                t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** Student's t, or the normal where `df` is Infinity: P(T ≤ t). */
export function tOrNormalCdf(t: number, df: number): number {
  return df === Infinity ? normalCdf(t) : studentTCdf(t, df);
}

/** The quantile of Student's t, or of the normal where `df` is Infinity (by bisection on normalCdf). */
export function tOrNormalQuantile(p: number, df: number): number {
  if (df !== Infinity) return studentTQuantile(p, df);
  if (p <= 0 || p >= 1) return p <= 0 ? -Infinity : Infinity;
  let lo = -40;
  let hi = 40;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (normalCdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** The density of chi-square with `df` degrees of freedom at x ≥ 0. */
export function chiSquarePdf(x: number, df: number): number {
  if (x <= 0) return df === 2 ? 0.5 : 0;
  const k = df / 2;
  return Math.exp((k - 1) * Math.log(x) - x / 2 - k * Math.LN2 - logGamma(k));
}
