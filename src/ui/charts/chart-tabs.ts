/**
 * Throughput against the number of tabs, in one browser: a line per store, its point at K tabs the
 * operations of all tabs over the median wall time of a sample (so the median's throughput), and
 * the whisker the same over the ends of that median's 95% interval. A store that shares its work
 * well between tabs climbs; one that serialises them stays flat.
 */
import type { ChartConfiguration, TooltipItem } from 'chart.js';
import {
  axis,
  ChartFigure,
  errorBarsPlugin,
  figureOptions,
  logTicks,
  registerCharts,
  theme,
  titleAndLegend,
} from './chart-common.ts';
import { lineDataset } from './colours.ts';
import { axisLines, type Comparison } from '../model/explorer-model.ts';
import { formatRate } from '../../core/base/format.ts';
import { tabsCaseOf, tabsSuite } from '../../../suites/tabs.ts';
import type { DrivenChart, DrivenChartView } from './driven-view.ts';

interface Point {
  x: number;
  y: number;
  lo: number | null;
  hi: number | null;
}

export class TabsChart implements DrivenChart {
  readonly figure = new ChartFigure<'scatter'>(
    tabsSuite.id,
    'Throughput against tabs',
    'Operations per second of all tabs together against the number of tabs, one line per store, with the 95% interval',
  );

  constructor() {
    registerCharts();
  }

  render(comparison: Comparison, view: DrivenChartView): void {
    const col = comparison.columns.find((c) => c.key === view.browser);
    const lines = [
      ...new Set(comparison.rows.filter((r) => r.suite === tabsSuite.id).map((r) => r.adapter)),
    ]
      .map((adapter) => ({ adapter, points: col ? pointsOf(comparison, adapter, col.key) : [] }))
      .filter((l) => l.points.length > 0);
    if (!col || lines.length === 0) {
      this.figure.showEmpty(
        col
          ? `No ok tabs rows in ${col.label} (npm run sweep -- --suites tabs).`
          : 'No browser chosen.',
      );
      return;
    }
    const ks = [...new Set(lines.flatMap((l) => l.points.map((p) => p.x)))].sort((a, b) => a - b);
    const ys = lines.flatMap((l) => l.points.flatMap((p) => [p.y, p.lo ?? p.y, p.hi ?? p.y]));
    this.figure.setCaption(
      `tabs in ${axisLines(col).join(' ')}: all tabs' operations over the median wall time of a sample; whiskers: the same over the ends of the median's 95% interval (none below 6 samples). Every tab visible.`,
    );
    const t = theme();
    const config: ChartConfiguration<'scatter', Point[]> = {
      type: 'scatter',
      data: {
        datasets: lines.map(lineDataset),
      },
      options: {
        ...figureOptions(t),
        scales: {
          x: axis(t, 'tabs (K)', 'linear', {
            afterBuildTicks: (scale: { ticks: { value: number }[] }) => {
              scale.ticks = ks.map((value) => ({ value }));
            },
            suggestedMin: 0.5,
            suggestedMax: (ks.at(-1) ?? 1) + 0.5,
          }),
          // Stores differ by orders of magnitude (localStorage is synchronous): a log axis keeps every line readable.
          y: axis(t, 'operations/s, all tabs (median, log)', 'logarithmic', {
            ticks: logTicks(t),
            suggestedMin: Math.min(...ys) / 2,
            suggestedMax: Math.max(...ys) * 2,
          }),
        },
        plugins: {
          ...titleAndLegend(t, `tabs · ${axisLines(col).join(' ')} · throughput against K`),
          tooltip: {
            callbacks: {
              label: (item: TooltipItem<'scatter'>) => {
                const p = item.raw as Point;
                const ci =
                  p.lo !== null && p.hi !== null
                    ? `, 95% CI ${formatRate(p.lo)} – ${formatRate(p.hi)}`
                    : ', no interval (under 6 samples)';
                return `${item.dataset.label ?? ''}: ${formatRate(p.y)} ops/s with ${p.x} tab${p.x === 1 ? '' : 's'}${ci}`;
              },
            },
          },
        },
      },
      plugins: [
        errorBarsPlugin<'scatter'>(
          () =>
            lines.map((l) =>
              l.points.map((p) => (p.lo !== null && p.hi !== null ? { lo: p.lo, hi: p.hi } : null)),
            ),
          () => theme().fg,
        ),
      ],
    };
    this.figure.draw(config, `storebench-tabs-${col.label}`);
  }
}

/** The store's ok rows with every tab visible as points: throughput at the median and at its interval's ends. */
function pointsOf(comparison: Comparison, adapter: string, column: string): Point[] {
  return comparison.rows
    .filter((r) => r.suite === tabsSuite.id && r.adapter === adapter)
    .flatMap((r) => {
      const c = r.cells.get(column);
      const tabs = c ? tabsCaseOf(c.params) : null;
      if (c?.status !== 'ok' || c.stats.median <= 0 || tabs?.visibility !== 'visible') return [];
      const rate = (ms: number) => (c.operations * 1000) / ms;
      const ci = c.stats.medianCi;
      return [
        {
          x: tabs.k,
          y: rate(c.stats.median),
          lo: ci && ci.hi > 0 ? rate(ci.hi) : null,
          hi: ci && ci.lo > 0 ? rate(ci.lo) : null,
        },
      ];
    })
    .sort((a, b) => a.x - b.x);
}
