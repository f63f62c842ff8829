// What a finding's ratio should be, written out apart from the module under test.
import type { CaseResult } from '../../../src/core/results/results.ts';
import { median } from '../../../src/core/stats/stats.ts';

const perOp = (row: CaseResult) => median(row.samples) / row.operations;

/**
 * slower ÷ faster per operation as the findings take it, written out independently: over the
 * passes both rows sampled in, the geometric mean of each pass's ratio of medians when there
 * are 3 or more such passes, else the ratio of the two medians.
 */
export function expectedRatio(slower: CaseResult, faster: CaseResult): number {
  const passes = (row: CaseResult) => {
    const out: number[][] = [];
    let at = 0;
    for (const k of row.samplesPerPass ?? [row.samples.length]) {
      out.push(row.samples.slice(at, at + k));
      at += k;
    }
    return out;
  };
  const [s, f] = [passes(slower), passes(faster)];
  const logs = s.flatMap((xs, p) => {
    const ys = f[p] ?? [];
    return xs.length > 0 && ys.length > 0
      ? [Math.log(median(xs) / slower.operations / (median(ys) / faster.operations))]
      : [];
  });
  if (logs.length < 3) return perOp(slower) / perOp(faster);
  return Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length);
}
