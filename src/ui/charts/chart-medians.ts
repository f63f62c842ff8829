/**
 * Bar chart of medians, one bar per adapter in each (case, size) group, with whiskers for the
 * 95% confidence interval of that median (src/core/stats/stats.ts), so the whisker belongs to the bar.
 * Chart.js has no error bars; the whisker plugin of chart-common.ts draws them after the bars.
 */
import { Chart, type ChartConfiguration, type TooltipItem } from 'chart.js';
import type { CaseResult } from '../../core/results/results.ts';
import { cssVar, errorBarsPlugin, registerCharts } from './chart-common.ts';
import { adapterColour, adapterLegend } from './colours.ts';
import { h } from '../dom.ts';
import { describeMean, describeMedian } from '../results/row-text.ts';

type OkCase = Extract<CaseResult, { status: 'ok' }>;

interface Model {
  /** Per dataset (adapter), per label (group): the row behind the bar, or null. */
  rows: (OkCase | null)[][];
}

/** The whiskers: the 95% interval of the median behind each bar, where there is one. */
function intervalsOf(model: Model) {
  return () => model.rows.map((rows) => rows.map((r) => (r ? (r.stats.medianCi ?? null) : null)));
}

interface SizeChart {
  readonly wrapper: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly model: Model;
  chart: Chart<'bar', (number | null)[], string> | null;
}

/**
 * One chart per document count: sizes differ by orders of magnitude, and on a shared axis the
 * small ones would be slivers. Within a chart, one group per case and one bar per adapter.
 */
export class MediansChart {
  readonly element: HTMLElement;
  private readonly charts = new Map<number, SizeChart>();
  private readonly list: HTMLElement;
  private readonly legend: HTMLElement;
  private readonly placeholder: HTMLElement;
  private readonly logToggle: HTMLInputElement;
  private rows: readonly CaseResult[] = [];

  constructor() {
    registerCharts();
    this.placeholder = h(
      'p',
      { className: 'chart-placeholder' },
      'The chart fills in as cases finish.',
    );
    this.logToggle = h('input', { attrs: { type: 'checkbox', id: 'chart-log' } });
    this.logToggle.addEventListener('change', () => this.render());
    this.legend = h('div', { className: 'chart-legend', attrs: { 'aria-label': 'Adapters' } });
    this.list = h('div', { className: 'chart-list' });
    this.element = h(
      'div',
      { className: 'chart-medians' },
      h(
        'div',
        { className: 'chart-head' },
        h(
          'p',
          { className: 'chart-caption' },
          'Bars: median of the timed samples. Whiskers: 95% confidence interval of that median (none below 6 samples, nor in files from before it was recorded).',
        ),
        this.legend,
        h('label', { className: 'chart-option' }, this.logToggle, ' log scale'),
      ),
      this.placeholder,
      this.list,
    );
    // Follow the reader's light/dark switch without a reload.
    matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => this.render());
  }

  /** Redraw from these rows; synchronous (no animation), so it never runs on into a timed sample. */
  update(rows: readonly CaseResult[]): void {
    this.rows = rows;
    this.render();
  }

  private render(): void {
    const ok = this.rows.filter((r): r is OkCase => r.status === 'ok');
    const adapters = [...new Set(ok.map((r) => r.adapter))];
    const sizes = [...new Set(ok.map((r) => r.size))].sort((a, b) => a - b);
    this.placeholder.hidden = ok.length > 0;
    this.legend.replaceChildren(
      ...adapters.map((a) =>
        h(
          'span',
          { className: 'legend-item' },
          h('span', {
            className: 'legend-swatch',
            attrs: { style: `background:${adapterColour(a)}` },
          }),
          adapterLegend(a),
        ),
      ),
    );
    for (const [size, sc] of this.charts) {
      if (sizes.includes(size)) continue;
      sc.chart?.destroy();
      sc.wrapper.remove();
      this.charts.delete(size);
    }
    for (const size of sizes) {
      let sc = this.charts.get(size);
      if (!sc) {
        const canvas = h('canvas', {
          attrs: {
            role: 'img',
            'aria-label': `Median time per adapter at ${size} documents, with the 95% confidence interval of each median`,
          },
        });
        const wrapper = h(
          'figure',
          { className: 'chart-size', attrs: { 'data-size': String(size) } },
          h('figcaption', {}, `${size} docs`),
          h('div', { className: 'chart-box' }, canvas),
        );
        sc = { wrapper, canvas, model: { rows: [] }, chart: null };
        this.charts.set(size, sc);
      }
      // Keep the charts in size order even when a smaller size finishes later.
      this.list.append(sc.wrapper);
      this.draw(
        sc,
        ok.filter((r) => r.size === size),
        adapters,
      );
    }
  }

  private draw(sc: SizeChart, ok: readonly OkCase[], adapters: readonly string[]): void {
    const labels = [...new Set(ok.map((r) => `${r.suite}/${r.case}`))];
    sc.model.rows = adapters.map((a) =>
      labels.map((l) => ok.find((r) => r.adapter === a && `${r.suite}/${r.case}` === l) ?? null),
    );

    const fg = cssVar('--fg', '#222');
    const muted = cssVar('--muted', '#666');
    const grid = cssVar('--grid', 'rgba(0,0,0,0.1)');
    const log = this.logToggle.checked;
    const top = Math.max(...ok.map((r) => Math.max(r.stats.median, r.stats.medianCi?.hi ?? 0)));
    const data: ChartConfiguration<'bar', (number | null)[], string>['data'] = {
      labels,
      datasets: adapters.map((a, di) => ({
        label: adapterLegend(a),
        // A log scale cannot show a 0 ms median (a coarse timer); that bar is simply absent there.
        data: (sc.model.rows[di] ?? []).map((r) => (r ? r.stats.median : null)),
        backgroundColor: `${adapterColour(a)}cc`,
        borderColor: adapterColour(a),
        borderWidth: 1,
      })),
    };
    const options: ChartConfiguration<'bar', (number | null)[], string>['options'] = {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      color: fg,
      scales: {
        x: { ticks: { color: muted }, grid: { display: false }, border: { color: grid } },
        y: {
          type: log ? 'logarithmic' : 'linear',
          ...(log ? {} : { beginAtZero: true }),
          // The whiskers can reach past the tallest bar; make room so they are not clipped.
          suggestedMax: top * (log ? 1.5 : 1.05),
          title: { display: true, text: 'median time (ms)', color: muted },
          ticks: { color: muted },
          grid: { color: grid },
          border: { color: grid },
        },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            label: (item: TooltipItem<'bar'>) => {
              const row = sc.model.rows[item.datasetIndex]?.[item.dataIndex];
              return row ? `${row.adapter}: ${describeMedian(row)}` : '';
            },
            afterLabel: (item: TooltipItem<'bar'>) => {
              const row = sc.model.rows[item.datasetIndex]?.[item.dataIndex];
              if (!row) return '';
              return `${describeMean(row.stats)}, n = ${row.stats.n}`;
            },
          },
        },
      },
    };

    if (sc.chart) {
      sc.chart.data = data;
      sc.chart.options = options;
      sc.chart.update('none');
    } else {
      sc.chart = new Chart(sc.canvas, {
        type: 'bar',
        data,
        options,
        plugins: [errorBarsPlugin(intervalsOf(sc.model), () => cssVar('--fg', '#222'))],
      });
    }
  }
}
