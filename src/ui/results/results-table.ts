/**
 * The results table: one row per case and store. An error or a timeout is a row of its own; a
 * store that cannot run a case is folded into one line per store under the table, with the
 * reason, so a missing row is still a visible finding without burying the measured ones. Each ok
 * row shows its factor against the fastest store of its case and size, and a line above the
 * table gives each store's geometric mean of those factors. All text goes in through textContent.
 */
import { drivenFinding, isTimedSection } from '../../../suites/driven.ts';
import { INDEXEDDB_FLOOR } from '../../core/verdicts/default-findings.ts';
import { plannedLooksOf, type Plan } from '../../core/plan/plan.ts';
import type { CaseResult, CaseStatus } from '../../core/results/results.ts';
import { rowRatio } from '../../core/verdicts/row-ratio.ts';
import { opsPerSecond } from '../../core/stats/stats.ts';
import { MIN_TIMER_STEPS, timedSectionMs, underTimerResolution } from '../../core/base/timer.ts';
import { h } from '../dom.ts';
import { formatBytes, formatMeasuredDuration, formatMs, formatRate } from '../../core/base/format.ts';
import {
  describeMean,
  describeMedian,
  formatMedianInterval,
  precisionNotes,
  samplingNotes,
} from './row-text.ts';

/** A frame gap beyond this is a freeze a reader notices (a long task is 50 ms or more). */
const FREEZE_MS = 50;

const COLUMNS: { label: string; title?: string; numeric?: boolean }[] = [
  { label: 'Adapter' },
  { label: 'Suite / case' },
  { label: 'Size', numeric: true, title: 'documents' },
  { label: 'n', numeric: true, title: 'timed samples taken' },
  { label: 'Median (ms)', numeric: true, title: 'median of the timed samples' },
  {
    label: '× fastest',
    numeric: true,
    title:
      'this store against the fastest one for this case and size (×1.00 is the fastest), with its 95% interval: paired by pass where the two rows share passes (the geometric mean of each pass’s ratio of medians), else the ratio of the two medians',
  },
  {
    label: '95% CI of median (ms)',
    numeric: true,
    title:
      'the 95% confidence interval of the median, distribution-free (order statistics); none with fewer than 6 samples. The mean and its own interval are in the tooltip.',
  },
  { label: 'Per op', numeric: true, title: 'median ÷ operations per sample' },
  { label: 'Ops/s', numeric: true, title: 'operations per second at the median' },
  { label: 'Status' },
  { label: 'Reason' },
];

export class ResultsTable {
  readonly element: HTMLElement;
  private readonly body: HTMLTableSectionElement;
  private readonly summary: HTMLElement;
  private readonly counts: Record<CaseStatus, number> = {
    ok: 0,
    unsupported: 0,
    error: 0,
    timeout: 0,
  };
  /** ok rows whose median is under MIN_TIMER_STEPS timer steps. */
  private coarseRows = 0;
  private timerStepMs = 0;
  private adapterLabels = new Map<string, string>();
  /** Whether the rows were sampled adaptively, so a row at its sample cap says so. */
  private adaptive = false;
  private lastGroup: string | null = null;
  /** Stores that could not run a case: how many cases, and the reasons (folded under the table). */
  private readonly unsupported = new Map<string, { cases: number; reasons: Set<string> }>();
  private readonly folded: HTMLElement;
  private readonly factors: HTMLElement;
  /** ok medians by group, for the geometric means. */
  private readonly medians = new Map<string, Map<string, number>>();
  /** ok rows by group and store, for the factor column. */
  private readonly okRows = new Map<string, Map<string, OkCase>>();
  /** The plan's looks, at which a paired factor's interval is taken (plan.plannedLooksOf). */
  private looks: readonly number[] | null = null;

  constructor() {
    this.body = h('tbody');
    this.summary = h('p', {
      className: 'table-summary',
      attrs: { 'data-testid': 'table-summary' },
    });
    this.factors = h('p', {
      className: 'table-factors muted',
      attrs: { 'data-testid': 'table-factors' },
    });
    this.folded = h('div', {
      className: 'table-unsupported',
      attrs: { 'data-testid': 'table-unsupported' },
    });
    const head = h('thead', {}, h('tr', {}, ...COLUMNS.map((c, i) => this.header(c, i))));
    this.element = h(
      'div',
      { className: 'results-table' },
      this.summary,
      this.factors,
      h(
        'div',
        { className: 'table-scroll results-scroll' },
        h('table', { attrs: { id: 'results-table' } }, head, this.body),
      ),
      this.folded,
    );
    this.clear();
  }

  /** A column header; numeric columns sort the rows by their value on a click (again: the other way). */
  private header(c: (typeof COLUMNS)[number], index: number): HTMLElement {
    const th = h('th', {
      className: c.numeric ? 'num' : '',
      title: c.title ?? '',
      attrs: { scope: 'col' },
    });
    if (!c.numeric || c.label === '95% CI of median (ms)') {
      th.textContent = c.label;
      return th;
    }
    const button = h(
      'button',
      { className: 'link-button', attrs: { type: 'button', 'data-sort': String(index) } },
      c.label,
    );
    button.addEventListener('click', () => this.sortBy(th, index));
    th.append(button);
    return th;
  }

  private sortBy(th: HTMLElement, index: number): void {
    const ascending = th.getAttribute('aria-sort') !== 'ascending';
    for (const other of th.parentElement?.children ?? []) other.removeAttribute('aria-sort');
    th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
    const value = (tr: Element) =>
      Number((tr.children[index] as HTMLElement | undefined)?.dataset.value ?? NaN);
    const rows = [...this.body.querySelectorAll('tr')].filter(
      (tr) => !tr.classList.contains('empty-row'),
    );
    // Rows without a value (an error, a timeout) go last either way.
    rows.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      if (Number.isNaN(x) || Number.isNaN(y))
        return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
      return ascending ? x - y : y - x;
    });
    for (const tr of rows) tr.classList.remove('group-first');
    this.body.append(...rows);
  }

  setAdapterLabels(labels: Map<string, string>): void {
    this.adapterLabels = labels;
  }

  /** The timer step of the run, to flag medians within a few steps of it. */
  setTimerStep(ms: number): void {
    this.timerStepMs = ms;
  }

  /** Adaptive sampling or a fixed count, and its looks, from the plan the rows ran under. */
  setPlan(plan: Plan): void {
    this.adaptive = plan.auto !== undefined;
    this.looks = plannedLooksOf(plan.auto);
  }

  clear(): void {
    this.body.replaceChildren();
    this.lastGroup = null;
    for (const k of Object.keys(this.counts) as CaseStatus[]) this.counts[k] = 0;
    this.coarseRows = 0;
    this.unsupported.clear();
    this.medians.clear();
    this.okRows.clear();
    this.folded.replaceChildren();
    this.factors.textContent = '';
    this.body.append(
      h(
        'tr',
        { className: 'empty-row' },
        h(
          'td',
          { attrs: { colspan: String(COLUMNS.length) } },
          'No results yet. Choose a plan and press Run.',
        ),
      ),
    );
    this.renderSummary();
  }

  add(result: CaseResult): void {
    this.counts[result.status]++;
    if (result.status === 'unsupported') {
      const seen = this.unsupported.get(result.adapter) ?? { cases: 0, reasons: new Set<string>() };
      seen.cases++;
      seen.reasons.add(result.reason);
      this.unsupported.set(result.adapter, seen);
      const empty = this.body.querySelector('.empty-row td');
      if (empty)
        empty.textContent =
          'No measured rows yet; the stores that cannot run a case are listed below the table.';
      this.renderFolded();
      this.renderSummary();
      return;
    }
    this.body.querySelector('.empty-row')?.remove();
    const tr = this.row(result);
    // Each cell names its column, for the phone layout where the header is hidden (style.css).
    tr.querySelectorAll('td').forEach((td, i) => (td.dataset.label = COLUMNS[i]?.label ?? ''));
    const key = groupKey(result);
    tr.dataset.group = key;
    // A rule above each (case, size) group, so the adapters being compared read as one block.
    if (key !== this.lastGroup) tr.classList.add('group-first');
    this.lastGroup = key;
    this.body.append(tr);
    if (result.status === 'ok') {
      const group = this.medians.get(key) ?? new Map<string, number>();
      group.set(result.adapter, result.stats.median);
      this.medians.set(key, group);
      const rows = this.okRows.get(key) ?? new Map<string, OkCase>();
      rows.set(result.adapter, result);
      this.okRows.set(key, rows);
      this.renderFactors(key);
    }
    this.renderSummary();
  }

  /** The factor cells of one group, against its fastest store, and the geometric means above the table. */
  private renderFactors(key: string): void {
    const group = this.okRows.get(key);
    if (!group) return;
    const fastest = [...group.values()].reduce((a, b) => (b.stats.median < a.stats.median ? b : a));
    for (const tr of this.body.querySelectorAll<HTMLTableRowElement>('tr[data-status=ok]')) {
      if (tr.dataset.group !== key) continue;
      const cell = tr.querySelector<HTMLElement>('td.factor');
      const row = group.get(tr.dataset.adapter ?? '');
      if (!cell || !row) continue;
      const factor = factorOf(row, fastest, this.looks);
      cell.textContent = factor.text;
      cell.title = factor.title;
      if (Number.isFinite(factor.value)) cell.dataset.value = String(factor.value);
      cell.dataset.band = band(factor.value);
    }
    const means = geometricMeans(this.medians);
    const overFloor = geometricMeans(this.medians, INDEXEDDB_FLOOR);
    const list = (ms: typeof means) =>
      ms.map((m) => `${m.adapter} ×${m.factor.toFixed(2)} (${m.cases})`).join(', ');
    // Each mean a line, unfolded on a click: with a dozen stores each runs to two lines or more.
    this.factors.replaceChildren(
      ...(means.length > 1
        ? [
            lineFold(
              `Geometric mean of each store’s factor to the fastest, over the cases it ran: ${list(means)}.`,
            ),
          ]
        : []),
      ...(overFloor.length > 0
        ? [
            lineFold(
              ` Over the IndexedDB floor (${INDEXEDDB_FLOOR}, plain requests), in the cases both ran: ${list(overFloor)}.`,
            ),
          ]
        : []),
    );
  }

  private renderFolded(): void {
    if (this.unsupported.size === 0) {
      this.folded.replaceChildren();
      return;
    }
    const total = [...this.unsupported.values()].reduce((n, u) => n + u.cases, 0);
    this.folded.replaceChildren(
      h(
        'details',
        {},
        h(
          'summary',
          {},
          `${total} unsupported row${total === 1 ? '' : 's'}, in ${this.unsupported.size} store${this.unsupported.size === 1 ? '' : 's'}`,
        ),
        h(
          'ul',
          {},
          ...[...this.unsupported].map(([adapter, u]) =>
            h(
              'li',
              {},
              h('code', {}, adapter),
              ` (${u.cases} case${u.cases === 1 ? '' : 's'}): ${[...u.reasons].join('; ')}`,
            ),
          ),
        ),
      ),
    );
  }

  /**
   * All rows at once, each group's adapters in `adapterOrder`. The runner finishes unsupported
   * rows before it times the others, so live arrival order puts them first.
   */
  setAll(results: readonly CaseResult[], adapterOrder: readonly string[] = []): void {
    const groups = new Map<string, CaseResult[]>();
    for (const r of results) {
      const list = groups.get(groupKey(r));
      if (list) list.push(r);
      else groups.set(groupKey(r), [r]);
    }
    const rank = (id: string) =>
      adapterOrder.includes(id) ? adapterOrder.indexOf(id) : adapterOrder.length;
    this.clear();
    for (const list of groups.values()) {
      for (const r of [...list].sort((a, b) => rank(a.adapter) - rank(b.adapter))) this.add(r);
    }
  }

  private row(r: CaseResult): HTMLTableRowElement {
    const samplesTitle =
      r.samples.length > 0
        ? `samples (ms): ${r.samples.map((s) => formatMs(s)).join(', ')}`
        : 'no timed samples';
    const lead = [
      h(
        'td',
        { className: 'adapter', title: this.adapterLabels.get(r.adapter) ?? '' },
        h('code', {}, r.adapter),
      ),
      h(
        'td',
        { className: 'case', title: r.title },
        `${r.suite}/${r.case}`,
        h('span', { className: 'case-title' }, r.title),
      ),
      numCell(String(r.size), undefined, r.size),
      numCell(String(r.samples.length), samplesTitle, r.samples.length),
    ];
    const status = h('td', {}, h('span', { className: `status status-${r.status}` }, r.status));
    if (r.status !== 'ok') return notOkRow(r, lead, status);
    const s = r.stats;
    const median = numCell(
      formatMs(s.median),
      `${describeMedian(r)}\n${describeMean(s)}\n${samplesTitle}`,
      s.median,
    );
    const notes = this.okNotes(r, median);
    const perOp = r.operations > 0 ? s.median / r.operations : null;
    const rate = r.operations > 0 ? opsPerSecond(s.median, r.operations) : undefined;
    return h(
      'tr',
      { className: 'row-ok', attrs: { 'data-status': 'ok', 'data-adapter': r.adapter } },
      ...lead,
      median,
      h('td', { className: 'num factor' }, '—'),
      numCell(formatMedianInterval(r) ?? '—', `${describeMedian(r)}\n${describeMean(s)}`),
      numCell(formatMeasuredDuration(perOp), undefined, perOp ?? undefined),
      numCell(rate !== undefined ? formatRate(rate) : '—', undefined, rate),
      status,
      reasonCell(notes.join('; ')),
    );
  }

  /**
   * What an ok row's reason cell says: its driven finding, a median too close to the timer step
   * (which also marks the median cell), its precision, outliers, freezes and storage.
   */
  private okNotes(r: OkRow, median: HTMLElement): string[] {
    const notes: string[] = [];
    const found = drivenFinding(r);
    if (found !== null) notes.push(found);
    if (isTimedSection(r) && underTimerResolution(timedSectionMs(r), this.timerStepMs)) {
      this.coarseRows++;
      const steps = Math.round(timedSectionMs(r) / this.timerStepMs);
      median.classList.add('coarse');
      median.title = `only ${steps} timer steps of ${this.timerStepMs} ms: mostly timer noise. ${median.title}`;
      notes.push(
        `⚠ median is ${steps} timer step${steps === 1 ? '' : 's'} (under ${MIN_TIMER_STEPS}): mostly timer noise; use bigger sizes`,
      );
    }
    notes.push(...precisionNotes(r, this.adaptive));
    const outliers = r.outliers?.indexes.length ?? 0;
    if (outliers > 0)
      notes.push(
        `${outliers} outlier${outliers === 1 ? '' : 's'} flagged (beyond median ± ${r.outliers?.k}·MAD), kept in the statistics`,
      );
    // Older files have the frame gap per sample, in metrics, not in blocking.
    const gap = r.blocking?.maxFrameGapMs ?? maxOf(r.metrics?.maxFrameGapMs);
    if (gap !== undefined && gap > FREEZE_MS) notes.push(`page froze up to ${formatMs(gap)} ms`);
    const stored = r.footprint?.storageBytes;
    if (stored !== undefined) notes.push(`≈ ${formatBytes(stored)} stored (estimate)`);
    return notes;
  }

  private renderSummary(): void {
    const total = Object.values(this.counts).reduce((a, b) => a + b, 0);
    if (total === 0) {
      this.summary.textContent = '';
      return;
    }
    const parts = (Object.entries(this.counts) as [CaseStatus, number][])
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k}`);
    const coarse =
      this.coarseRows > 0
        ? ` ⚠ ${this.coarseRows} row${this.coarseRows === 1 ? ' has a median' : 's have medians'} under ${MIN_TIMER_STEPS} timer steps (${this.timerStepMs} ms): mostly timer noise; use bigger sizes.`
        : '';
    this.summary.textContent = `${total} row${total === 1 ? '' : 's'}: ${parts.join(', ')}.${coarse}`;
  }
}

/**
 * Each store's geometric mean of its factor to the fastest store, over the groups it has an ok
 * median in (js-framework-benchmark's summary): a ratio averages as a product, and one slow case
 * does not swamp the rest. Fastest store first. With `reference`, the factor is to that store
 * instead, over the groups it ran (the IndexedDB floor, `indexeddb-raw`), and it is left out.
 */
type OkRow = Extract<CaseResult, { status: 'ok' }>;

/** A numeric cell; data-value holds the number a sort compares (the text may carry units or a ×). */
function numCell(text: string, title?: string, value?: number): HTMLTableCellElement {
  return h(
    'td',
    {
      className: 'num',
      ...(title ? { title } : {}),
      attrs: value === undefined || !Number.isFinite(value) ? {} : { 'data-value': String(value) },
    },
    text,
  );
}

/** A row that did not finish ok: dashes for its statistics, and its reason. */
function notOkRow(
  r: Exclude<CaseResult, OkRow>,
  lead: readonly HTMLElement[],
  status: HTMLElement,
): HTMLTableRowElement {
  // A timeout may have taken samples: how they ran is part of why it timed out.
  const sampling = samplingNotes(r);
  return h(
    'tr',
    {
      className: `row-${r.status}`,
      attrs: { 'data-status': r.status, 'data-adapter': r.adapter },
    },
    ...lead,
    ...Array.from({ length: 5 }, () => numCell('—')),
    status,
    reasonCell(
      sampling.length > 0 && r.samples.length > 0
        ? `${r.reason} (${sampling.join('; ')})`
        : r.reason,
    ),
  );
}

/**
 * A text folded to one line, unfolded by a click, Enter or Space; its title holds the whole text
 * for a hover.
 */
function lineFold(text: string): HTMLElement {
  const fold = h('span', {
    className: 'line-fold',
    attrs: { role: 'button', tabindex: '0', 'aria-expanded': 'false', title: text },
  });
  fold.textContent = text;
  const toggle = () =>
    fold.setAttribute('aria-expanded', String(fold.getAttribute('aria-expanded') !== 'true'));
  fold.addEventListener('click', toggle);
  fold.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    toggle();
  });
  return fold;
}

/**
 * A row's reason, folded to one line so that the row is one line too: a reason runs to a paragraph
 * (how it stopped, its database, its outliers, what it stored) and made a row of four stores seven
 * lines tall.
 */
function reasonCell(text: string): HTMLTableCellElement {
  return h('td', { className: 'reason' }, lineFold(text));
}

export function geometricMeans(
  medians: ReadonlyMap<string, ReadonlyMap<string, number>>,
  reference?: string,
): { adapter: string; factor: number; cases: number }[] {
  const logs = new Map<string, number[]>();
  for (const group of medians.values()) {
    const base = reference === undefined ? Math.min(...group.values()) : group.get(reference);
    if (base === undefined || !(base > 0)) continue;
    for (const [adapter, median] of group) {
      if (adapter !== reference)
        (logs.get(adapter) ?? logs.set(adapter, []).get(adapter)!).push(Math.log(median / base));
    }
  }
  return [...logs]
    .map(([adapter, l]) => ({
      adapter,
      factor: Math.exp(l.reduce((a, b) => a + b, 0) / l.length),
      cases: l.length,
    }))
    .sort((a, b) => a.factor - b.factor);
}

type OkCase = Extract<CaseResult, { status: 'ok' }>;

/**
 * A row's factor to the fastest row of its group, as the findings take a ratio (row-ratio.ts):
 * paired by pass where the rows share passes, with its 95% interval, else the ratio of medians.
 */
function factorOf(
  row: OkCase,
  fastest: OkCase,
  looks: readonly number[] | null,
): { value: number; text: string; title: string } {
  const x = (f: number) => (f < 10 ? f.toFixed(2) : f.toFixed(1));
  if (row === fastest) return { value: 1, text: '×1.00', title: 'the fastest store' };
  const r = rowRatio(row, fastest, looks);
  const plain = fastest.stats.median > 0 ? row.stats.median / fastest.stats.median : NaN;
  if (!r)
    return {
      value: plain,
      text: Number.isFinite(plain) ? `×${x(plain)}` : '—',
      title: 'the ratio of the two medians; no interval (too few samples)',
    };
  return {
    value: r.ratio,
    text: `×${x(r.ratio)} [${x(r.lo)}, ${x(r.hi)}]`,
    title:
      r.method === 'paired'
        ? `paired by pass over ${r.passes ?? 0} passes: the geometric mean of each pass's ratio of medians, with its 95% interval (Student's t over passes)`
        : "the ratio of the two medians, with its 95% interval from each median's own (Price and Bonett)",
  };
}

/** How far from the fastest a factor is, for its cell's colour. */
function band(f: number): string {
  if (!Number.isFinite(f)) return '';
  return f <= 1.1 ? 'best' : f <= 2 ? 'near' : f <= 10 ? 'far' : 'farthest';
}

/** Rows of one case at one size, whose medians the factors compare. */
export function groupKey(r: Pick<CaseResult, 'suite' | 'case' | 'size'>): string {
  return `${r.suite}/${r.case}/${r.size}`;
}

const maxOf = (values: readonly number[] | undefined): number | undefined =>
  values && values.length > 0 ? Math.max(...values) : undefined;
