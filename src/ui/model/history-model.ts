/**
 * The explorer's trends: which rows have a history in the loaded files, the one chosen, and what
 * its chart shows (each point's net and raw median with the net's interval, the level of the
 * segment it belongs to, the change points). Pure, over src/core/history, which `npm run history`
 * shares: the page and the CLI find the same changes in the same files.
 */
import { historyOf, type HistoryReport, type SeriesHistory } from '../../core/history/history.ts';
import type { HistoryBy, HistoryInput, RowKey } from '../../core/history/series.ts';
import type { Interval } from '../../core/stats/stats.ts';
import type { LoadedFile } from './explorer-model.ts';

/** A row as the trends' URL key and select name it: browser/suite/case/adapter/size. */
export const trendKey = (k: Pick<RowKey, 'browser' | 'suite' | 'case' | 'adapter' | 'size'>) =>
  `${k.browser}/${k.suite}/${k.case}/${k.adapter}/${k.size}`;

/** The loaded documents as history's input; each point links back to its file by the file's id. */
export function historyInputs(files: readonly LoadedFile[]): HistoryInput[] {
  const seen = new Set<string>();
  const out: HistoryInput[] = [];
  for (const f of files) {
    // One document loaded twice (the explorer's file and the trends' copy) counts once.
    const id = `${f.results.run.id}/${f.results.run.browser}/${f.results.run.plan.shard?.index ?? 0}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ doc: f.results, source: f.id });
  }
  return out;
}

export function trendsOf(files: readonly LoadedFile[], by: HistoryBy): HistoryReport {
  return historyOf(historyInputs(files), { by });
}

export interface TrendOption {
  value: string;
  text: string;
  group: string;
  points: number;
  changes: number;
}

/** Every series with 2 points or more, by browser; a series with a change says so in its name. */
export function trendOptions(report: HistoryReport): TrendOption[] {
  return report.series
    .filter((s) => s.series.points.length >= 2)
    .map((s) => {
      const k = s.series.key;
      const params = Object.entries(k.params)
        .map(([n, v]) => `${n}=${JSON.stringify(v)}`)
        .join(' ');
      const changes = s.changes.length;
      return {
        value: trendKey(k),
        text: `${k.suite}/${k.case} · ${k.adapter} · ${k.size.toLocaleString('en-US')}${params ? ` · ${params}` : ''} (${s.series.points.length} points${changes > 0 ? `, ${changes} change${changes === 1 ? '' : 's'}` : ''})`,
        group: k.browser,
        points: s.series.points.length,
        changes,
      };
    });
}

/**
 * The series to show: the one asked for; else the explorer's chart choice, when it is long enough
 * to look for a change in; else the first with a change; else the longest. Among series of one
 * row with other parameters, the longest.
 */
export function chosenTrend(
  report: HistoryReport,
  asked: string | null,
  chart: Partial<RowKey> | null,
): SeriesHistory | null {
  const usable = report.series.filter((s) => s.series.points.length >= 2);
  const longest = (list: SeriesHistory[]) =>
    list.reduce<SeriesHistory | null>(
      (best, s) => (!best || s.series.points.length > best.series.points.length ? s : best),
      null,
    );
  const byKey = (key: string) => longest(usable.filter((s) => trendKey(s.series.key) === key));
  const fromChart =
    chart && chart.browser && chart.suite && chart.case && chart.adapter && chart.size
      ? byKey(trendKey(chart as RowKey))
      : null;
  return (
    (asked !== null ? byKey(asked) : null) ??
    (fromChart && !fromChart.tooShort ? fromChart : null) ??
    usable.find((s) => s.changes.length > 0) ??
    longest(usable)
  );
}

export interface TrendPoint {
  label: string;
  /** The net median (ms) and its 95% interval; the raw median beside it. */
  net: number;
  ci: Interval | null;
  raw: number;
  /** The level (ms) of the segment the point belongs to, between change points. */
  level: number | null;
  /** A change point: the first point after a change. */
  change: boolean;
  /** The point's files, by their explorer ids. */
  sources: string[];
}

/** The chart's points of a series: net and raw medians, each segment's level, the change points. */
export function trendPoints(s: SeriesHistory): TrendPoint[] {
  const starts = s.changes.map((c) => c.index);
  const levelAt = (i: number): number | null => {
    if (s.changes.length === 0) return null;
    let k = 0;
    while (k < starts.length && i >= (starts[k] as number)) k++;
    // Before the first change: its before-level; after change k-1: that change's after-level.
    return k === 0 ? (s.changes[0]?.levelBefore ?? null) : (s.changes[k - 1]?.levelAfter ?? null);
  };
  return s.series.points.map((p, i) => ({
    label: p.label,
    net: p.net.median,
    ci: p.net.ci,
    raw: p.raw.median,
    level: levelAt(i),
    change: starts.includes(i),
    sources: p.sources,
  }));
}

/** Where a point's file can be fetched from: results/NAME for a served file, null for a local one or this run. */
export function sourceHref(id: string): string | null {
  if (!id.startsWith('served:')) return null;
  const name = id.slice('served:'.length).replace(/#\d+$/, '');
  return `results/${encodeURIComponent(name)}`;
}
