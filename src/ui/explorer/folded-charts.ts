/**
 * Charts with nothing to draw, folded away under one line that says what would fill them. A
 * panel that only says "No crash rows…" tells the reader which suite they did not run and costs a
 * screen's height to do it; the line says the same for all of them at once, and opening it shows
 * each panel with its own message (and its choices, which may bring a chart back). Charts drawn
 * with little to show (one size on a scaling chart, the medians of this page's run alone, drawn
 * under Results already) fold with them.
 */
import { h } from '../dom.ts';

/** What would give each chart (by its data-chart kind) something to draw: a suite, or another run. */
const FILLED_BY: Readonly<Record<string, { suite: string } | { other: string }>> = {
  bars: { other: 'an ok row of the chosen case' },
  boxplot: { other: 'an ok row of the chosen case' },
  histogram: { other: 'an ok row of the chosen case' },
  scaling: { other: 'an ok row of the chosen case' },
  growth: { suite: 'growth' },
  crash: { suite: 'crash' },
  cold: { suite: 'cold' },
  tabs: { suite: 'tabs' },
  throttle: { other: 'a run with --cpu-throttle N beside an unthrottled one' },
  history: { other: 'two runs or more of the same plan' },
};

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1) as string}`;
}

/** A folded chart: its kind, and for one drawn with little to show, what would give it more. */
interface FoldedChart {
  kind: string;
  little?: string;
}

/**
 * The folded line: how many charts have nothing (or little) to draw, and the suites (and other
 * runs) that would fill them.
 */
export function foldedLine(charts: readonly (string | FoldedChart)[]): string {
  const folds = charts.map((c) => (typeof c === 'string' ? { kind: c } : c));
  const fills = folds.map((f) =>
    f.little !== undefined
      ? { other: f.little }
      : (FILLED_BY[f.kind] ?? { other: 'other results' }),
  );
  const suites = [...new Set(fills.flatMap((f) => ('suite' in f ? [f.suite] : [])))];
  const others = [...new Set(fills.flatMap((f) => ('other' in f ? [f.other] : [])))];
  const what = [
    ...(suites.length > 0 ? [`the ${listed(suites)} suite${suites.length === 1 ? '' : 's'}`] : []),
    ...others,
  ];
  const n = folds.length;
  const how = folds.some((f) => f.little !== undefined) ? 'little or nothing' : 'nothing';
  return `${n} chart${n === 1 ? '' : 's'} with ${how} to draw in what is loaded: ${listed(what)} would fill ${n === 1 ? 'it' : 'them'}.`;
}

export class FoldedCharts {
  /** The one line, and under it, opened, the empty panels themselves. */
  readonly element: HTMLDetailsElement;
  private readonly line: HTMLElement;
  private readonly body: HTMLElement;

  constructor(testId: string) {
    this.line = h('summary', { className: 'folded-line muted' });
    this.body = h('div', { className: 'explorer-figures folded-figures' });
    this.element = h(
      'details',
      { className: 'folded-charts', attrs: { 'data-testid': testId } },
      this.line,
      this.body,
    );
    this.element.hidden = true;
  }

  /**
   * Every figure back in `grid`, in order, before the charts render: a chart drawn while folded
   * would size itself to a box that is not shown.
   */
  unfold(figures: readonly HTMLElement[], grid: HTMLElement): void {
    grid.replaceChildren(...figures);
  }

  /**
   * The drawn figures in `grid`, in order; the empty ones, and those drawn with little to show
   * (ChartFigure.setLittle), folded under the line.
   */
  fold(figures: readonly HTMLElement[], grid: HTMLElement): void {
    const folds = (f: HTMLElement) => f.dataset.state === 'empty' || f.dataset.little !== undefined;
    const folded = figures.filter(folds);
    grid.replaceChildren(...figures.filter((f) => !folds(f)));
    this.body.replaceChildren(...folded);
    this.element.hidden = folded.length === 0;
    grid.hidden = folded.length === figures.length;
    this.line.textContent = foldedLine(
      folded.map((f) => ({
        kind: f.dataset.chart ?? '',
        ...(f.dataset.little !== undefined ? { little: f.dataset.little } : {}),
      })),
    );
  }
}
