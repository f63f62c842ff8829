/**
 * "Compare with…": the page's results against a results file the reader chooses, case by case,
 * the same comparison as `npm run compare` (src/core/compare.ts). The chosen file is the base,
 * this page's results are new. The file is validated before anything of it is shown, and all of
 * its text goes in through text nodes: a hostile file can show its labels, never run them.
 */
import { compareResults, DEFAULT_THRESHOLD_PCT, parseThreshold, type CaseComparison, type Comparison } from '../core/compare.ts';
import { errorMessage } from '../core/errors.ts';
import { parseResultsInput } from '../core/results-input.ts';
import { MAX_RESULTS_BYTES, type ResultsFile } from '../core/results.ts';
import { h } from './dom.ts';
import { formatMs } from './format.ts';

const VERDICT_TEXT: Record<CaseComparison['verdict'], string> = {
  regression: 'slower beyond threshold',
  slower: 'slower',
  faster: 'faster',
  same: 'same',
  inconclusive: 'inconclusive: take more samples',
  broke: 'broke',
  'status changed': 'status changed',
  'not comparable': 'not comparable',
  'only in base': 'only in the file',
  'only in new': 'only in this page',
};

export class CompareView {
  readonly element: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly threshold: HTMLInputElement;
  private readonly status: HTMLElement;
  private readonly output: HTMLElement;
  private current: ResultsFile[] | null = null;
  private base: { name: string; results: ResultsFile[] } | null = null;

  constructor() {
    this.input = h('input', { attrs: { type: 'file', accept: '.json,application/json', id: 'compare-file', 'aria-label': 'results file to compare with' } });
    this.threshold = h('input', { attrs: { type: 'text', id: 'compare-threshold', value: `${DEFAULT_THRESHOLD_PCT}%`, size: '5', spellcheck: 'false', autocomplete: 'off' } });
    this.status = h('p', { className: 'compare-status', attrs: { 'data-testid': 'compare-status', role: 'status', 'aria-live': 'polite' } });
    this.output = h('div', { className: 'compare-output table-scroll' });
    this.element = h(
      'details',
      { className: 'compare', attrs: { id: 'compare-view' } },
      h('summary', {}, 'Compare with…'),
      h(
        'div',
        { className: 'compare-controls' },
        h('label', { className: 'field' }, h('span', { className: 'field-label' }, 'Base results file'), this.input, h('span', { className: 'field-hint' }, 'a results .json (one run or an array of runs); this page’s results are the new side')),
        h('label', { className: 'field' }, h('span', { className: 'field-label' }, 'Threshold'), this.threshold, h('span', { className: 'field-hint' }, 'significantly slower by more than this is flagged')),
      ),
      this.status,
      this.output,
    );
    this.input.addEventListener('change', () => {
      const file = this.input.files?.[0];
      if (file) void this.load(file);
    });
    this.threshold.addEventListener('input', () => this.render());
    this.render();
  }

  /** This page's results (the new side); null clears them (e.g. a run starts). */
  setCurrent(results: ResultsFile | readonly ResultsFile[] | null): void {
    this.current = results === null ? null : Array.isArray(results) ? [...results] : [results as ResultsFile];
    this.render();
  }

  /** Read, validate and keep a base file. Public so tests and other views can hand one in. */
  async load(file: File): Promise<void> {
    this.base = null;
    if (file.size > MAX_RESULTS_BYTES) {
      this.showError(`${file.name}: ${file.size} bytes is larger than the ${MAX_RESULTS_BYTES}-byte limit for a results file; it was not read`);
      return;
    }
    try {
      this.base = { name: file.name, results: parseResultsInput(await file.text(), file.name) };
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
      this.status.textContent = 'Choose a results file to compare this page’s results with.';
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
    this.status.textContent = verdictLine(c, this.base.name);
    this.status.dataset.state = c.failed ? 'failed' : 'ok';
    this.output.replaceChildren(table(c), ...notes(c));
  }
}

function verdictLine(c: Comparison, baseName: string): string {
  const k = c.counts;
  const tally = `${k.regression} slower beyond ${c.thresholdPct}%, ${k.broke} broke, ${k.slower} slower within it, ${k.faster} faster, ${k.same} same, ${k.inconclusive} inconclusive`;
  return `${c.failed ? 'Regression' : 'No regression'} against ${baseName}: ${tally}.`;
}

const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${Math.abs(x).toFixed(1)}%`;

function side(s: CaseComparison['base']): string {
  if (!s) return '—';
  return s.status === 'ok' ? `${formatMs(s.mean)} (n=${s.n})` : s.status;
}

function table(c: Comparison): HTMLElement {
  const head = ['Browser', 'Suite / case', 'Adapter', 'Size', 'Base mean (ms)', 'New mean (ms)', 'Change', '95% CI', 'Verdict'];
  const num = (text: string) => h('td', { className: 'num' }, text);
  return h(
    'table',
    { attrs: { id: 'compare-table' } },
    h('thead', {}, h('tr', {}, ...head.map((label) => h('th', { attrs: { scope: 'col' } }, label)))),
    h(
      'tbody',
      {},
      ...c.rows.map((r) =>
        h(
          'tr',
          { className: `verdict-${r.verdict.replace(/ /g, '-')}`, attrs: { 'data-verdict': r.verdict } },
          h('td', {}, r.browser),
          h('td', {}, `${r.suite}/${r.case}`),
          h('td', {}, h('code', {}, r.adapter)),
          num(String(r.size)),
          num(side(r.base)),
          num(side(r.next)),
          num(r.change ? signed(r.change.pct) : '—'),
          h('td', {}, r.change ? `${signed(r.change.low)} … ${signed(r.change.high)}` : ''),
          h('td', { title: r.note ?? '' }, VERDICT_TEXT[r.verdict], r.verdict === 'regression' || r.verdict === 'broke' ? ' ⚠' : ''),
        ),
      ),
    ),
  );
}

function notes(c: Comparison): HTMLElement[] {
  const lines = [
    ...c.rows.filter((r) => r.note).map((r) => `${r.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}: ${r.note}`),
    ...c.notes.map((n) => `environments differ: ${n}`),
  ];
  const legend = h(
    'p',
    { className: 'compare-legend' },
    'Change: the mean time per sample, this page against the file, in % of the file’s mean, with its 95% confidence interval (Welch’s t on the raw samples). Significant when the interval excludes 0.',
  );
  return lines.length === 0 ? [legend] : [legend, h('ul', { className: 'compare-notes' }, ...lines.map((l) => h('li', {}, l)))];
}
