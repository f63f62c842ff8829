/**
 * Grouped bars for one case at one size: a group per browser, a bar per adapter. The bar is the
 * median per sample and the whisker the 95% interval of that median (src/core/stats/stats.ts), so the
 * whisker belongs to the bar; rows without one (n < 6, or an older file) have no whisker.
 */
import type { ChartConfiguration, TooltipItem } from 'chart.js';
import {
  axis,
  browserAxis,
  ChartFigure,
  errorBarsPlugin,
  figureOptions,
  type Interval,
  logTicks,
  registerCharts,
  theme,
  titleAndLegend,
} from './chart-common.ts';
import { adapterColour, adapterLegend, barDataset } from './colours.ts';
import {
  axisLines,
  caseKey,
  missingBars,
  type Comparison,
  type OkCase,
} from '../model/explorer-model.ts';
import { describeMean, describeMedian } from '../results/row-text.ts';

/**
 * Whether the bars need a log axis: when the medians shown span more than this factor, the
 * small ones would be slivers next to the largest on a linear one.
 */
const LOG_SPREAD = 20;

export function wantsLog(
  comparison: Comparison,
  caseId: string | null,
  size: number | null,
): boolean {
  const medians = comparison.rows
    .filter((r) => caseKey(r) === caseId && r.size === size)
    .flatMap((r) =>
      [...r.cells.values()].flatMap((c) =>
        c.status === 'ok' && c.stats.median > 0 ? [c.stats.median] : [],
      ),
    );
  return medians.length > 1 && Math.max(...medians) / Math.min(...medians) > LOG_SPREAD;
}

/** The case's ok medians: a row per adapter with at least one, a cell per browser column. */
interface BarsGrid {
  adapters: string[];
  grid: (OkCase | null)[][];
}

function barsGrid(comparison: Comparison, caseId: string | null, size: number | null): BarsGrid {
  // Only adapters with at least one bar: a store unsupported everywhere has nothing to draw.
  const rows = comparison.rows.filter(
    (r) =>
      caseKey(r) === caseId &&
      r.size === size &&
      [...r.cells.values()].some((c) => c.status === 'ok'),
  );
  return {
    adapters: rows.map((r) => r.adapter),
    grid: rows.map((r) =>
      comparison.columns.map((c) => {
        const cell = r.cells.get(c.key);
        return cell?.status === 'ok' ? cell : null;
      }),
    ),
  };
}

/** Each bar's median, with its mean and n under it. */
function barTooltip(grid: BarsGrid['grid']) {
  return {
    label: (item: TooltipItem<'bar'>) => {
      const r = grid[item.datasetIndex]?.[item.dataIndex];
      return r ? `${r.adapter}: ${describeMedian(r)}` : '';
    },
    afterLabel: (item: TooltipItem<'bar'>) => {
      const r = grid[item.datasetIndex]?.[item.dataIndex];
      if (!r) return '';
      return `${describeMean(r.stats)}, n = ${r.stats.n}`;
    },
  };
}

function barsConfig(
  comparison: Comparison,
  { adapters, grid }: BarsGrid,
  title: string,
  log: boolean,
): ChartConfiguration<'bar', (number | null)[], string[]> {
  const t = theme();
  const intervals: (Interval | null)[][] = grid.map((list) =>
    list.map((r) => (r ? (r.stats.medianCi ?? null) : null)),
  );
  const top = Math.max(
    ...grid.flat().map((r) => (r ? Math.max(r.stats.median, r.stats.medianCi?.hi ?? 0) : 0)),
  );
  return {
    type: 'bar',
    data: {
      labels: comparison.columns.map(axisLines),
      // A log axis cannot show a 0 ms median (a coarse timer): that bar is left out there.
      datasets: adapters.map((a, i) =>
        barDataset(
          adapterLegend(a),
          adapterColour(a),
          (grid[i] ?? []).map((r) => (r && (!log || r.stats.median > 0) ? r.stats.median : null)),
        ),
      ),
    },
    options: {
      ...figureOptions(t),
      scales: {
        x: browserAxis(t),
        y: axis(
          t,
          log ? 'median ms per sample (log)' : 'median ms per sample',
          log ? 'logarithmic' : 'linear',
          {
            ...(log ? { ticks: logTicks(t) } : { beginAtZero: true }),
            // Whiskers can reach past the tallest bar; leave room so they are not clipped.
            suggestedMax: top * (log ? 1.5 : 1.05),
          },
        ),
      },
      plugins: {
        ...titleAndLegend(t, title),
        tooltip: { callbacks: barTooltip(grid) },
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

export class BarsChart {
  readonly figure = new ChartFigure<'bar'>(
    'bars',
    'Medians by browser and adapter',
    'Median time per sample for each adapter, grouped by browser, with the 95% confidence interval of each median',
  );

  constructor() {
    registerCharts();
  }

  render(comparison: Comparison, caseId: string | null, size: number | null, log: boolean): void {
    const bars = barsGrid(comparison, caseId, size);
    if (
      caseId === null ||
      size === null ||
      !bars.grid.some((list) => list.some((x) => x !== null))
    ) {
      this.figure.showEmpty(
        caseId === null || size === null
          ? 'No case chosen.'
          : `No ok results for ${caseId} at ${size.toLocaleString()} documents in the browsers shown.`,
      );
      return;
    }
    const missing = missingBars(
      comparison.rows.filter((r) => caseKey(r) === caseId && r.size === size),
      comparison.columns,
    );
    this.figure.setCaption(
      `${caseId} at ${size.toLocaleString()} documents. Bars: median per sample; whiskers: 95% CI of the median (none below 6 samples, nor in files from before it was recorded).` +
        (missing ? ` No bar: ${missing}.` : ''),
    );
    const title = `${caseId} · ${size.toLocaleString()} docs · median per sample (ms)`;
    this.figure.draw(barsConfig(comparison, bars, title, log), `storebench-bars-${caseId}-${size}`);
  }
}
