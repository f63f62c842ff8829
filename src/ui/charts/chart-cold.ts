/**
 * Cold against warm in one browser: a group per store, a bar per state (in the tab that wrote the
 * data, after a reload, after a browser restart) for one read of the cold suite. The bar is the
 * median of open plus read, and the whisker the 95% interval of that median, as in every other
 * bar chart here; the tooltip splits the median open and read times.
 */
import type { ChartConfiguration, TooltipItem } from 'chart.js';
import {
  axis,
  ChartFigure,
  errorBarsPlugin,
  figureOptions,
  type Interval,
  logTicks,
  registerCharts,
  theme,
  titleAndLegend,
} from './chart-common.ts';
import { barDataset } from './colours.ts';
import {
  axisLines,
  caseKey,
  type Column,
  type Comparison,
  type OkCase,
} from '../model/explorer-model.ts';
import {
  COLD_OPS,
  COLD_STATES,
  coldCaseId,
  coldCaseOf,
  coldSuite,
  type ColdOp,
  type ColdState,
} from '../../../suites/cold.ts';
import { median } from '../../core/stats/stats.ts';
import { describeMedian } from '../results/row-text.ts';
import { formatMs } from '../../core/base/format.ts';
import type { DrivenChart, DrivenChartView } from './driven-view.ts';

const STATE_COLOURS = { warm: '#f28e2b', reload: '#4e79a7', restart: '#59a14f' } as const;

export class ColdChart implements DrivenChart {
  readonly figure = new ChartFigure<'bar'>(
    coldSuite.id,
    'Cold against warm',
    'Median time to open the store and do one read, in the tab that wrote the data, after a reload and after a browser restart, with the 95% interval of each median',
  );

  constructor() {
    registerCharts();
  }

  /** The read to draw: the chosen case's, when it is a cold case, else the first loaded. */
  static pickOp(comparison: Comparison, wantedCase: string | null): ColdOp | null {
    const opOf = (suite: string, caseId: string) =>
      suite === coldSuite.id ? (coldCaseOf(caseId)?.op ?? null) : null;
    const loaded = COLD_OPS.filter((op) =>
      comparison.rows.some((r) => opOf(r.suite, r.case) === op),
    );
    const chosen = comparison.rows.find((r) => caseKey(r) === wantedCase);
    const wanted = chosen ? opOf(chosen.suite, chosen.case) : null;
    return wanted !== null && loaded.includes(wanted) ? wanted : (loaded[0] ?? null);
  }

  render(comparison: Comparison, view: DrivenChartView): void {
    const op = ColdChart.pickOp(comparison, view.case);
    const col = comparison.columns.find((c) => c.key === view.browser);
    const { adapters, grid } = coldGrid(comparison, op, col);
    if (!col || op === null || adapters.length === 0) {
      this.figure.showEmpty(
        op === null
          ? 'No cold rows loaded (npm run sweep -- --suites cold).'
          : `No ok cold ${op} rows in ${col?.label ?? 'this browser'}.`,
      );
      return;
    }
    const where = axisLines(col).join(' ');
    this.figure.setCaption(
      `cold ${op} in ${where}: bars = median of opening the store plus one read; whiskers = 95% CI of that median (none below 6 samples). ` +
        'Warm: in the tab that wrote the data. Reload: after page.reload(). Restart: after the browser was closed and started again on the same profile.',
    );
    const title = `cold ${op} · ${where} · median open + read (ms)`;
    this.figure.draw(
      coldConfig(adapters, grid, title, view.log),
      `storebench-cold-${op}-${col.label}`,
    );
  }
}

/** The cold rows of `op` in one browser column: a row per state, a cell per store with at least one. */
function coldGrid(
  comparison: Comparison,
  op: ColdOp | null,
  col: Column | undefined,
): { adapters: string[]; grid: (OkCase | null)[][] } {
  const cell = (adapter: string, state: ColdState): OkCase | null => {
    const r =
      op === null
        ? undefined
        : comparison.rows
            .find(
              (x) =>
                x.suite === coldSuite.id &&
                x.case === coldCaseId(op, state) &&
                x.adapter === adapter,
            )
            ?.cells.get(col?.key ?? '');
    return r?.status === 'ok' ? r : null;
  };
  const adapters = [
    ...new Set(comparison.rows.filter((r) => r.suite === coldSuite.id).map((r) => r.adapter)),
  ].filter((a) => COLD_STATES.some((s) => cell(a, s)));
  return { adapters, grid: COLD_STATES.map((s) => adapters.map((a) => cell(a, s))) };
}

/** A bar's median, with the median open and read times it is made of. */
function coldTooltip(grid: (OkCase | null)[][]) {
  return {
    label: (item: TooltipItem<'bar'>) => {
      const r = grid[item.datasetIndex]?.[item.dataIndex];
      if (!r) return '';
      const part = (name: string) =>
        r.metrics?.[name] ? `median ${name} ${formatMs(median(r.metrics[name]))} ms` : null;
      return [
        `${r.adapter}, ${COLD_STATES[item.datasetIndex]}: ${describeMedian(r)}`,
        [part('openMs'), part('readMs')].filter(Boolean).join(', '),
      ];
    },
  };
}

function coldConfig(
  adapters: string[],
  grid: (OkCase | null)[][],
  title: string,
  log: boolean,
): ChartConfiguration<'bar', (number | null)[], string> {
  const t = theme();
  const intervals: (Interval | null)[][] = grid.map((list) =>
    list.map((r) => r?.stats.medianCi ?? null),
  );
  return {
    type: 'bar',
    data: {
      labels: adapters,
      datasets: COLD_STATES.map((s, i) =>
        barDataset(
          s,
          STATE_COLOURS[s],
          (grid[i] ?? []).map((r) => (r && (!log || r.stats.median > 0) ? r.stats.median : null)),
        ),
      ),
    },
    options: {
      ...figureOptions(t),
      scales: {
        x: axis(t, 'store', 'category'),
        y: axis(
          t,
          log ? 'median ms, open + read (log)' : 'median ms, open + read',
          log ? 'logarithmic' : 'linear',
          log ? { ticks: logTicks(t) } : { beginAtZero: true },
        ),
      },
      plugins: {
        ...titleAndLegend(t, title),
        tooltip: { callbacks: coldTooltip(grid) },
      },
    },
    plugins: [
      errorBarsPlugin(
        () => intervals,
        () => theme().fg,
      ),
    ],
  };
}
