/**
 * Box plots of one case at one size: a group per browser, a box per adapter, drawn from the raw
 * timed samples with @sgratzl/chartjs-chart-boxplot. Where the bars show the median and its
 * interval, the box shows the spread the samples had: quartiles, the median line, whiskers to the
 * furthest sample within 1.5 IQR, and each sample beyond as a dot (the plugin's Tukey defaults).
 */
import { BoxAndWiskers, BoxPlotController } from '@sgratzl/chartjs-chart-boxplot';
import { Chart, type ChartConfiguration } from 'chart.js';
import {
  axis,
  browserAxis,
  ChartFigure,
  figureOptions,
  logTicks,
  registerCharts,
  theme,
  titleAndLegend,
} from './chart-common.ts';
import { adapterColour } from './colours.ts';
import { axisLines, caseKey, type Comparison } from '../model/explorer-model.ts';

let registered = false;

export class BoxPlotChart {
  readonly figure = new ChartFigure<'boxplot'>(
    'boxplot',
    'Samples by browser and adapter',
    'Box plot of the timed samples of each adapter, grouped by browser',
  );

  constructor() {
    registerCharts();
    if (!registered) {
      Chart.register(BoxPlotController, BoxAndWiskers);
      registered = true;
    }
  }

  render(comparison: Comparison, caseId: string | null, size: number | null, log: boolean): void {
    const columns = comparison.columns;
    const rows = comparison.rows.filter(
      (r) =>
        caseKey(r) === caseId &&
        r.size === size &&
        [...r.cells.values()].some((c) => c.status === 'ok' && c.samples.length > 0),
    );
    if (caseId === null || size === null || rows.length === 0) {
      this.figure.showEmpty(
        caseId === null || size === null
          ? 'No case chosen.'
          : `No ok results for ${caseId} at ${size.toLocaleString()} documents in the browsers shown.`,
      );
      return;
    }
    const t = theme();
    const samples = (cell: ReturnType<(typeof rows)[number]['cells']['get']>) =>
      cell?.status === 'ok' ? cell.samples.filter((x) => !log || x > 0) : [];
    const counts = rows
      .flatMap((r) => columns.map((c) => samples(r.cells.get(c.key)).length))
      .filter((n) => n > 0);
    this.figure.setCaption(
      `${caseId} at ${size.toLocaleString()} documents: every timed sample. Box: the middle half (quartiles); line: the median; whiskers: the furthest sample within 1.5 × the box's height; dots: samples beyond (kept in every statistic). ` +
        `${Math.min(...counts)} to ${Math.max(...counts)} samples a box.`,
    );
    const config: ChartConfiguration<'boxplot', number[][], string[]> = {
      type: 'boxplot',
      data: {
        labels: columns.map(axisLines),
        datasets: rows.map((r) => ({
          label: r.adapter,
          data: columns.map((c) => samples(r.cells.get(c.key))),
          backgroundColor: `${adapterColour(r.adapter)}66`,
          borderColor: adapterColour(r.adapter),
          borderWidth: 1,
          outlierBackgroundColor: adapterColour(r.adapter),
          itemRadius: 0,
        })),
      },
      options: {
        ...figureOptions(t),
        scales: {
          x: browserAxis(t),
          y: axis(
            t,
            log ? 'ms per sample (log)' : 'ms per sample',
            log ? 'logarithmic' : 'linear',
            log ? { ticks: logTicks(t) } : { beginAtZero: true },
          ),
        },
        plugins: titleAndLegend(t, `${caseId} · ${size.toLocaleString()} docs · samples (ms)`),
      },
    };
    this.figure.draw(config, `storebench-boxplot-${caseId}-${size}`);
  }
}
