/**
 * What each change point of a series means for a build: its ratio with a 95% interval, judged
 * against the threshold as `compare` judges a row (compare.ts verdictOf), and undecided where the
 * machine or the browser build changed at the same point, since the series cannot tell the two
 * apart. The gate reads the newest change of each series: the newest segment against the one
 * before it.
 */
import { verdictOf, type Verdict } from '../verdicts/compare.ts';
import { GATE_EXIT } from '../verdicts/gate.ts';
import type { TestedChange } from './otava-merge.ts';
import type { HistoryPoint, Series } from './series.ts';

export type ChangeVerdict =
  Extract<Verdict, 'regression' | 'inconclusive' | 'slower' | 'faster' | 'same'> | 'undecided';

export interface HistoryChange {
  /** Index into the series' points of the first point after the change. */
  index: number;
  /** The points on either side. */
  before: HistoryPoint;
  after: HistoryPoint;
  /** Each segment's level in ms: the weighted mean of its points' net medians on the log scale. */
  levelBefore: number;
  levelAfter: number;
  /** After over before, in %, with its 95% interval (Student's t on the weighted test's error). */
  pct: number;
  low: number;
  high: number;
  /** The merge test's p-value. */
  p: number;
  verdict: ChangeVerdict;
  /** What else changed at this point: the machine or the browser build, as the files record them. */
  environment: string[];
}

const pct = (y: number) => 100 * Math.expm1(y);

/** What differs between the environments of the points either side of a change. */
function environmentChange(a: HistoryPoint, b: HistoryPoint): string[] {
  const differs = (x: readonly string[], y: readonly string[]) =>
    x.length !== y.length || x.some((v) => !y.includes(v));
  const out: string[] = [];
  if (differs(a.machines, b.machines))
    out.push(`machine ${a.machines.join(' + ')} → ${b.machines.join(' + ')}`);
  if (differs(a.builds, b.builds))
    out.push(`browser build ${a.builds.join(' + ')} → ${b.builds.join(' + ')}`);
  if (differs(a.setups, b.setups))
    out.push(`measured with ${a.setups.join(' + ')} → ${b.setups.join(' + ')}`);
  return out;
}

/** A tested change of the detector's points (`used`: their indexes in the series) as a verdict. */
export function judgeChange(
  series: Series,
  used: readonly number[],
  change: TestedChange,
  thresholdPct: number,
): HistoryChange {
  const index = used[change.index] as number;
  const before = series.points[used[change.index - 1] as number] as HistoryPoint;
  const after = series.points[index] as HistoryPoint;
  const t = change.test;
  const interval = { pct: pct(t.diff), low: pct(t.diff - t.half), high: pct(t.diff + t.half) };
  const environment = environmentChange(before, after);
  return {
    index,
    before,
    after,
    levelBefore: Math.exp(t.before.y),
    levelAfter: Math.exp(t.after.y),
    ...interval,
    p: t.p,
    verdict:
      environment.length > 0
        ? 'undecided'
        : (verdictOf(interval, thresholdPct) as Exclude<ChangeVerdict, 'undecided'>),
    environment,
  };
}

export interface SeriesGateInput {
  series: Series;
  changes: readonly HistoryChange[];
}

/**
 * 1 when some series' newest change is slower beyond the threshold; else 3 when some series'
 * newest change is undecided (the environment changed with it) and its interval reaches past the
 * threshold; else 0. A change before the newest one is history: a later change has answered it.
 */
export function historyExit(
  all: readonly SeriesGateInput[],
  thresholdPct: number,
): (typeof GATE_EXIT)[keyof typeof GATE_EXIT] {
  const newest = all.flatMap((s) => s.changes.slice(-1));
  if (newest.some((c) => c.verdict === 'regression')) return GATE_EXIT.regression;
  if (newest.some((c) => c.verdict === 'undecided' && c.high > thresholdPct))
    return GATE_EXIT.undecided;
  return GATE_EXIT.ok;
}
