/**
 * The history room (src/core/history/): results over time: series of rows across documents, their
 * change points and verdicts. It imports base, stats, verdicts and results, nothing above: the run
 * never needs it.
 *
 * `history` from results documents to a report: the series (series.ts), each one's change points
 * (detect.ts) and their verdicts (verdicts.ts), and the exit code. Pure, for the CLI and the page.
 */
import { deriveSeed } from '../../../fixtures/random.ts';
import { DEFAULT_THRESHOLD_PCT } from '../verdicts/compare.ts';
import { RUN_EXIT, type RunOutcome } from '../verdicts/change.ts';
import { DETECTOR_DEFAULTS, detectChanges, type DetectorOptions } from './detect.ts';
import {
  buildSeries,
  type HistoryBy,
  type HistoryInput,
  type HistoryRun,
  type Series,
} from './series.ts';
import { changeAt, historyOutcome, judgeHistory, type HistoryChange } from './verdicts.ts';

export interface SeriesHistory {
  series: Series;
  /** Too short: fewer points with an interval than a change can be found in (`needed`). */
  tooShort: { points: number; needed: number } | null;
  changes: HistoryChange[];
  /** Points left out of the detection: no interval (fewer than 6 samples) or no median. */
  unused: number;
}

export interface HistoryReport {
  by: HistoryBy;
  thresholdPct: number;
  series: SeriesHistory[];
  runs: HistoryRun[];
  outcome: RunOutcome;
  code: (typeof RUN_EXIT)[RunOutcome];
}

export interface HistoryOptions {
  by: HistoryBy;
  thresholdPct: number;
  detector: Partial<DetectorOptions>;
}

/** One series' change points, judged later with every other series' (judgeHistory); each series draws its permutations from a seed of its own. */
function seriesHistory(series: Series, detector: Partial<DetectorOptions> = {}): SeriesHistory {
  const used: number[] = [];
  series.points.forEach((p, i) => {
    if (p.log) used.push(i);
  });
  const seed = deriveSeed(detector.seed ?? DETECTOR_DEFAULTS.seed, series.id);
  const found = detectChanges(
    used.map((i) => series.points[i]!.log!),
    { ...detector, seed },
  );
  const unused = series.points.length - used.length;
  if (found.kind === 'too short')
    return {
      series,
      tooShort: { points: found.points, needed: found.needed },
      changes: [],
      unused,
    };
  return {
    series,
    tooShort: null,
    changes: found.changes.map((c) => changeAt(series, used, c)),
    unused,
  };
}

export function historyOf(
  inputs: readonly HistoryInput[],
  options: Partial<HistoryOptions> = {},
): HistoryReport {
  const by = options.by ?? 'commit';
  const thresholdPct = options.thresholdPct ?? DEFAULT_THRESHOLD_PCT;
  const built = buildSeries(inputs, by);
  const series = built.series.map((s) => seriesHistory(s, options.detector));
  judgeHistory(
    series.flatMap((s) => s.changes),
    thresholdPct,
  );
  const outcome = historyOutcome(series, thresholdPct);
  return { by, thresholdPct, series, runs: built.runs, outcome, code: RUN_EXIT[outcome] };
}
