/**
 * Crash durability in one browser: a group per crash case (write pattern and durability mode), a
 * bar per store. The bar is the share of kills after which an acknowledged write was gone, and
 * the whisker its 95% Wilson interval (src/core/stats/stats.ts), so 0 of 20 kills still shows how high
 * the rate could be. The tooltip gives the writes lost of those acknowledged.
 */
import type { ChartConfiguration, TooltipItem } from 'chart.js';
import {
  axis,
  ChartFigure,
  errorBarsPlugin,
  figureOptions,
  type Interval,
  registerCharts,
  theme,
  titleAndLegend,
} from './chart-common.ts';
import { adapterColour, barDataset } from './colours.ts';
import { axisLines, type Comparison } from '../model/explorer-model.ts';
import { crashSuite, describeLost, lostWrites, type LostWrites } from '../../../suites/crash.ts';
import type { CaseResult } from '../../core/results/results.ts';
import type { DrivenChart, DrivenChartView } from './driven-view.ts';

export class CrashChart implements DrivenChart {
  readonly figure = new ChartFigure<'bar'>(
    crashSuite.id,
    'Lost writes per durability mode',
    'Share of kills that lost an acknowledged write, per crash case and store, with its 95% interval',
  );

  constructor() {
    registerCharts();
  }

  render(comparison: Comparison, view: DrivenChartView): void {
    const col = comparison.columns.find((c) => c.key === view.browser);
    const rows = comparison.rows.filter(
      (r) =>
        r.suite === crashSuite.id && col && lostWrites(r.cells.get(col.key) as CaseResult) !== null,
    );
    if (!col || rows.length === 0) {
      this.figure.showEmpty(
        col
          ? `No crash rows in ${col.label} (npm run sweep -- --suites crash).`
          : 'No browser chosen.',
      );
      return;
    }
    const cases = [...new Set(rows.map((r) => r.case))];
    const adapters = [...new Set(rows.map((r) => r.adapter))];
    const cell = (a: string, c: string): { row: CaseResult; lost: LostWrites } | null => {
      const r = rows.find((x) => x.adapter === a && x.case === c)?.cells.get(col.key);
      const lost = r ? lostWrites(r) : null;
      return r && lost ? { row: r, lost } : null;
    };
    const grid = adapters.map((a) => cases.map((c) => cell(a, c)));
    const intervals: (Interval | null)[][] = grid.map((list) =>
      list.map((x) =>
        x?.lost.lossRate ? { lo: 100 * x.lost.lossRate.lo, hi: 100 * x.lost.lossRate.hi } : null,
      ),
    );
    const sizes = [...new Set(rows.map((r) => r.size))];
    this.figure.setCaption(
      `${axisLines(col).join(' ')}, ${sizes.map((s) => s.toLocaleString()).join(', ')} documents per kill. Bars: kills after which an acknowledged write was gone; whiskers: 95% Wilson interval. ` +
        'A SIGKILL of the browser is not a power cut: the operating system still writes what the browser gave it, so this shows what the browser and the store keep in their own memory.',
    );
    const t = theme();
    const config: ChartConfiguration<'bar', (number | null)[], string> = {
      type: 'bar',
      data: {
        labels: cases,
        datasets: adapters.map((a, i) =>
          barDataset(
            a,
            adapterColour(a),
            (grid[i] ?? []).map((x) => (x ? (100 * x.lost.killsWithLoss) / x.lost.kills : null)),
          ),
        ),
      },
      options: {
        ...figureOptions(t),
        scales: {
          x: axis(t, 'crash case', 'category'),
          y: axis(t, '% of kills that lost a write', 'linear', { beginAtZero: true, max: 100 }),
        },
        plugins: {
          ...titleAndLegend(
            t,
            `crash · ${axisLines(col).join(' ')} · kills that lost an acknowledged write`,
          ),
          tooltip: {
            callbacks: {
              label: (item: TooltipItem<'bar'>) => {
                const x = grid[item.datasetIndex]?.[item.dataIndex];
                return x ? `${x.row.adapter}: ${describeLost(x.row) ?? ''}` : '';
              },
            },
          },
        },
      },
      plugins: [
        errorBarsPlugin(
          () => intervals,
          () => theme().fg,
        ),
      ],
    };
    this.figure.draw(config, `storebench-crash-${col.label}`);
  }
}
