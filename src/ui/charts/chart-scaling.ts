/**
 * Scaling lines: median time per sample against the number of documents, both on log axes, one
 * line per adapter, for one case in one browser. On log-log axes a store whose time grows in
 * proportion to size runs parallel to the others; a steeper line grows faster than linearly.
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
import { lineDataset } from './colours.ts';
import {
  axisLines,
  caseKey,
  scalingPoints,
  type Comparison,
  type XY,
} from '../model/explorer-model.ts';
import { formatMs } from '../../core/base/format.ts';

export class ScalingChart {
  readonly figure = new ChartFigure<'scatter'>(
    'scaling',
    'Scaling with size',
    'Median time per sample against the number of documents, log axes, one line per adapter',
  );

  constructor() {
    registerCharts();
  }

  render(comparison: Comparison, caseId: string | null, column: string | null): void {
    const col = comparison.columns.find((c) => c.key === column);
    const lines = scalingLines(comparison, caseId, column);
    if (!col || caseId === null || lines.length === 0) {
      this.figure.showEmpty(
        caseId === null
          ? 'No case chosen.'
          : `No ok results for ${caseId}${col ? ` in ${col.label}` : ''}.`,
      );
      return;
    }
    const sizes = new Set(lines.flatMap((l) => l.points.map((p) => p.x)));
    // Sizes where a store has no ok result leave a gap in its line; say which and why.
    const gaps = comparison.rows
      .filter(
        (r) =>
          caseKey(r) === caseId &&
          r.cells.has(col.key) &&
          r.cells.get(col.key)?.status !== 'ok' &&
          r.cells.get(col.key)?.status !== 'unsupported',
      )
      .map((r) => `${r.adapter} at ${r.size.toLocaleString()} (${r.cells.get(col.key)?.status})`);
    this.figure.setCaption(
      `${caseId} in ${col.label}: median per sample at each size.` +
        (gaps.length ? ` No point for ${gaps.join(', ')}.` : '') +
        (sizes.size < 2 ? ' Only one size has results, so there is no slope to see.' : ''),
    );
    const title = `${caseId} · ${axisLines(col).join(' ')} · median ms against documents`;
    this.figure.draw(
      scalingConfig(lines, sizes, title),
      `storebench-scaling-${caseId}-${col.label}`,
    );
    if (sizes.size < 2) this.figure.setLittle('results at two sizes or more');
  }
}

interface ScalingLine {
  adapter: string;
  points: XY[];
}

/** A line per store with a point at one size at least. */
function scalingLines(
  comparison: Comparison,
  caseId: string | null,
  column: string | null,
): ScalingLine[] {
  const adapters = [
    ...new Set(comparison.rows.filter((r) => caseKey(r) === caseId).map((r) => r.adapter)),
  ];
  // A log axis has no place for 0 ms (a coarse timer), so those points are left out.
  return adapters
    .map((a) => ({
      adapter: a,
      points:
        caseId && column ? scalingPoints(comparison, caseId, a, column).filter((p) => p.y > 0) : [],
    }))
    .filter((l) => l.points.length > 0);
}

function scalingConfig(
  lines: readonly ScalingLine[],
  sizes: ReadonlySet<number>,
  title: string,
): ChartConfiguration<'scatter', XY[]> {
  const t = theme();
  const ys = lines.flatMap((l) => l.points.map((p) => p.y));
  return {
    type: 'scatter',
    data: {
      datasets: lines.map(lineDataset),
    },
    options: {
      ...figureOptions(t),
      scales: {
        // Ticks at the sizes measured only: a log axis would otherwise label 200, 210, 220, ...
        x: axis(t, 'documents in the store (log scale)', 'logarithmic', {
          afterBuildTicks: (scale: { ticks: { value: number }[] }) => {
            scale.ticks = [...sizes].sort((a, b) => a - b).map((value) => ({ value }));
          },
          ticks: {
            color: t.muted,
            callback: (value: number | string) => Number(value).toLocaleString(),
          },
        }),
        // Half a decade of room above and below, so no line runs along the frame.
        y: axis(t, 'median ms per sample (log)', 'logarithmic', {
          ticks: logTicks(t),
          suggestedMin: Math.min(...ys) / 2,
          suggestedMax: Math.max(...ys) * 2,
        }),
      },
      plugins: {
        ...titleAndLegend(t, title),
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'scatter'>) => {
              const p = item.raw as XY;
              return `${item.dataset.label ?? ''}: ${formatMs(p.y)} ms at ${p.x.toLocaleString()} docs`;
            },
          },
        },
      },
    },
  };
}
