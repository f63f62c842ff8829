/**
 * Trends: one row's medians over runs or commits, each net of its run's shift with its 95%
 * interval, the raw medians beside them, each segment's level between change points, and the
 * change points marked by a dashed line. A click on a point reports its index (the view shows
 * its files).
 */
import type { ActiveElement, ChartConfiguration, ChartEvent, Plugin, TooltipItem } from 'chart.js';
import type { SeriesHistory } from '../../core/history/history.ts';
import type { HistoryBy } from '../../core/history/series.ts';
import { formatMs } from '../../core/base/format.ts';
import { trendPoints, type TrendPoint } from '../model/history-model.ts';
import {
  axis,
  ChartFigure,
  cssVar,
  errorBarsPlugin,
  figureOptions,
  registerCharts,
  theme,
  titleAndLegend,
} from './chart-common.ts';
import { adapterColour } from './colours.ts';

/** A dashed vertical line before each change point, in the change colour. */
function changeLines(points: () => TrendPoint[]): Plugin<'line'> {
  return {
    id: 'storebenchChangeLines',
    afterDatasetsDraw(chart) {
      const x = chart.scales.x;
      if (!x) return;
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.strokeStyle = cssVar('--bad', '#c0392b');
      ctx.setLineDash([5, 4]);
      ctx.lineWidth = 1.5;
      points().forEach((p, i) => {
        if (!p.change || i === 0) return;
        const at = (x.getPixelForValue(i - 1) + x.getPixelForValue(i)) / 2;
        ctx.beginPath();
        ctx.moveTo(at, chartArea.top);
        ctx.lineTo(at, chartArea.bottom);
        ctx.stroke();
      });
      ctx.restore();
    },
  };
}

/** Short axis labels: "11-24 19:41" for a date, the commit as it is. */
function axisLabel(label: string): string[] {
  const date = /^\d{4}-(\d\d-\d\d) (\d\d:\d\d)$/.exec(label);
  if (date) return [date[1] as string, date[2] as string];
  return label.split(' · ');
}

type Config = ChartConfiguration<'line', (number | null)[], string[]>;

/** The points as datasets: net medians (whiskers drawn by a plugin), raw medians, segment levels. */
function datasets(points: readonly TrendPoint[], colour: string, muted: string, changes: number) {
  return [
    {
      label: 'net median',
      data: points.map((p) => p.net),
      borderColor: colour,
      backgroundColor: colour,
      showLine: false,
      pointRadius: 5,
      pointHoverRadius: 7,
    },
    {
      label: 'raw median',
      data: points.map((p) => p.raw),
      borderColor: muted,
      backgroundColor: 'transparent',
      showLine: false,
      pointRadius: 4,
    },
    // Each segment's level, only where there are segments to tell apart.
    ...(changes === 0
      ? []
      : [
          {
            label: 'segment level',
            data: points.map((p) => p.level),
            borderColor: colour,
            borderWidth: 2,
            borderDash: [2, 2],
            pointRadius: 0,
            stepped: 'middle' as const,
          },
        ]),
  ];
}

/** What the tooltip says of each dataset's point. */
function tooltipLabel(points: readonly TrendPoint[]) {
  return (item: TooltipItem<'line'>): string => {
    const p = points[item.dataIndex];
    if (!p) return '';
    if (item.datasetIndex === 1) return `raw median ${formatMs(p.raw)} ms`;
    if (item.datasetIndex === 2)
      return p.level === null ? '' : `segment level ${formatMs(p.level)} ms`;
    return `net median ${formatMs(p.net)} ms${p.ci ? ` [${formatMs(p.ci.lo)}, ${formatMs(p.ci.hi)}]` : ''}`;
  };
}

function historyConfig(
  s: SeriesHistory,
  points: TrendPoint[],
  by: HistoryBy,
  onPick: (index: number) => void,
): Config {
  const k = s.series.key;
  const t = theme();
  const colour = adapterColour(k.adapter);
  return {
    type: 'line',
    data: {
      labels: points.map((p) => axisLabel(p.label)),
      datasets: datasets(points, colour, t.muted, s.changes.length),
    },
    options: {
      ...figureOptions(t),
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      onClick: (_e: ChartEvent, active: ActiveElement[]) => {
        const hit = active[0];
        if (hit) onPick(hit.index);
      },
      scales: {
        x: axis(t, by === 'commit' ? 'commit' : 'run (UTC)', 'category', {
          // Room of half a point at either end, so no point or whisker sits on the frame.
          offset: true,
          ticks: { color: t.muted, maxRotation: 0, autoSkip: true, font: { size: 11 } },
        }),
        // The whiskers too, not only the points, inside the axis.
        y: axis(t, 'median ms per sample', 'linear', {
          beginAtZero: false,
          suggestedMin: 0.97 * Math.min(...points.map((p) => Math.min(p.ci?.lo ?? p.net, p.raw))),
          suggestedMax: 1.03 * Math.max(...points.map((p) => Math.max(p.ci?.hi ?? p.net, p.raw))),
        }),
      },
      plugins: {
        ...titleAndLegend(t, `${k.browser} · ${k.suite}/${k.case} · ${k.adapter} · ${k.size}`),
        tooltip: {
          callbacks: {
            title: (items: TooltipItem<'line'>[]) => points[items[0]?.dataIndex ?? 0]?.label ?? '',
            label: tooltipLabel(points),
          },
        },
      },
    },
    plugins: [
      errorBarsPlugin<'line'>(
        () => [points.map((p) => p.ci), [], []],
        () => colour,
      ),
      changeLines(() => points),
    ],
  };
}

export class HistoryChart {
  readonly figure = new ChartFigure<'line'>(
    'history',
    'Trend over runs',
    "One row's median per run, net of the shift every row of its browser shares, with its 95% interval; change points dashed",
  );

  constructor(private readonly onPick: (index: number) => void) {
    registerCharts();
  }

  render(s: SeriesHistory | null, by: HistoryBy, empty: string): void {
    if (!s) {
      this.figure.showEmpty(empty);
      return;
    }
    const points = trendPoints(s);
    const k = s.series.key;
    const changes = s.changes.length;
    this.figure.setCaption(
      `${k.suite}/${k.case} on ${k.adapter} at ${k.size.toLocaleString('en-US')} documents in ${k.browser}: ${points.length} points, ` +
        (s.tooShort
          ? `too few with an interval to look for a change (${s.tooShort.needed} needed).`
          : `${changes === 0 ? 'no change point' : `${changes} change point${changes === 1 ? '' : 's'}`}.`) +
        " Filled: the median net of the shift its run shares with the browser's other rows, with its 95% interval; hollow: the raw median; the flat line: each segment's level. Click a point for its files.",
    );
    this.figure.draw(
      historyConfig(s, points, by, (i) => this.onPick(i)),
      `storebench-trend-${k.browser}-${k.suite}-${k.case}-${k.adapter}-${k.size}`,
    );
  }
}
