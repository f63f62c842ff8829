/**
 * "Compare with…": the page's results against a base the reader chooses (a file from results/ or
 * from disk), case by case, the same comparison and the same verdict as `npm run compare`
 * (src/core/verdicts/compare.ts, src/core/verdicts/gate.ts). The base is validated before anything of it is shown,
 * and all of its text goes in through text nodes: a hostile file can show its labels, never run them.
 */
import {
  COMPARED_VERDICTS,
  compareResults,
  listedByUrgency,
  UNLISTED_VERDICTS,
  DEFAULT_THRESHOLD_PCT,
  parseThreshold,
  type CaseComparison,
  type Comparison,
  type CompareVerdict,
} from '../../core/verdicts/compare.ts';
import { detectablePctCell, formatRunToRun, signedPct } from '../../core/verdicts/compare-text.ts';
import { errorMessage } from '../../core/base/errors.ts';
import { asList } from '../../export/csv.ts';
import { gate } from '../../core/verdicts/gate.ts';
import { CHANGE_VERDICT_TEXT } from '../../core/verdicts/change.ts';
import type { ResultsIndexEntry } from '../../core/results/input.ts';
import type { ResultsFile } from '../../core/results/results.ts';
import { h } from '../dom.ts';
import { FiltersView } from './explorer-filters.ts';
import { NO_FILTERS, type Facets, type Filters } from '../model/explorer-model.ts';
import { fetchServed, readLocal } from './explorer-sources.ts';
import { formatMs } from '../../core/base/format.ts';

/** A control with its label and a hint under it. */
function field(label: string, control: HTMLElement, hint: string): HTMLElement {
  return h(
    'label',
    { className: 'field' },
    h('span', { className: 'field-label' }, label),
    control,
    h('span', { className: 'field-hint' }, hint),
  );
}

/** A text box for typed input: no spellcheck, no autocomplete. */
function textField(id: string, attrs: Record<string, string>): HTMLInputElement {
  return h('input', {
    attrs: { type: 'text', id, ...attrs, spellcheck: 'false', autocomplete: 'off' },
  });
}

const VERDICT_TEXT: Record<CompareVerdict, string> = {
  ...CHANGE_VERDICT_TEXT,
  // The remedy depends on the row (more samples, or more runs when the run-to-run spread is most of the width): its note says which.
  undecided: 'undecided: see its note',
  broke: 'broke',
  'status changed': 'status changed',
  'not comparable': 'not comparable',
  'not ok in either': 'not ok in either',
  'only in base': 'only in the base',
  'only in new': 'only in this page',
};

export class CompareView {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly served: HTMLSelectElement;
  private readonly threshold: HTMLInputElement;
  private readonly filter: HTMLInputElement;
  /** The explorer's facet filters (suites, stores, browsers, sizes), over the compared rows. */
  private readonly facets: FiltersView;
  private readonly status: HTMLElement;
  private readonly output: HTMLElement;
  private current: ResultsFile[] | null = null;
  private base: { name: string; results: ResultsFile[] } | null = null;
  private servedBase = '';

  constructor() {
    this.input = h('input', {
      attrs: {
        type: 'file',
        accept: '.json,application/json',
        id: 'compare-file',
        'aria-label': 'results file to compare with',
      },
    });
    this.served = h(
      'select',
      {
        attrs: {
          id: 'compare-served',
          'aria-label': 'a results file from results/ to compare with',
        },
      },
      h('option', { attrs: { value: '' } }, 'results/ lists nothing yet'),
    );
    this.served.disabled = true;
    this.threshold = textField('compare-threshold', {
      value: `${DEFAULT_THRESHOLD_PCT}%`,
      size: '5',
    });
    this.filter = textField('compare-filter', {
      type: 'search',
      placeholder: 'e.g. pouchdb insert',
      size: '18',
    });
    this.facets = new FiltersView(NO_FILTERS, () => this.render());
    this.status = h('p', {
      className: 'compare-status',
      attrs: { 'data-testid': 'compare-status', role: 'status', 'aria-live': 'polite' },
    });
    this.output = h('div', { className: 'compare-output table-scroll' });
    this.element = h(
      'details',
      { className: 'compare', attrs: { id: 'compare-view' } },
      h('summary', {}, 'Compare with…'),
      this.controls(),
      this.facets.element,
      this.status,
      this.output,
    );
    this.input.addEventListener('change', () => {
      const file = this.input.files?.[0];
      if (file) void this.load(file);
    });
    this.served.addEventListener('change', () => {
      if (this.served.value) void this.loadServed(this.served.value);
    });
    this.threshold.addEventListener('input', () => this.render());
    this.filter.addEventListener('input', () => this.render());
    this.render();
  }

  /** Where the base comes from, the threshold and the text filter, each with its hint. */
  private controls(): HTMLElement {
    return h(
      'div',
      { className: 'compare-controls' },
      field('Base from results/', this.served, 'a file the server lists'),
      field(
        'or from disk',
        this.input,
        'a results .json (one run or an array of runs); this page’s results are the new side',
      ),
      field(
        'Threshold',
        this.threshold,
        'a row slower than this, and shown so over all rows, fails',
      ),
      field('Filter', this.filter, 'rows whose browser, suite/case or store hold every word'),
    );
  }

  /** The files results/ lists; the valid ones become choices for the base. */
  setServed(index: readonly ResultsIndexEntry[], base: string): void {
    this.servedBase = base;
    const valid = index.filter((e) => e.documents && e.documents.length > 0);
    const options = valid.map((e) =>
      h(
        'option',
        { attrs: { value: e.name } },
        `${e.name} (${(e.documents ?? []).map((d) => d.browser).join(', ')})`,
      ),
    );
    this.served.replaceChildren(
      h(
        'option',
        { attrs: { value: '' } },
        valid.length > 0 ? 'choose a file…' : 'results/ lists no results files',
      ),
      ...options,
    );
    this.served.disabled = valid.length === 0;
  }

  /** This page's results (the new side); null clears them (e.g. a run starts). */
  setCurrent(results: ResultsFile | readonly ResultsFile[] | null): void {
    this.current = results === null ? null : [...asList(results)];
    this.render();
  }

  /** Read, validate and keep a base file. Public so tests and other views can hand one in. */
  async load(file: File): Promise<void> {
    await this.setBase(file.name, async () => (await readLocal(file)).map((f) => f.results));
  }

  private async loadServed(name: string): Promise<void> {
    await this.setBase(`results/${name}`, async () =>
      (await fetchServed(name, this.servedBase)).map((f) => f.results),
    );
  }

  private async setBase(name: string, read: () => Promise<ResultsFile[]>): Promise<void> {
    this.base = null;
    try {
      this.base = { name, results: await read() };
    } catch (e) {
      this.showError(errorMessage(e));
      return;
    }
    this.render();
  }

  private showError(message: string): void {
    this.status.textContent = message;
    this.status.dataset.state = 'error';
    this.output.replaceChildren();
  }

  private render(): void {
    this.status.dataset.state = '';
    if (!this.base) {
      this.status.textContent =
        'Choose a base to compare this page’s results with: a file from results/, or one from disk.';
      this.output.replaceChildren();
      return;
    }
    if (!this.current) {
      this.status.textContent = `${this.base.name} is loaded; run a plan, and its results are compared with it.`;
      this.output.replaceChildren();
      return;
    }
    let threshold: number;
    try {
      threshold = parseThreshold(this.threshold.value);
    } catch (e) {
      this.showError(errorMessage(e));
      return;
    }
    const c = compareResults(this.base.results, this.current, threshold);
    const verdict = gate(c);
    this.status.textContent = `Against ${this.base.name}: ${verdict.line}`;
    this.status.dataset.state = verdict.code === 0 ? 'ok' : 'failed';
    this.facets.render(facetsOf(c));
    const words = this.filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const f = this.facets.value;
    const matches = (r: CaseComparison) =>
      passes(r, f) &&
      words.every((w) =>
        `${r.browser} ${r.suite}/${r.case} ${r.adapter}`.toLowerCase().includes(w),
      );
    const shown = listedByUrgency(c.rows.filter(matches));
    const folded = c.rows.filter((r) => matches(r) && UNLISTED_VERDICTS.includes(r.verdict));
    this.output.replaceChildren(table(shown), ...foldedRows(folded), ...notes(c, shown));
  }
}

/** The values the compared rows hold, for the facet filters. */
function facetsOf(c: Comparison): Facets {
  const sorted = <T>(xs: Iterable<T>) =>
    [...new Set(xs)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    suites: sorted(c.rows.map((r) => r.suite)),
    adapters: sorted(c.rows.map((r) => r.adapter)),
    browsers: sorted(c.rows.map((r) => r.browser)),
    sizes: sorted(c.rows.map((r) => r.size)),
  };
}

function passes(r: CaseComparison, f: Filters): boolean {
  return (
    (!f.suites || f.suites.includes(r.suite)) &&
    (!f.adapters || f.adapters.includes(r.adapter)) &&
    (!f.browsers || f.browsers.includes(r.browser)) &&
    (!f.sizes || f.sizes.includes(r.size))
  );
}

function side(s: CaseComparison['base']): string {
  if (!s) return '—';
  return s.status === 'ok' ? `${formatMs(s.median)} (n=${s.n})` : s.status;
}

function table(rows: readonly CaseComparison[]): HTMLElement {
  const head = [
    'Browser',
    'Suite / case',
    'Adapter',
    'Size',
    'Base median (ms)',
    'New median (ms)',
    'Measured',
    'Change',
    '95% CI',
    'Verdict',
    'Would catch',
  ];
  // Each cell names its column, for the phone layout where the header is hidden (style.css).
  const cell = (label: string, ...content: (string | HTMLElement)[]) =>
    h('td', { attrs: { 'data-label': label } }, ...content);
  const num = (label: string, text: string) =>
    h('td', { className: 'num', attrs: { 'data-label': label } }, text);
  if (rows.length === 0)
    return h('p', { className: 'muted' }, 'No row is ok in both, or none matches the filter.');
  return h(
    'table',
    { attrs: { id: 'compare-table' } },
    h(
      'thead',
      {},
      h('tr', {}, ...head.map((label) => h('th', { attrs: { scope: 'col' } }, label))),
    ),
    h(
      'tbody',
      {},
      ...rows.map((r) =>
        h(
          'tr',
          {
            className: `verdict-${r.verdict.replace(/ /g, '-')}`,
            attrs: { 'data-verdict': r.verdict },
          },
          cell(head[0]!, r.browser),
          cell(head[1]!, `${r.suite}/${r.case}`),
          cell(head[2]!, h('code', {}, r.adapter)),
          num(head[3]!, String(r.size)),
          num(head[4]!, side(r.base)),
          num(head[5]!, side(r.next)),
          num(head[6]!, r.change ? signedPct(r.change.measured) : '—'),
          num(head[7]!, r.change ? signedPct(r.change.pct) : '—'),
          cell(
            head[8]!,
            r.change ? `${signedPct(r.change.low)} … ${signedPct(r.change.high)}` : '',
          ),
          h(
            'td',
            { title: r.note ?? '', attrs: { 'data-label': head[9]! } },
            VERDICT_TEXT[r.verdict],
            r.verdict === 'slower' || r.verdict === 'broke' ? ' ⚠' : '',
          ),
          num(head[10]!, detectablePctCell(r.verdict, r.change?.detectablePct, '—')),
        ),
      ),
    ),
  );
}

/** Rows with nothing to compare, counted by kind and listed only when opened. */
function foldedRows(rows: readonly CaseComparison[]): HTMLElement[] {
  if (rows.length === 0) return [];
  const counts = UNLISTED_VERDICTS.map(
    (v) => [v, rows.filter((r) => r.verdict === v).length] as const,
  ).filter(([, n]) => n > 0);
  return [
    h(
      'details',
      { className: 'compare-folded', attrs: { 'data-testid': 'compare-folded' } },
      h(
        'summary',
        {},
        `${rows.length} more row${rows.length === 1 ? '' : 's'} with nothing to compare: ${counts.map(([v, n]) => `${n} ${VERDICT_TEXT[v]}`).join(', ')}`,
      ),
      h(
        'ul',
        {},
        ...rows.map((r) =>
          h(
            'li',
            {},
            `${r.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}: ${VERDICT_TEXT[r.verdict]}`,
          ),
        ),
      ),
    ),
  ];
}

function notes(c: Comparison, shown: readonly CaseComparison[]): HTMLElement[] {
  const lines = [
    ...shown
      .filter((r) => r.note)
      .map((r) => `${r.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}: ${r.note}`),
    ...c.notes.map((n) => `environments differ: ${n}`),
  ];
  const compared = shown.filter((r) => COMPARED_VERDICTS.includes(r.verdict)).length;
  const legend = h(
    'p',
    { className: 'compare-legend' },
    `Measured: the median time per sample, this page against the base, in % of the base’s median. Change: the same net of the shift every row of the browser shares (below), with the 95% interval of that ratio (from each median’s own interval and the shift’s, widened by the run-to-run spread). ` +
      `Slower when the change is beyond +${c.thresholdPct}% and shown slower with the chance of any false alarm over all rows held at 5% (Holm); same when the whole interval lies within ±${c.thresholdPct}%; undecided otherwise, with the slowdown the comparison could have caught. ${compared} compared row${compared === 1 ? '' : 's'} shown.`,
  );
  const spread = formatRunToRun(c.runToRun);
  const parts = [
    legend,
    ...(spread
      ? [h('p', { className: 'compare-legend', attrs: { 'data-testid': 'run-to-run' } }, spread)]
      : []),
  ];
  return lines.length === 0
    ? parts
    : [...parts, h('ul', { className: 'compare-notes' }, ...lines.map((l) => h('li', {}, l)))];
}
