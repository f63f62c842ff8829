/**
 * A histogram of one row's timed samples (one case, adapter, size and browser), as in the PouchDB
 * insertion study's 100-run histogram. Its shape shows what a median and an interval hide: two
 * modes (a cache that sometimes misses), or a long tail (garbage collection, a flush).
 */
import type { ChartConfiguration, TooltipItem } from 'chart.js';
import {
  axis,
  ChartFigure,
  figureOptions,
  registerCharts,
  theme,
  titleAndLegend,
} from './chart-common.ts';
import { adapterColour } from './colours.ts';
import {
  axisLines,
  caseKey,
  histogramBins,
  type Bin,
  type Comparison,
} from '../model/explorer-model.ts';
import { formatMs } from '../../core/base/format.ts';

export class HistogramChart {
  readonly figure = new ChartFigure<'bar'>(
    'histogram',
    'Samples of one case',
    'Histogram of the timed samples of one case, adapter, size and browser',
  );

  constructor() {
    registerCharts();
  }

  render(
    comparison: Comparison,
    caseId: string | null,
    size: number | null,
    adapter: string | null,
    column: string | null,
  ): void {
    const col = comparison.columns.find((c) => c.key === column);
    const row = comparison.rows.find(
      (r) => caseKey(r) === caseId && r.size === size && r.adapter === adapter,
    );
    const cell = col ? row?.cells.get(col.key) : undefined;
    if (!col || !row || !cell || cell.samples.length === 0) {
      this.figure.showEmpty(
        cell
          ? `No timed samples: the row is ${cell.status}${cell.reason ? ` (${cell.reason})` : ''}.`
          : caseId === null
            ? 'No case chosen.'
            : `No results for ${adapter ?? 'this store'}, ${caseId}${size !== null ? ` at ${size.toLocaleString()} documents` : ''}${col ? ` in ${col.label}` : ''}.`,
      );
      return;
    }
    const bins = histogramBins(cell.samples);
    const outliers = cell.status === 'ok' && cell.outliers ? cell.outliers.indexes.length : null;
    this.figure.setCaption(
      `${row.adapter}, ${caseId} at ${row.size.toLocaleString()} documents in ${col.label}: ${cell.samples.length} timed samples` +
        (cell.status === 'ok'
          ? `, median ${formatMs(cell.stats.median)} ms`
          : ` (row ${cell.status})`) +
        (outliers !== null ? `, ${outliers} flagged as outliers` : '') +
        `. Warm-up samples (${cell.warmup.length}) are not included.`,
    );
    const title = `${caseId} · ${row.adapter} · ${row.size.toLocaleString()} docs · ${axisLines(col).join(' ')}: ${cell.samples.length} samples`;
    const config = histogramConfig(bins, row.adapter, title);
    this.figure.draw(
      config,
      `storebench-histogram-${caseId}-${row.adapter}-${row.size}-${col.label}`,
    );
  }
}

/** Bars of the bins' counts, labelled by their edges. */
function histogramConfig(
  bins: readonly Bin[],
  adapter: string,
  title: string,
): ChartConfiguration<'bar', number[], string> {
  const t = theme();
  const colour = adapterColour(adapter);
  // Bin edges are round numbers already (explorer-model.ts); print them without padding zeros.
  const edge = (x: number) => Number(x.toPrecision(6)).toLocaleString();
  const label = (b: Bin) => (b.from === b.to ? edge(b.from) : `${edge(b.from)}–${edge(b.to)}`);
  return {
    type: 'bar',
    data: {
      labels: bins.map(label),
      datasets: [
        {
          label: adapter,
          data: bins.map((b) => b.count),
          backgroundColor: `${colour}cc`,
          borderColor: colour,
          borderWidth: 1,
          barPercentage: 1,
          categoryPercentage: 1,
        },
      ],
    },
    options: {
      ...figureOptions(t),
      scales: {
        x: axis(t, 'time per sample (ms), bins', 'category', { grid: { display: false } }),
        y: axis(t, 'samples (count)', 'linear', {
          beginAtZero: true,
          ticks: { color: t.muted, precision: 0 },
        }),
      },
      plugins: {
        ...titleAndLegend(t, title, false),
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'bar'>) => {
              const b = bins[item.dataIndex];
              return b
                ? `${b.count} sample${b.count === 1 ? '' : 's'} from ${formatMs(b.from)} to ${formatMs(b.to)} ms`
                : '';
            },
          },
        },
      },
    },
  };
}
