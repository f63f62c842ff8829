/**
 * Growth curves: each batch's insert time against the store size before it, from the `series`
 * a case records (the growth suite), one line per adapter in one browser. The line is the median
 * over the timed samples at each size; the faint points are every sample's own batches, so a
 * single slow sample is visible rather than averaged away. The time axis is logarithmic: stores
 * differ by orders of magnitude, and one slow batch would otherwise flatten every line.
 */
import type { ChartConfiguration, TooltipItem } from 'chart.js';
import {
  axis,
  ChartFigure,
  figureOptions,
  logTicks,
  registerCharts,
  theme,
  titleAndLegend,
} from './chart-common.ts';
import { adapterColour } from './colours.ts';
import {
  axisLines,
  caseKey,
  growthCurve,
  type Column,
  type Comparison,
  type ComparisonRow,
  type XY,
} from '../model/explorer-model.ts';
import { formatMs } from '../../core/base/format.ts';

export class GrowthChart {
  readonly figure = new ChartFigure<'scatter'>(
    'growth',
    'Growth curve',
    'Per-batch insert time against the number of documents already in the store, one line per adapter',
  );

  constructor() {
    registerCharts();
  }

  /** The case to draw: the chosen one when it has a series, else the first that has one. */
  static pickCase(comparison: Comparison, wanted: string | null): string | null {
    const withSeries = [
      ...new Set(
        comparison.rows
          .filter((r) => [...r.cells.values()].some((c) => c.series && c.series.samples.length > 0))
          .map((r) => caseKey(r)),
      ),
    ];
    return wanted !== null && withSeries.includes(wanted) ? wanted : (withSeries[0] ?? null);
  }

  render(
    comparison: Comparison,
    wantedCase: string | null,
    wantedSize: number | null,
    column: string | null,
  ): void {
    const caseId = GrowthChart.pickCase(comparison, wantedCase);
    const col = comparison.columns.find((c) => c.key === column);
    const { sizes, size, rows } = growthRows(comparison, caseId, col, wantedSize);
    if (!col || caseId === null || rows.length === 0) {
      this.figure.showEmpty(
        caseId === null
          ? 'No loaded case records a series (run the growth suite).'
          : `No series for ${caseId} in this browser.`,
      );
      return;
    }
    this.figure.setCaption(
      `${caseId} from ${(size ?? 0).toLocaleString()} pre-filled documents in ${col.label}: line = median over the timed samples of each batch, points = every sample.` +
        (sizes.length > 1
          ? ` Also loaded: ${sizes
              .filter((s) => s !== size)
              .map((s) => s.toLocaleString())
              .join(', ')} (pick the size above).`
          : ''),
    );
    this.figure.draw(
      growthConfig(rows, col, caseId),
      `storebench-growth-${caseId}-${size}-${col.label}`,
    );
  }
}

/** The case's rows with a series in the column: the sizes loaded, the one drawn, and its rows. */
function growthRows(
  comparison: Comparison,
  caseId: string | null,
  col: Column | undefined,
  wantedSize: number | null,
): { sizes: number[]; size: number | null; rows: ComparisonRow[] } {
  const rowsOfCase = comparison.rows.filter(
    (r) => caseKey(r) === caseId && col && r.cells.get(col.key)?.series?.samples.length,
  );
  const sizes = [...new Set(rowsOfCase.map((r) => r.size))].sort((a, b) => a - b);
  const size =
    wantedSize !== null && sizes.includes(wantedSize) ? wantedSize : (sizes.at(-1) ?? null);
  return { sizes, size, rows: rowsOfCase.filter((r) => r.size === size) };
}

/** Per store, its median line and its samples' faint points. */
function growthDatasets(rows: readonly ComparisonRow[], col: Column) {
  // A log axis has no place for a 0 ms batch (a coarse timer): such points are left out.
  return rows.flatMap((r) => {
    const { median, points } = growthCurve(r.cells.get(col.key)!);
    const colour = adapterColour(r.adapter);
    return [
      {
        label: r.adapter,
        data: median.filter((p) => p.y > 0),
        showLine: true,
        borderColor: colour,
        backgroundColor: colour,
        borderWidth: 2,
        pointRadius: 2,
      },
      {
        label: `${r.adapter} (samples)`,
        data: points.filter((p) => p.y > 0),
        showLine: false,
        backgroundColor: `${colour}55`,
        borderColor: 'transparent',
        pointRadius: 2,
      },
    ];
  });
}

function growthConfig(
  rows: readonly ComparisonRow[],
  col: Column,
  caseId: string,
): ChartConfiguration<'scatter', XY[]> {
  const first = rows[0]?.cells.get(col.key)?.series;
  const xTitle = first?.x ?? 'x';
  const yTitle = first?.y ?? 'y';
  const t = theme();
  return {
    type: 'scatter',
    data: { datasets: growthDatasets(rows, col) },
    options: {
      ...figureOptions(t),
      scales: {
        // The file names the axes; documents and milliseconds are what the growth suite records.
        x: axis(t, xTitle, 'linear', { beginAtZero: false }),
        y: axis(t, `${yTitle}, log scale`, 'logarithmic', { ticks: logTicks(t) }),
      },
      plugins: {
        ...titleAndLegend(
          t,
          `${caseId} · ${axisLines(col).join(' ')} · ${yTitle} against ${xTitle}`,
        ),
        legend: {
          display: true,
          labels: {
            color: t.fg,
            boxWidth: 12,
            boxHeight: 12,
            filter: (item) => !item.text.endsWith(' (samples)'),
          },
        },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'scatter'>) => {
              const p = item.raw as XY;
              return `${item.dataset.label ?? ''}: ${formatMs(p.y)} at ${p.x.toLocaleString()}`;
            },
          },
        },
      },
    },
  };
}
