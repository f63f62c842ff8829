/**
 * What every chart of the page shares: the Chart.js parts it registers, colours read from the
 * page's CSS (so light and dark mode follow the stylesheet), a background so a downloaded PNG is
 * not transparent, CI whiskers, and the figure around a canvas with its PNG button.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Title,
  Tooltip,
  type ChartConfiguration,
  type ChartType,
  type Plugin,
} from 'chart.js';
import { h } from '../dom.ts';
import { saveBlob } from '../results/downloads.ts';

let registered = false;

/** Only the parts these charts use, so the bundle stays small. */
export function registerCharts(): void {
  if (registered) return;
  Chart.register(
    BarController,
    BarElement,
    LineController,
    LineElement,
    PointElement,
    ScatterController,
    CategoryScale,
    LinearScale,
    LogarithmicScale,
    Tooltip,
    Legend,
    Title,
  );
  registered = true;
}

export function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

export interface Theme {
  fg: string;
  muted: string;
  grid: string;
  background: string;
}

/** Read at each draw, so a switch between light and dark mode shows at the next render. */
export function theme(): Theme {
  return {
    fg: cssVar('--fg', '#222'),
    muted: cssVar('--muted', '#666'),
    grid: cssVar('--grid', 'rgba(0,0,0,0.1)'),
    background: cssVar('--panel', '#fff'),
  };
}

/** Calls `redraw` when the reader's colour scheme changes. */
export function onSchemeChange(redraw: () => void): void {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', redraw);
}

/** Paints the panel colour under the chart: a PNG otherwise has a transparent background. */
const backgroundPlugin: Plugin = {
  id: 'storebenchBackground',
  beforeDraw(chart) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.globalCompositeOperation = 'destination-over';
    ctx.fillStyle = cssVar('--panel', '#fff');
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
};

/** The 95% interval of the statistic a bar shows (the median's, for every chart here), in the value axis' units. */
export interface Interval {
  lo: number;
  hi: number;
}

/**
 * Whiskers for bar charts: Chart.js has no error bars. `intervals()[dataset][index]` is the
 * interval of the value each bar shows, or null for none (too few samples, or no bar).
 */
export function errorBarsPlugin<T extends 'bar' | 'scatter' | 'line' = 'bar'>(
  intervals: () => (Interval | null)[][],
  colour: () => string,
): Plugin<T> {
  return {
    id: 'storebenchErrorBars',
    afterDatasetsDraw(chart) {
      const y = chart.scales.y;
      if (!y) return;
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.beginPath();
      ctx.rect(
        chartArea.left,
        chartArea.top,
        chartArea.right - chartArea.left,
        chartArea.bottom - chartArea.top,
      );
      ctx.clip();
      ctx.strokeStyle = colour();
      ctx.lineWidth = 1.5;
      intervals().forEach((list, di) => {
        if (!chart.isDatasetVisible(di)) return;
        const bars = chart.getDatasetMeta(di).data;
        list.forEach((iv, i) => {
          // A bar's whisker is capped at a third of its width; a point's (a line chart) at 8 px.
          const bar = bars[i] as unknown as { x: number; width?: number } | undefined;
          if (!iv || !bar) return;
          // On a log axis the low end may be at or below 0: stop the whisker at the axis instead.
          const top = y.getPixelForValue(iv.hi);
          const bottom = y.getPixelForValue(Math.max(iv.lo, y.min));
          const cap = Math.min((bar.width ?? 24) * 0.35, 8);
          ctx.beginPath();
          ctx.moveTo(bar.x, top);
          ctx.lineTo(bar.x, bottom);
          ctx.moveTo(bar.x - cap, top);
          ctx.lineTo(bar.x + cap, top);
          ctx.moveTo(bar.x - cap, bottom);
          ctx.lineTo(bar.x + cap, bottom);
          ctx.stroke();
        });
      });
      ctx.restore();
    },
  };
}

/** A file-name-safe stem for downloads, from text that may come from a results file. */
function fileStem(text: string): string {
  return (
    text
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 120) || 'chart'
  );
}

/**
 * A chart in a figure: a heading, options, a caption, the canvas and a PNG button. Each render
 * builds a new Chart (they are small and drawn without animation), which keeps no state from a
 * previous configuration.
 */
export class ChartFigure<T extends ChartType = ChartType> {
  readonly element: HTMLElement;
  readonly options: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly caption: HTMLElement;
  private readonly empty: HTMLElement;
  private readonly box: HTMLElement;
  private readonly png: HTMLButtonElement;
  private chart: Chart<T> | null = null;
  private name = 'chart';

  constructor(kind: string, heading: string, ariaLabel: string) {
    this.canvas = h('canvas', { attrs: { role: 'img', 'aria-label': ariaLabel } });
    this.options = h('div', { className: 'figure-options' });
    this.png = h(
      'button',
      { className: 'button button-small', attrs: { type: 'button', 'data-testid': `png-${kind}` } },
      'PNG',
    );
    this.png.title = 'Download this chart as a PNG image';
    this.png.addEventListener('click', () => this.downloadPng());
    this.caption = h('p', { className: 'figure-caption' });
    this.empty = h('p', { className: 'chart-placeholder' });
    this.box = h('div', { className: 'chart-box' }, this.canvas);
    this.element = h(
      'figure',
      { className: 'explorer-figure', attrs: { 'data-chart': kind } },
      h('div', { className: 'figure-head' }, h('h3', {}, heading), this.options, this.png),
      this.caption,
      this.empty,
      this.box,
    );
  }

  setCaption(text: string): void {
    this.caption.textContent = text;
  }

  /**
   * Drawn, but with little to show in what is loaded (a scaling chart of one size): `fill` says
   * what would give it more, and the explorer folds it with the empty ones. Every draw clears it.
   */
  setLittle(fill: string): void {
    this.element.dataset.little = fill;
  }

  /**
   * No chart: the message says why, naming the current choice. The caption of an earlier choice
   * goes, so nothing above the message names what is no longer shown.
   */
  showEmpty(message: string): void {
    this.destroy();
    this.caption.textContent = '';
    this.empty.textContent = message;
    this.empty.hidden = false;
    this.box.hidden = true;
    this.png.disabled = true;
    delete this.element.dataset.little;
    this.element.dataset.state = 'empty';
  }

  draw(config: ChartConfiguration<T>, fileName: string): void {
    this.destroy();
    this.empty.hidden = true;
    this.box.hidden = false;
    this.png.disabled = false;
    delete this.element.dataset.little;
    this.name = fileStem(fileName);
    this.chart = new Chart(this.canvas, {
      ...config,
      plugins: [...(config.plugins ?? []), backgroundPlugin as Plugin<T>],
    });
    this.element.dataset.state = 'drawn';
  }

  private destroy(): void {
    this.chart?.destroy();
    this.chart = null;
  }

  private downloadPng(): void {
    this.canvas.toBlob((blob) => {
      if (blob) saveBlob(blob, `${this.name}.png`);
    }, 'image/png');
  }
}

/** What every figure's chart shares: drawn at once (no animation), sized by its box, in the page's colours. */
export function figureOptions(t: Theme) {
  return { animation: false, responsive: true, maintainAspectRatio: false, color: t.fg } as const;
}

/** An axis in the page's colours, with its title (which always names the unit). */
export function axis(
  t: Theme,
  title: string,
  type: 'linear' | 'logarithmic' | 'category',
  extra: Record<string, unknown> = {},
) {
  return {
    type,
    title: { display: true, text: title, color: t.muted },
    ticks: { color: t.muted },
    grid: { color: t.grid },
    border: { color: t.grid },
    ...extra,
  };
}

/** The category axis of browsers: labels in lines (axisLines), never rotated into the y-axis title, none skipped. */
export function browserAxis(t: Theme) {
  // Smaller on a phone-width chart, where four columns leave about 55 px a label.
  const font = (ctx: { chart: { width: number } }) => ({ size: ctx.chart.width < 420 ? 10 : 12 });
  return axis(t, 'browser', 'category', {
    grid: { display: false },
    ticks: { color: t.muted, maxRotation: 0, autoSkip: false, font },
  });
}

/** The chart's own title and legend, drawn in the canvas so a downloaded PNG says what it shows. */
export function titleAndLegend(t: Theme, title: string, legend = true) {
  return {
    title: {
      display: true,
      text: title,
      color: t.fg,
      font: { size: 13, weight: 'bold' as const },
      padding: { top: 4, bottom: 8 },
    },
    legend: { display: legend, labels: { color: t.fg, boxWidth: 12, boxHeight: 12 } },
  };
}

/**
 * Tick labels for a log axis: only 1, 2 and 5 times a power of ten, in plain numbers
 * (Chart.js's own labels print 1,000.0 and crowd the minor ticks).
 */
export function logTicks(t: Theme) {
  return {
    color: t.muted,
    callback: (value: number | string) => {
      const v = Number(value);
      if (!(v > 0)) return '';
      const m = Math.round((v / 10 ** Math.floor(Math.log10(v))) * 1000) / 1000;
      return m === 1 || m === 2 || m === 5 ? Number(v.toPrecision(6)).toLocaleString() : '';
    },
  };
}
