/**
 * The explorer's trends: for one row, its medians over runs or commits with their intervals and
 * change points (Chart.js, chart-history.ts), the changes in words, and a click through to each
 * point's file. It reads the explorer's files, and all of results/ when asked (the published
 * site asks at start).
 */
import { signedPct } from '../../core/verdicts/compare-text.ts';
import type { HistoryReport, SeriesHistory } from '../../core/history/history.ts';
import type { HistoryBy, HistoryPoint } from '../../core/history/series.ts';
import type { HistoryChange } from '../../core/history/verdicts.ts';
import { CHANGE_VERDICT_TEXT } from '../../core/verdicts/change.ts';
import { HistoryChart } from '../charts/chart-history.ts';
import { h } from '../dom.ts';
import { FoldedCharts } from './folded-charts.ts';
import { formatMs } from '../../core/base/format.ts';
import type { LoadedFile } from '../model/explorer-model.ts';
import {
  chosenTrend,
  sourceHref,
  trendKey,
  trendOptions,
  trendsOf,
} from '../model/history-model.ts';

export interface TrendChoice {
  row: string | null;
  by: HistoryBy | null;
}

export interface HistoryViewEvents {
  /** The reader chose another row or ordering: the explorer keeps it in the URL. */
  onChoice: (choice: TrendChoice) => void;
  /** Read every file in results/ for the trends. */
  onReadAll: () => void;
}

/** A change's words: its verdict's, and why an undecided one is when its environment changed with it. */
const verdictText = (c: HistoryChange) =>
  c.environment.length > 0
    ? 'undecided: the environment changed at the same point'
    : CHANGE_VERDICT_TEXT[c.verdict];

export class HistoryView {
  readonly element: HTMLElement;
  private readonly chart = new HistoryChart((i) => this.pick(i));
  /** The chart's place while it draws, and the line it folds under while it has nothing to draw. */
  private readonly chartBox = h('div', { className: 'trend-chart' }, this.chart.figure.element);
  private readonly folded = new FoldedCharts('folded-trend');
  private readonly controls: HTMLElement;
  private readonly changes: HTMLElement;
  private readonly detail: HTMLElement;
  private readonly readAll: HTMLButtonElement;
  private files: readonly LoadedFile[] = [];
  private report: HistoryReport | null = null;
  private reportOf: { files: readonly LoadedFile[]; by: HistoryBy } | null = null;
  private shown: SeriesHistory | null = null;
  private choice: TrendChoice = { row: null, by: null };
  private chartRow: Parameters<typeof chosenTrend>[2] = null;
  private pending = 0;

  constructor(private readonly events: HistoryViewEvents) {
    this.controls = h('div', { className: 'chart-choices trend-choices' });
    this.changes = h('ul', {
      className: 'trend-changes',
      attrs: { 'data-testid': 'trend-changes' },
    });
    this.detail = h('div', {
      className: 'trend-detail',
      attrs: { 'data-testid': 'trend-detail', 'aria-live': 'polite' },
    });
    this.readAll = h('button', {
      className: 'button button-small',
      attrs: { type: 'button', 'data-testid': 'trend-read-all' },
    });
    this.readAll.hidden = true;
    this.readAll.addEventListener('click', () => this.events.onReadAll());
    this.element = h(
      'div',
      { className: 'trends', attrs: { 'data-testid': 'trends' } },
      h(
        'p',
        { className: 'figure-caption' },
        "Each row of the loaded files as a series over runs, and where it changed: E-divisive means with a permutation test, then a t-test weighted by each point's interval (Apache Otava's method; the same as npm run history). ",
        'A change where the machine, the browser build or the way of measuring changed too is undecided.',
        ' ',
        this.readAll,
      ),
      this.controls,
      this.chartBox,
      this.folded.element,
      this.changes,
      this.detail,
    );
  }

  /** How many served files are not loaded yet; 0 hides the button. */
  setUnread(count: number): void {
    this.readAll.hidden = count === 0;
    this.readAll.textContent = `Read all ${count} more file${count === 1 ? '' : 's'} in results/ for the trends`;
  }

  /** The files, the URL's choice and the explorer's chart row; the series are found after the page has drawn. */
  render(
    files: readonly LoadedFile[],
    choice: TrendChoice,
    chartRow: Parameters<typeof chosenTrend>[2],
  ): void {
    this.files = files;
    this.choice = choice;
    this.chartRow = chartRow;
    const by = choice.by ?? 'date';
    if (this.reportOf?.files === files && this.reportOf.by === by) {
      this.draw();
      return;
    }
    this.report = null;
    this.chart.figure.showEmpty(
      files.length === 0 ? 'No files loaded.' : 'Finding the series and their change points…',
    );
    this.folded.fold([this.chart.figure.element], this.chartBox);
    const ticket = ++this.pending;
    // Every run compared with a reference takes a moment: after this paint, and only for the newest files.
    setTimeout(() => {
      if (ticket !== this.pending) return;
      this.report = trendsOf(files, by);
      this.reportOf = { files, by };
      this.draw();
    }, 0);
  }

  private draw(): void {
    const report = this.report;
    if (!report) return;
    const s = chosenTrend(report, this.choice.row, this.chartRow);
    this.shown = s;
    this.renderControls(report, s);
    this.folded.unfold([this.chart.figure.element], this.chartBox);
    this.chart.render(
      s,
      report.by,
      'No row has 2 points or more: open several runs (results files) of the same plan, or read all of results/.',
    );
    this.folded.fold([this.chart.figure.element], this.chartBox);
    this.renderChanges(s);
    this.detail.replaceChildren();
  }

  private renderControls(report: HistoryReport, s: SeriesHistory | null): void {
    const rows = h('select', { attrs: { id: 'trend-row', name: 'trend-row' } });
    const groups = new Map<string, HTMLElement>();
    for (const o of trendOptions(report)) {
      let g = groups.get(o.group);
      if (!g) {
        g = h('optgroup', { attrs: { label: o.group } });
        groups.set(o.group, g);
        rows.append(g);
      }
      g.append(h('option', { attrs: { value: o.value } }, o.text));
    }
    if (s) rows.value = trendKey(s.series.key);
    rows.disabled = groups.size === 0;
    rows.addEventListener('change', () =>
      this.events.onChoice({ ...this.choice, row: rows.value }),
    );
    const by = h(
      'select',
      { attrs: { id: 'trend-by', name: 'trend-by' } },
      h('option', { attrs: { value: 'date' } }, 'each run (by date)'),
      h('option', { attrs: { value: 'commit' } }, 'each commit (its runs pooled)'),
    );
    by.value = this.choice.by ?? 'date';
    by.addEventListener('change', () =>
      this.events.onChoice({ ...this.choice, by: by.value as HistoryBy }),
    );
    this.controls.replaceChildren(
      h('label', { className: 'field' }, h('span', { className: 'field-label' }, 'Row'), rows),
      h('label', { className: 'field' }, h('span', { className: 'field-label' }, 'Points'), by),
    );
    // No row to choose: the folded chart's line says what would bring one.
    this.controls.hidden = groups.size === 0;
  }

  private renderChanges(s: SeriesHistory | null): void {
    if (!s) {
      this.changes.replaceChildren();
      return;
    }
    if (s.tooShort) {
      this.changes.replaceChildren(
        h(
          'li',
          { className: 'muted' },
          `${s.tooShort.points} point${s.tooShort.points === 1 ? '' : 's'} with an interval: too short to look for a change; ${s.tooShort.needed} are needed (below that no split can reach the 5% level).`,
        ),
      );
      return;
    }
    if (s.changes.length === 0) {
      this.changes.replaceChildren(
        h('li', { className: 'muted' }, 'No change point in this series.'),
      );
      return;
    }
    this.changes.replaceChildren(
      ...s.changes.map((c) =>
        h(
          'li',
          { className: `trend-change verdict-${c.verdict}` },
          h('strong', {}, `${signedPct(c.pct)} [${signedPct(c.low)}, ${signedPct(c.high)}]`),
          ` between ${c.before.label} and ${c.after.label}: ${formatMs(c.levelBefore)} → ${formatMs(c.levelAfter)} ms, ${verdictText(c)} (p = ${c.p < 0.0001 ? '< 0.0001' : c.p.toFixed(4)}).`,
          c.environment.length > 0 ? ` What changed with it: ${c.environment.join('; ')}.` : '',
        ),
      ),
    );
  }

  /** A clicked point: its medians and its files, each a link where it can be fetched. */
  private pick(index: number): void {
    const p: HistoryPoint | undefined = this.shown?.series.points[index];
    if (!p) return;
    const byId = new Map(this.files.map((f) => [f.id, f]));
    this.detail.replaceChildren(
      h(
        'p',
        {},
        h('strong', {}, p.label),
        ` · net median ${formatMs(p.net.median)} ms${p.net.ci ? ` [${formatMs(p.net.ci.lo)}, ${formatMs(p.net.ci.hi)}]` : ''} · raw median ${formatMs(p.raw.median)} ms · n = ${p.n} · shift ${p.shift ? signedPct(100 * Math.expm1(p.shift.y)) : 'none'} · harness ${p.commit}${p.store ? ` · store ${p.store}` : ''}`,
      ),
      h(
        'ul',
        { className: 'trend-files' },
        ...p.sources.map((id) => {
          const href = sourceHref(id);
          const name = byId.get(id)?.label ?? id;
          return h(
            'li',
            {},
            href ? h('a', { attrs: { href, target: '_blank', rel: 'noopener' } }, name) : name,
            href ? h('span', { className: 'muted' }, ' · ') : '',
            href
              ? h(
                  'a',
                  {
                    attrs: {
                      href: `?results=${encodeURIComponent(decodeURIComponent(href.slice('results/'.length)))}`,
                    },
                  },
                  'open it alone in the explorer',
                )
              : h('span', { className: 'muted' }, ' (a local file or this run)'),
          );
        }),
      ),
    );
  }
}
