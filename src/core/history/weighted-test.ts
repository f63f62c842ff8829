/**
 * The two-sample test of the merge step, weighted by each point's own interval: a weighted least
 * squares fit of one level per segment, with random-effects weights 1 / (se² + tau²) (tau²: the
 * scatter between points beyond their intervals, DerSimonian and Laird 1986, pooled over both
 * segments), its variance scaled by the weighted residual variance, never below 1 (Hartung and
 * Knapp 2001, in its modified form), and Student's t with n - 2 degrees of freedom. With equal
 * intervals it is Student's two-sample t-test, which Otava's merge step runs.
 */
import { studentTCdf } from '../stats/distributions.ts';
import { tQuantile95 } from '../stats/stats.ts';

/** A point on the log scale: its value and that value's standard error (from its 95% interval). */
export interface LogPoint {
  y: number;
  se: number;
}

/** One segment's level: the weighted mean on the log scale, and the sum of its weights. */
export interface Level {
  y: number;
  weight: number;
  n: number;
}

export interface TwoSampleTest {
  before: Level;
  after: Level;
  /** after - before on the log scale, its standard error and 95% half-width. */
  diff: number;
  se: number;
  half: number;
  df: number;
  /** Two-sided p-value of no change. */
  p: number;
  /** tau on the log scale: the scatter between points that their own intervals leave out. */
  tau: number;
}

/** No point's median is trusted beyond ±0.1% on the log scale: the timer step and the run's drift bound any median's precision, and a zero-width interval (constant samples) must not take all the weight. */
const SE_FLOOR = 0.001 / 1.959963984540054;

const seOf = (p: LogPoint) => Math.max(p.se, SE_FLOOR);

function level(points: readonly LogPoint[], tau2: number): Level {
  let sw = 0;
  let swy = 0;
  for (const p of points) {
    const w = 1 / (seOf(p) ** 2 + tau2);
    sw += w;
    swy += w * p.y;
  }
  return { y: swy / sw, weight: sw, n: points.length };
}

/** Sum of w (y - level)² within each segment: Cochran's Q of the two-level fit. */
function residual(segments: readonly (readonly LogPoint[])[], tau2: number): number {
  let q = 0;
  for (const seg of segments) {
    const l = level(seg, tau2);
    for (const p of seg) q += (p.y - l.y) ** 2 / (seOf(p) ** 2 + tau2);
  }
  return q;
}

/** DerSimonian and Laird's tau², pooled over the segments around each one's own level. */
function scatterBeyondIntervals(segments: readonly (readonly LogPoint[])[]): number {
  const df = segments.reduce((s, seg) => s + seg.length - 1, 0);
  const q = residual(segments, 0);
  let c = 0;
  for (const seg of segments) {
    let sw = 0;
    let sw2 = 0;
    for (const p of seg) {
      const w = 1 / seOf(p) ** 2;
      sw += w;
      sw2 += w * w;
    }
    c += sw - sw2 / sw;
  }
  return c > 0 ? Math.max(0, (q - df) / c) : 0;
}

/** The test of `after` against `before`; null when there are fewer than 3 points in all (no degree of freedom). */
export function twoSampleTest(
  before: readonly LogPoint[],
  after: readonly LogPoint[],
): TwoSampleTest | null {
  const df = before.length + after.length - 2;
  if (before.length < 1 || after.length < 1 || df < 1) return null;
  const segments = [before, after];
  const tau2 = scatterBeyondIntervals(segments);
  const a = level(before, tau2);
  const b = level(after, tau2);
  const scale = Math.max(1, residual(segments, tau2) / df);
  const se = Math.sqrt(scale * (1 / a.weight + 1 / b.weight));
  const diff = b.y - a.y;
  const t = se > 0 ? diff / se : diff === 0 ? 0 : Infinity;
  const p = 2 * (1 - studentTCdf(Math.abs(t), df));
  return { before: a, after: b, diff, se, half: tQuantile95(df) * se, df, p, tau: Math.sqrt(tau2) };
}
