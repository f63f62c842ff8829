/**
 * What each change point of a series means for a build: its ratio with a 95% interval, judged by
 * the gate's one rule (core/verdicts/change.ts) over every change point of every series as one
 * family, and undecided where the machine or the browser build changed at the same point, since
 * the series cannot tell the two apart. The gate reads the newest change of each series: the
 * newest segment against the one before it.
 */
import type { ChangeVerdict } from '../schema/vocabulary.ts';
import { judgeChanges, type Change, type RunOutcome } from '../verdicts/change.ts';
import type { TestedChange } from './otava-merge.ts';
import type { HistoryPoint, Series } from './series.ts';

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
  /** The change as the gate's rule reads it. */
  change: Change;
  verdict: ChangeVerdict;
  /** The smallest slowdown, in %, the series would have caught at this point with 80% probability. */
  detectablePct: number;
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

/** A tested change of the detector's points (`used`: their indexes in the series), before the family judges it. */
export function changeAt(
  series: Series,
  used: readonly number[],
  tested: TestedChange,
): HistoryChange {
  const index = used[tested.index] as number;
  const before = series.points[used[tested.index - 1] as number] as HistoryPoint;
  const after = series.points[index] as HistoryPoint;
  const t = tested.test;
  return {
    index,
    before,
    after,
    levelBefore: Math.exp(t.before.y),
    levelAfter: Math.exp(t.after.y),
    pct: pct(t.diff),
    low: pct(t.diff - t.half),
    high: pct(t.diff + t.half),
    p: t.p,
    change: { log: t.diff, se: t.se, df: t.df, lo: t.diff - t.half, hi: t.diff + t.half },
    verdict: 'undecided',
    detectablePct: Infinity,
    environment: environmentChange(before, after),
  };
}

/**
 * Every change point of every series judged as one family by the gate's rule; a change that came
 * with a change of machine or browser build stays undecided, whatever its size.
 */
export function judgeHistory(changes: readonly HistoryChange[], thresholdPct: number): void {
  const judged = judgeChanges(
    changes.map((c) => c.change),
    thresholdPct,
  );
  changes.forEach((c, i) => {
    const j = judged[i];
    if (!j) return;
    c.verdict = c.environment.length > 0 ? 'undecided' : j.verdict;
    c.detectablePct = pct(Math.log(j.detectable ?? Infinity));
  });
}

export interface SeriesGateInput {
  changes: readonly HistoryChange[];
}

/**
 * `fail` when some series' newest change is slower; else `undecided` when some series' newest
 * change is undecided because the environment changed with it and its interval reaches past the
 * threshold; else `pass`. A change before the newest one is history: a later change has answered it.
 */
export function historyOutcome(all: readonly SeriesGateInput[], thresholdPct: number): RunOutcome {
  const newest = all.flatMap((s) => s.changes.slice(-1));
  if (newest.some((c) => c.verdict === 'slower')) return 'fail';
  if (newest.some((c) => c.environment.length > 0 && c.high > thresholdPct)) return 'undecided';
  return 'pass';
}
