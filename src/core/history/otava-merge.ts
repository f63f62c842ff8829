/**
 * The merge half of Apache Otava (Hunter; Fleming et al., ICPE 2023): bottom-up, the weakest
 * change point goes, its neighbours' tests are taken again over the wider segments, until every
 * one left has a t-test p-value below the limit and a change of at least the minimum magnitude.
 * The weakest: the largest p-value while one is at or above the limit, else the smallest change.
 */
import { twoSampleTest, type LogPoint, type TwoSampleTest } from './weighted-test.ts';

export interface MergeOptions {
  /** A change point stays only with a p-value below this. */
  alpha: number;
  /** ...and a change of at least this share of the level before it (0.02: 2%). */
  minMagnitude: number;
}

export interface TestedChange {
  /** Index of the first point after the change. */
  index: number;
  /** The test of the segment after it against the one before, each up to the next change. */
  test: TwoSampleTest;
}

/** The change as a share of the level before it, as Otava's magnitude. */
const magnitudeOf = (t: TwoSampleTest) => Math.abs(Math.expm1(t.diff));

function tested(points: readonly LogPoint[], indexes: readonly number[]): TestedChange[] {
  return indexes.map((index, i) => {
    const from = i === 0 ? 0 : (indexes[i - 1] as number);
    const to = i + 1 < indexes.length ? (indexes[i + 1] as number) : points.length;
    const test = twoSampleTest(points.slice(from, index), points.slice(index, to));
    // A split always leaves two points a side, so a test exists; a p of 1 drops it otherwise.
    return {
      index,
      test: test ?? {
        before: { y: 0, weight: 0, n: 0 },
        after: { y: 0, weight: 0, n: 0 },
        diff: 0,
        se: 0,
        half: 0,
        df: 0,
        p: 1,
        tau: 0,
      },
    };
  });
}

/** The index among `changes` of the one to drop, or -1 when all are strong enough. */
function weakest(changes: readonly TestedChange[], opts: MergeOptions): number {
  let worstP = -1;
  for (let i = 0; i < changes.length; i++)
    if (worstP < 0 || changes[i]!.test.p > changes[worstP]!.test.p) worstP = i;
  if (worstP >= 0 && changes[worstP]!.test.p >= opts.alpha) return worstP;
  let smallest = -1;
  for (let i = 0; i < changes.length; i++)
    if (smallest < 0 || magnitudeOf(changes[i]!.test) < magnitudeOf(changes[smallest]!.test))
      smallest = i;
  return smallest >= 0 && magnitudeOf(changes[smallest]!.test) < opts.minMagnitude ? smallest : -1;
}

/** The change points among `indexes` (ascending) that survive the merge, each with its test. */
export function mergeWeak(
  points: readonly LogPoint[],
  indexes: readonly number[],
  opts: MergeOptions,
): TestedChange[] {
  let kept = [...indexes];
  for (;;) {
    const changes = tested(points, kept);
    const drop = weakest(changes, opts);
    if (drop < 0) return changes;
    kept = kept.filter((_, i) => i !== drop);
  }
}
