/**
 * The results explorer: any number of results documents (from results/, local files, or the
 * run just finished), what they found in words, compared across browsers in a table, its charts
 * and the change-in-speed table, and exported as CSV, TSV, XLSX or JSON. Files from results/, the filters, the sort and
 * the chart choices live in the URL, so a link reopens the same view.
 */
import { errorMessage } from '../../core/base/errors.ts';
import type { ResultsFile } from '../../core/results/results.ts';
import type { ResultsIndexEntry } from '../../core/results/input.ts';
import { AbView } from '../results/ab-view.ts';
import { BarsChart, wantsLog } from '../charts/chart-bars.ts';
import { BoxPlotChart } from '../charts/chart-boxplot.ts';
import { onSchemeChange } from '../charts/chart-common.ts';
import { GrowthChart } from '../charts/chart-growth.ts';
import { HistogramChart } from '../charts/chart-histogram.ts';
import { ScalingChart } from '../charts/chart-scaling.ts';
import { ThrottleChart } from '../charts/chart-throttle.ts';
import { DRIVEN_CHARTS } from '../charts/driven-charts.ts';
import { ComparisonTable, type Pick } from './comparison-table.ts';
import { h } from '../dom.ts';
import { FindingsList } from '../results/findings-list.ts';
import { ExportsView } from './explorer-exports.ts';
import { FiltersView } from './explorer-filters.ts';
import {
  buildComparison,
  effectiveChoice,
  facetsOf,
  filteredDocs,
  type ChartChoice,
  type Comparison,
  type EffectiveChoice,
  type LoadedFile,
} from '../model/explorer-model.ts';
import { fetchServed, SourcesView } from './explorer-sources.ts';
import { readExplorerState, writeExplorerState, type ExplorerState } from './explorer-url.ts';
import { RatioTable } from './ratio-table.ts';
import { HistoryView } from './history-view.ts';
import { newestPerBrowser } from '../model/site-default.ts';
import { IS_SITE } from '../site.ts';
import { StudyReportsView } from './study-reports.ts';
import { FoldedCharts } from './folded-charts.ts';
import { SectionFold } from './section-fold.ts';

export class Explorer {
  readonly element: HTMLElement;
  private files: LoadedFile[] = [];
  private state: ExplorerState;
  private readonly sources: SourcesView;
  private readonly filters: FiltersView;
  private readonly exports: ExportsView;
  private readonly table: ComparisonTable;
  private readonly bars = new BarsChart();
  private readonly boxplot = new BoxPlotChart();
  private readonly scaling = new ScalingChart();
  private readonly histogram = new HistogramChart();
  private readonly growth = new GrowthChart();
  /** The driven suites' charts (crash, cold, tabs), in the order of suites/driven.ts. */
  private readonly driven = Object.values(DRIVEN_CHARTS).flatMap((chart) =>
    chart ? [chart()] : [],
  );
  private readonly throttle = new ThrottleChart();
  /** The grid of drawn charts, and the line the empty ones fold under. */
  private readonly figureGrid = h('div', { className: 'explorer-figures' });
  private readonly folded = new FoldedCharts('folded-charts');
  private readonly ratio = new RatioTable();
  private readonly trends = new HistoryView({
    onChoice: (trend) => {
      this.state = { ...this.state, trend };
      this.update();
    },
    onReadAll: () => void this.readAllForTrends(),
  });
  /** Files of results/ read for the trends only (not shown in the tables and charts). */
  private trendFiles: LoadedFile[] = [];
  /** The list the trends were last given: the same array while nothing changed, so they keep their series. */
  private trendInput: LoadedFile[] = [];
  private index: ResultsIndexEntry[] = [];
  private readonly studies = new StudyReportsView();
  private readonly findings = new FindingsList('What these results found');
  /** A/B runs among the files, whatever the filters: the verdict is over every row of the run. */
  private readonly ab = new AbView();
  private readonly choices: HTMLElement;
  private readonly body: HTMLElement;
  private readonly linkNote = h('span', { className: 'muted link-note' });
  /** Said instead of the findings while they are this page's run's alone, shown above under Results. */
  private readonly sameFindings = h(
    'p',
    { className: 'muted same-findings', attrs: { 'data-testid': 'same-findings', hidden: '' } },
    "What these results found: this page's run alone, whose findings are above under Results.",
  );
  /** The comparison, folded while it would be the results table above again (this page's run alone). */
  private readonly comparisonFold: SectionFold;
  /** The change in speed, folded to its line while the explorer holds this page's run alone. */
  private readonly ratioFold = new SectionFold(
    'ratio-fold',
    'Change in speed',
    this.ratio.element,
    true,
  );
  private comparison: Comparison = { columns: [], rows: [] };
  /** The files the URL asked for, until start() has fetched them. */
  private readonly requested: string[];

  constructor(
    dropTarget: HTMLElement,
    search: string,
    private readonly onUrlChange: (search: string) => void,
  ) {
    const { state, errors } = readExplorerState(search);
    this.state = state;
    this.requested = state.results;
    this.sources = new SourcesView(
      {
        onLocal: (files) => this.add(files),
        onServedToggle: (name, on) =>
          on ? void this.loadServed([name]) : this.remove(`served:${name}`),
        onRemove: (id) => this.remove(id),
      },
      dropTarget,
    );
    if (errors.length > 0) this.sources.showErrors(errors.map((e) => `URL: ${e}`));
    this.filters = new FiltersView(state.filters, (filters) => {
      this.state = { ...this.state, filters };
      this.update();
    });
    this.exports = new ExportsView(() => filteredDocs(this.files, this.state.filters));
    this.table = new ComparisonTable(
      (sort) => {
        this.state = { ...this.state, sort };
        this.update();
      },
      (pick) => this.pick(pick),
    );
    this.comparisonFold = new SectionFold(
      'comparison-fold',
      'Browser comparison',
      this.table.element,
      true,
    );
    const copyLink = this.copyLinkButton();
    this.choices = h('div', {
      className: 'chart-choices',
      attrs: { 'data-testid': 'chart-choices' },
    });
    const figures = this.figuresElement();
    this.body = h(
      'div',
      { className: 'explorer-body' },
      this.filters.element,
      h(
        'div',
        { className: 'explorer-toolbar' },
        this.exports.element,
        h('div', { className: 'explorer-link' }, copyLink, this.linkNote),
      ),
      this.sameFindings,
      this.findings.element,
      this.studies.element,
      this.ab.element,
      this.comparisonFold.element,
      h('h3', { className: 'explorer-heading', attrs: { id: 'explorer-charts' } }, 'Charts'),
      this.choices,
      figures,
      this.ratioFold.element,
      h(
        'h3',
        { className: 'explorer-heading', attrs: { id: 'explorer-trends' } },
        'Trends over runs',
      ),
      this.trends.element,
    );
    this.element = h(
      'div',
      { className: 'explorer', attrs: { 'data-testid': 'explorer' } },
      this.sources.element,
      this.body,
    );
    onSchemeChange(() => this.renderCharts());
    this.update();
  }

  /** Every chart of the explorer, in a grid, and under it the line the empty ones fold under. */
  private figuresElement(): HTMLElement {
    this.folded.unfold(this.figureElements(), this.figureGrid);
    return h('div', { className: 'explorer-charts' }, this.figureGrid, this.folded.element);
  }

  /** Every chart's figure, in the order the grid shows them. */
  private figureElements(): HTMLElement[] {
    return [
      this.bars.figure.element,
      this.boxplot.figure.element,
      this.scaling.figure.element,
      this.histogram.figure.element,
      this.growth.figure.element,
      ...this.driven.map((c) => c.figure.element),
      this.throttle.figure.element,
    ];
  }

  /** The button that copies the link to this view, saying what the link leaves out. */
  private copyLinkButton(): HTMLButtonElement {
    const copyLink = h(
      'button',
      { className: 'button button-small', attrs: { type: 'button', id: 'explorer-link' } },
      'Copy link',
    );
    copyLink.addEventListener('click', () => {
      navigator.clipboard.writeText(location.href).then(
        () => (this.linkNote.textContent = `Link copied.${this.unlinkable()}`),
        (e: unknown) =>
          (this.linkNote.textContent = `Could not copy (${errorMessage(e)}); the address bar holds the same link.`),
      );
    });
    return copyLink;
  }

  /**
   * List results/ and load what the URL asks for; resolves to the listing (empty when there is
   * none). The published site, asked for nothing, opens each browser's newest run, and reads every
   * file for the trends.
   */
  async start(base: string): Promise<ResultsIndexEntry[]> {
    const index = await this.sources.loadIndex(base);
    this.index = index;
    this.sources.renderServed(this.servedNames(), this.files.length > 0);
    if (this.requested.length > 0) await this.loadServed(this.requested, base);
    else if (IS_SITE && index.length > 0) {
      await this.loadServed(newestPerBrowser(index), base);
      await this.readAllForTrends(base);
    } else this.update();
    return index;
  }

  /** Every served file not loaded yet, for the trends only. */
  private async readAllForTrends(base = location.href): Promise<void> {
    const have = new Set([...this.files, ...this.trendFiles].map((f) => f.id.replace(/#\d+$/, '')));
    const names = this.index
      .filter((f) => f.error === undefined && !have.has(`served:${f.name}`))
      .map((f) => f.name);
    const settled = await Promise.allSettled(names.map((n) => fetchServed(n, base)));
    const errors: string[] = [];
    for (const s of settled) {
      if (s.status === 'fulfilled') for (const doc of s.value) this.trendFiles.push(doc);
      else errors.push(errorMessage(s.reason));
    }
    this.sources.showErrors(errors);
    this.update();
  }

  /** The run just finished in this page. */
  addRun(results: ResultsFile): void {
    this.add([
      {
        id: `run:${results.run.id}`,
        label: `this run (${results.run.id})`,
        origin: 'run',
        results,
      },
    ]);
  }

  private async loadServed(names: readonly string[], base = location.href): Promise<void> {
    const settled = await Promise.allSettled(names.map((n) => fetchServed(n, base)));
    const loaded: LoadedFile[] = [];
    const errors: string[] = [];
    // A loop, not push(...): a set of many thousand documents would overflow the stack as arguments.
    for (const s of settled) {
      if (s.status === 'fulfilled') for (const doc of s.value) loaded.push(doc);
      else errors.push(errorMessage(s.reason));
    }
    this.sources.showErrors(errors);
    this.add(loaded);
  }

  private add(files: readonly LoadedFile[]): void {
    const ids = new Set(files.map((f) => f.id));
    // A file read again replaces its earlier copy (and every document of it).
    const base = (id: string) => id.replace(/#\d+$/, '');
    const bases = new Set([...ids].map(base));
    this.files = [...this.files.filter((f) => !bases.has(base(f.id))), ...files];
    this.update();
  }

  /** Drop a file (every document of it); the link follows, since update() lists what is open. */
  private remove(id: string): void {
    const base = id.replace(/#\d+$/, '');
    this.files = this.files.filter((f) => f.id !== base && !f.id.startsWith(`${base}#`));
    this.update();
  }

  private servedNames(): Set<string> {
    return new Set(
      this.files
        .filter((f) => f.origin === 'served')
        .map((f) => f.id.slice('served:'.length).replace(/#\d+$/, '')),
    );
  }

  private pick(p: Pick): void {
    this.state = {
      ...this.state,
      chart: {
        ...this.state.chart,
        case: p.case,
        size: p.size,
        adapter: p.adapter,
        ...(p.browser !== null ? { browser: p.browser } : {}),
      },
    };
    this.update();
  }

  private unlinkable(): string {
    const n = this.files.filter((f) => f.origin !== 'served').length;
    return n === 0
      ? ''
      : ` It opens the files from results/ only; ${n} local or in-page document${n === 1 ? ' is' : 's are'} not in it.`;
  }

  /** Recompute from the files and the state, redraw everything, and write the state to the URL. */
  private update(): void {
    this.state = { ...this.state, results: [...this.servedNames()] };
    this.sources.renderLoaded(this.files);
    this.sources.renderServed(this.servedNames(), this.files.length > 0);
    this.filters.render(facetsOf(this.files));
    this.comparison = buildComparison(this.files, this.state.filters);
    this.body.hidden = this.files.length === 0;
    this.exports.setEnabled(this.comparison.rows.length > 0);
    this.linkNote.textContent = this.unlinkable().trim();
    const choice = effectiveChoice(this.comparison, this.state.chart);
    this.table.render(
      this.comparison,
      this.state.sort,
      choice.caseId !== null && choice.size !== null && choice.adapter !== null
        ? { case: choice.caseId, size: choice.size, adapter: choice.adapter }
        : null,
      this.files.length === 0
        ? 'Open results files above, or pick some from results/.'
        : 'No rows match the filters.',
    );
    this.renderChoices(choice);
    this.renderCharts(choice);
    this.ratio.render(this.comparison);
    this.renderTrends(choice);
    const shown = filteredDocs(this.files, this.state.filters);
    this.findings.render(shown);
    const onlyThisRun = this.onlyThisRun();
    // This page's run alone: the comparison is the results table above again, and the change in
    // speed a table of one column, said in a line (the findings above hold its main pairs).
    this.comparisonFold.set(
      onlyThisRun,
      onlyThisRun
        ? `: this page's run alone, the results table above again (${this.comparison.rows.length} rows, one column); open to sort it or pick a row for the charts.`
        : '',
    );
    this.ratioFold.set(onlyThisRun, onlyThisRun ? `: ${this.ratio.line}.` : '');
    const hasFindings = !this.findings.element.hidden;
    this.findings.element.hidden = !hasFindings || onlyThisRun;
    this.sameFindings.hidden = !(hasFindings && onlyThisRun);
    this.studies.render(shown);
    this.ab.render(this.files.map((f) => f.results));
    this.onUrlChange(writeExplorerState(location.search, this.state));
  }

  /**
   * Whether the explorer holds this page's run alone, which the Results above show already (after
   * a second run in the page it holds two, and the Results show the second).
   */
  private onlyThisRun(): boolean {
    return this.files.length === 1 && this.files[0]?.origin === 'run';
  }

  /** The trends over the explorer's files and those read for the trends; a new list only when either changed. */
  private renderTrends(choice: EffectiveChoice): void {
    const ids = new Set(this.files.map((f) => f.id));
    const all = [...this.files, ...this.trendFiles.filter((f) => !ids.has(f.id))];
    const same =
      this.trendInput.length === all.length && all.every((f, i) => f === this.trendInput[i]);
    if (!same) this.trendInput = all;
    const loaded = new Set(all.map((f) => f.id.replace(/^served:/, '').replace(/#\d+$/, '')));
    this.trends.setUnread(this.index.filter((f) => !f.error && !loaded.has(f.name)).length);
    const column = this.comparison.columns.find((c) => c.key === choice.browser);
    const [suite, caseId] = choice.caseId?.split('/') ?? [];
    this.trends.render(this.trendInput, this.state.trend, {
      ...(column ? { browser: column.browser } : {}),
      ...(suite !== undefined && caseId !== undefined ? { suite, case: caseId } : {}),
      ...(choice.adapter !== null ? { adapter: choice.adapter } : {}),
      ...(choice.size !== null ? { size: choice.size } : {}),
    });
  }

  private renderCharts(choice = effectiveChoice(this.comparison, this.state.chart)): void {
    if (this.files.length === 0) return;
    const figures = this.figureElements();
    this.folded.unfold(figures, this.figureGrid);
    const log = this.state.chart.log ?? wantsLog(this.comparison, choice.caseId, choice.size);
    this.bars.render(this.comparison, choice.caseId, choice.size, log);
    // This page's run alone: its medians are drawn under Results, every case at once.
    if (this.onlyThisRun() && this.bars.figure.element.dataset.state === 'drawn')
      this.bars.figure.setLittle("another browser's results");
    this.boxplot.render(this.comparison, choice.caseId, choice.size, log);
    this.scaling.render(this.comparison, choice.caseId, choice.browser);
    this.histogram.render(
      this.comparison,
      choice.caseId,
      choice.size,
      choice.adapter,
      choice.browser,
    );
    this.growth.render(
      this.comparison,
      this.state.chart.case,
      this.state.chart.size,
      choice.browser,
    );
    for (const chart of this.driven)
      chart.render(this.comparison, { case: this.state.chart.case, browser: choice.browser, log });
    this.throttle.render(this.comparison, choice.caseId, choice.size, choice.browser);
    this.folded.fold(figures, this.figureGrid);
  }

  private renderChoices(choice: EffectiveChoice): void {
    const setChart = (patch: Partial<ChartChoice>) => {
      this.state = { ...this.state, chart: { ...this.state.chart, ...patch } };
      this.update();
    };
    const select = (
      id: string,
      label: string,
      options: { value: string; text: string; group?: string }[],
      current: string | null,
      onPick: (v: string) => void,
      title?: string,
    ) => {
      const el = h('select', { attrs: { id, name: id } });
      const groups = new Map<string, HTMLElement>();
      for (const o of options) {
        const option = h('option', { attrs: { value: o.value } }, o.text);
        if (o.group === undefined) el.append(option);
        else {
          let g = groups.get(o.group);
          if (!g) {
            g = h('optgroup', { attrs: { label: o.group } });
            groups.set(o.group, g);
            el.append(g);
          }
          g.append(option);
        }
      }
      if (current !== null) el.value = current;
      el.disabled = options.length === 0;
      el.addEventListener('change', () => onPick(el.value));
      return h(
        'label',
        { className: 'field', ...(title !== undefined ? { title } : {}) },
        h('span', { className: 'field-label' }, label),
        el,
      );
    };
    const log = h('input', { attrs: { type: 'checkbox', id: 'chart-choice-log' } });
    log.checked = this.state.chart.log ?? wantsLog(this.comparison, choice.caseId, choice.size);
    log.addEventListener('change', () => setChart({ log: log.checked }));
    this.choices.replaceChildren(
      select(
        'chart-choice-case',
        'Case',
        choice.cases.map((c) => ({
          value: c,
          text: c.slice(c.indexOf('/') + 1),
          group: c.slice(0, c.indexOf('/')),
        })),
        choice.caseId,
        (v) => setChart({ case: v }),
      ),
      select(
        'chart-choice-size',
        'Size (documents)',
        choice.sizes.map((s) => ({ value: String(s), text: s.toLocaleString() })),
        choice.size === null ? null : String(choice.size),
        (v) => setChart({ size: Number(v) }),
      ),
      select(
        'chart-choice-browser',
        'Browser (one-browser charts)',
        this.comparison.columns.map((c) => ({ value: c.key, text: c.label })),
        choice.browser,
        (v) => setChart({ browser: v }),
        'The browser of the scaling, histogram, growth, crash, cold, tabs and throttle charts',
      ),
      select(
        'chart-choice-adapter',
        'Adapter (histogram)',
        choice.adapters.map((a) => ({ value: a, text: a })),
        choice.adapter,
        (v) => setChart({ adapter: v }),
      ),
      h('label', { className: 'chart-option' }, log, ' bars and boxes on a log scale'),
    );
  }
}
