/**
 * Throttled against not: for one case and size, how many times slower each store ran under
 * Chromium's CPU throttling (`--cpu-throttle N`) than in an unthrottled run of the same browser,
 * from two loaded runs. The bar is median(throttled) ÷ median(unthrottled), and the whisker its
 * 95% interval from the two medians' own (stats.ratioOfMedians, as the regression gate uses). A
 * store whose work is all on the page's thread slows by about N; one that waits on the browser's
 * own storage threads, which the throttling does not reach, slows by less.
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
import {
  caseKey,
  cpuRate,
  throttlePair,
  type Column,
  type Comparison,
  type OkCase,
} from '../model/explorer-model.ts';
import { ratioOfMedians, type MedianRatio } from '../../core/stats/stats.ts';
import { describeMedian } from '../results/row-text.ts';

export class ThrottleChart {
  readonly figure = new ChartFigure<'bar'>(
    'throttle',
    'Throttled against not',
    'How many times slower each store ran under CPU throttling than without it, with the 95% interval of that ratio',
  );

  constructor() {
    registerCharts();
  }

  render(
    comparison: Comparison,
    caseId: string | null,
    size: number | null,
    browser: string | null,
  ): void {
    const pair = throttlePair(comparison, browser);
    if (!pair || caseId === null || size === null) {
      this.figure.showEmpty(
        'Load a run with --cpu-throttle N and an unthrottled run of the same browser to compare them.',
      );
      return;
    }
    const bars = throttleBars(comparison, caseId, size, pair);
    const rate = cpuRate(pair.slow);
    if (bars.length === 0) {
      this.figure.showEmpty(
        `No store has ok results for ${caseId} at ${size.toLocaleString()} documents in both runs of ${pair.slow.browser}.`,
      );
      return;
    }
    this.figure.setCaption(
      `${caseId} at ${size.toLocaleString()} documents in ${pair.slow.browser}: median with CPU throttling ×${rate} over the median without, per store; whiskers: 95% CI of that ratio (none where a side has under 6 samples). The dashed line is ×${rate}: all the work on the page's thread. Throttling emulates a slower CPU; it is not a device.`,
    );
    const title = `${caseId} · ${pair.slow.browser} · CPU ×${rate} against ×1`;
    this.figure.draw(throttleConfig(bars, rate, title), `storebench-throttle-${caseId}-${size}`);
  }
}

/** A store's rows throttled and not, and median(throttled) ÷ median(unthrottled) with its interval. */
interface ThrottleBar {
  adapter: string;
  slow: OkCase;
  plain: OkCase;
  ratio: MedianRatio | null;
}

/** The stores ok in both runs, for one case and size. */
function throttleBars(
  comparison: Comparison,
  caseId: string,
  size: number,
  pair: { slow: Column; plain: Column },
): ThrottleBar[] {
  const ok = (c: Column, r: Comparison['rows'][number]): OkCase | null => {
    const cell = r.cells.get(c.key);
    return cell?.status === 'ok' ? cell : null;
  };
  return comparison.rows
    .filter((r) => caseKey(r) === caseId && r.size === size)
    .flatMap((r) => {
      const slow = ok(pair.slow, r);
      const plain = ok(pair.plain, r);
      if (!slow || !plain) return [];
      const ratio = ratioOfMedians(
        { median: plain.stats.median, ci: plain.stats.medianCi ?? null },
        { median: slow.stats.median, ci: slow.stats.medianCi ?? null },
      );
      return [{ adapter: r.adapter, slow, plain, ratio }];
    });
}

/** The ratio, or without an interval the ratio of the two medians. */
const barValue = (b: ThrottleBar) => b.ratio?.ratio ?? b.slow.stats.median / b.plain.stats.median;

function throttleTooltip(bars: readonly ThrottleBar[]) {
  return {
    label: (item: TooltipItem<'bar'>) => {
      const b = bars[item.dataIndex];
      if (!b) return '';
      const ci = b.ratio
        ? `, 95% CI ×${b.ratio.lo.toFixed(2)} – ×${b.ratio.hi.toFixed(2)}`
        : ', no interval';
      return [
        `${b.adapter}: ×${barValue(b).toFixed(2)}${ci}`,
        `throttled: ${describeMedian(b.slow)}`,
        `unthrottled: ${describeMedian(b.plain)}`,
      ];
    },
  };
}

function throttleConfig(
  bars: readonly ThrottleBar[],
  rate: number,
  title: string,
): ChartConfiguration<'bar', (number | null)[], string> {
  const t = theme();
  const intervals: (Interval | null)[][] = [
    bars.map((b) => (b.ratio ? { lo: b.ratio.lo, hi: b.ratio.hi } : null)),
  ];
  return {
    type: 'bar',
    data: {
      labels: bars.map((b) => b.adapter),
      datasets: [
        {
          ...barDataset(`×${rate} over ×1`, adapterColour(bars[0]!.adapter), bars.map(barValue)),
          backgroundColor: bars.map((b) => `${adapterColour(b.adapter)}cc`),
          borderColor: bars.map((b) => adapterColour(b.adapter)),
        },
      ],
    },
    options: {
      ...figureOptions(t),
      scales: {
        x: axis(t, 'store', 'category'),
        y: axis(t, 'times slower throttled (median ratio)', 'linear', {
          beginAtZero: true,
          suggestedMax: rate * 1.2,
        }),
      },
      plugins: {
        ...titleAndLegend(t, title),
        legend: { display: false },
        tooltip: { callbacks: throttleTooltip(bars) },
      },
    },
    plugins: [
      errorBarsPlugin(
        () => intervals,
        () => theme().fg,
      ),
      rateLine(rate, () => theme().muted),
    ],
  };
}

/** A dashed line across the chart at the throttling rate. */
function rateLine(rate: number, colour: () => string) {
  return {
    id: 'storebenchRateLine',
    afterDatasetsDraw(chart: {
      scales: { y?: { getPixelForValue(v: number): number } };
      chartArea: { left: number; right: number };
      ctx: CanvasRenderingContext2D;
    }) {
      const y = chart.scales.y;
      if (!y) return;
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.setLineDash([6, 4]);
      ctx.strokeStyle = colour();
      ctx.beginPath();
      ctx.moveTo(chartArea.left, y.getPixelForValue(rate));
      ctx.lineTo(chartArea.right, y.getPixelForValue(rate));
      ctx.stroke();
      ctx.restore();
    },
  };
}
