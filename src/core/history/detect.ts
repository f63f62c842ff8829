/**
 * Change points of one series, as Apache Otava finds them (Fleming et al., ICPE 2023): split
 * top-down with E-divisive means and a permutation test (e-divisive.ts), then merge bottom-up the
 * changes whose weighted t-test is weak or whose change is small (merge.ts). The values are the
 * points' medians on the log scale, so a step is a factor, whatever the row's speed.
 */
import { eDivisive } from './e-divisive.ts';
import { mergeWeak, type TestedChange } from './otava-merge.ts';
import type { LogPoint } from './weighted-test.ts';

export interface DetectorOptions {
  /** The split's permutation test: significance level, permutations, seed. */
  splitAlpha: number;
  permutations: number;
  seed: number;
  /** The merge's t-test: a change point stays with a p-value below this. */
  mergeAlpha: number;
  /** ...and a change of at least this share of the level before it. */
  minMagnitude: number;
  /** Fewest points on each side of a change. */
  minSize: number;
}

/**
 * Split at 5% (Matteson and James's default significance level) with 199 permutations (their
 * package's default, enough to resolve a p-value of 0.05), merge at 1% (Otava splits at ten times
 * its merge level), and no change under 2%: the precision the sampling aims each median at.
 */
export const DETECTOR_DEFAULTS: DetectorOptions = {
  splitAlpha: 0.05,
  permutations: 199,
  seed: 1,
  mergeAlpha: 0.01,
  minMagnitude: 0.02,
  minSize: 2,
};

/**
 * The fewest points a change can be found in at the split's level: the permutation test's smallest
 * p-value, for points wholly apart on either side of the middle, is 2 / C(n, n/2) (the order and
 * its mirror image), which must reach alpha: 8 points at 5%.
 */
export function fewestPoints(alpha: number, minSize = DETECTOR_DEFAULTS.minSize): number {
  for (let n = 2 * minSize; ; n++) {
    let c = 1;
    for (let i = 1; i <= Math.floor(n / 2); i++) c = (c * (n - i + 1)) / i;
    if (2 / c <= alpha) return n;
  }
}

export type Detection =
  { kind: 'too short'; points: number; needed: number } | { kind: 'done'; changes: TestedChange[] };

export function detectChanges(
  points: readonly LogPoint[],
  options: Partial<DetectorOptions> = {},
): Detection {
  const o = { ...DETECTOR_DEFAULTS, ...options };
  const needed = fewestPoints(o.splitAlpha, o.minSize);
  if (points.length < needed) return { kind: 'too short', points: points.length, needed };
  const splits = eDivisive(
    points.map((p) => p.y),
    { alpha: o.splitAlpha, permutations: o.permutations, minSize: o.minSize, seed: o.seed },
  );
  const changes = mergeWeak(
    points,
    splits.map((s) => s.index),
    { alpha: o.mergeAlpha, minMagnitude: o.minMagnitude },
  );
  return { kind: 'done', changes };
}
