/**
 * The results table: one row per case of every status, so an unsupported store or a timeout is
 * a visible finding rather than a missing row. All text goes in through textContent.
 */
import type { CaseResult, CaseStatus } from '../core/results.ts';
import { opsPerSecond } from '../core/stats.ts';
import { MIN_TIMER_STEPS, timedSectionMs, underTimerResolution } from '../core/timer.ts';
import { h } from './dom.ts';
import { formatDuration, formatMs, formatRate } from './format.ts';
import { describeMean, describeMedian, formatMedianInterval, precisionNotes, samplingNotes } from './row-text.ts';

/** A frame gap beyond this is a freeze a reader notices (a long task is 50 ms or more). */
const FREEZE_MS = 50;

const COLUMNS: { label: string; title?: string; numeric?: boolean }[] = [
  { label: 'Adapter' },
  { label: 'Suite / case' },
  { label: 'Size', numeric: true, title: 'documents' },
  { label: 'n', numeric: true, title: 'timed samples taken' },
  { label: 'Median (ms)', numeric: true, title: 'median of the timed samples' },
  {
    label: '95% CI of median (ms)',
    numeric: true,
    title: 'the 95% confidence interval of the median, distribution-free (order statistics); none with fewer than 6 samples. The mean and its own interval are in the tooltip.',
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
  private readonly counts: Record<CaseStatus, number> = { ok: 0, unsupported: 0, error: 0, timeout: 0 };
  /** ok rows whose median is under MIN_TIMER_STEPS timer steps. */
  private coarseRows = 0;
  private timerStepMs = 0;
  private adapterLabels = new Map<string, string>();
  /** Whether the rows were sampled adaptively, so a row at its sample cap says so. */
  private adaptive = false;
  private lastGroup: string | null = null;

  constructor() {
    this.body = h('tbody');
    this.summary = h('p', { className: 'table-summary', attrs: { 'data-testid': 'table-summary' } });
    const head = h('thead', {}, h('tr', {}, ...COLUMNS.map((c) => h('th', { className: c.numeric ? 'num' : '', title: c.title ?? '', attrs: { scope: 'col' } }, c.label))));
    this.element = h(
      'div',
      { className: 'results-table' },
      this.summary,
      h('div', { className: 'table-scroll' }, h('table', { attrs: { id: 'results-table' } }, head, this.body)),
    );
    this.clear();
  }

  setAdapterLabels(labels: Map<string, string>): void {
    this.adapterLabels = labels;
  }

  /** The timer step of the run, to flag medians within a few steps of it. */
  setTimerStep(ms: number): void {
    this.timerStepMs = ms;
  }

  /** Adaptive sampling or a fixed count, from the plan the rows ran under. */
  setAdaptive(adaptive: boolean): void {
    this.adaptive = adaptive;
  }

  clear(): void {
    this.body.replaceChildren();
    this.lastGroup = null;
    for (const k of Object.keys(this.counts) as CaseStatus[]) this.counts[k] = 0;
    this.coarseRows = 0;
    this.body.append(h('tr', { className: 'empty-row' }, h('td', { attrs: { colspan: String(COLUMNS.length) } }, 'No results yet. Choose a plan and press Run.')));
    this.renderSummary();
  }

  add(result: CaseResult): void {
    this.body.querySelector('.empty-row')?.remove();
    this.counts[result.status]++;
    const tr = this.row(result);
    const key = groupKey(result);
    // A rule above each (case, size) group, so the adapters being compared read as one block.
    if (key !== this.lastGroup) tr.classList.add('group-first');
    this.lastGroup = key;
    this.body.append(tr);
    this.renderSummary();
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
    const rank = (id: string) => (adapterOrder.includes(id) ? adapterOrder.indexOf(id) : adapterOrder.length);
    this.clear();
    for (const list of groups.values()) {
      for (const r of [...list].sort((a, b) => rank(a.adapter) - rank(b.adapter))) this.add(r);
    }
  }

  private row(r: CaseResult): HTMLTableRowElement {
    const num = (text: string, title?: string) => h('td', { className: 'num', ...(title ? { title } : {}) }, text);
    const label = this.adapterLabels.get(r.adapter);
    const adapterCell = h('td', { className: 'adapter', title: label ?? '' }, h('code', {}, r.adapter));
    const caseCell = h('td', { className: 'case', title: r.title }, `${r.suite}/${r.case}`, h('span', { className: 'case-title' }, r.title));
    const status = h('td', {}, h('span', { className: `status status-${r.status}` }, r.status));
    const samplesTitle = r.samples.length > 0 ? `samples (ms): ${r.samples.map((s) => formatMs(s)).join(', ')}` : 'no timed samples';
    const n = num(String(r.samples.length), samplesTitle);

    if (r.status !== 'ok') {
      const dash = () => num('—');
      // A timeout may have taken samples: how they ran is part of why it timed out.
      const sampling = samplingNotes(r);
      return h(
        'tr',
        { className: `row-${r.status}`, attrs: { 'data-status': r.status } },
        adapterCell, caseCell, num(String(r.size)), n, dash(), dash(), dash(), dash(), status,
        h('td', { className: 'reason' }, sampling.length > 0 && r.samples.length > 0 ? `${r.reason} (${sampling.join('; ')})` : r.reason),
      );
    }
    const s = r.stats;
    const coarse = underTimerResolution(timedSectionMs(r), this.timerStepMs);
    const median = num(formatMs(s.median), `${describeMedian(r)}\n${describeMean(s)}\n${samplesTitle}`);
    const notes: string[] = [];
    if (coarse) {
      this.coarseRows++;
      const steps = Math.round(timedSectionMs(r) / this.timerStepMs);
      median.classList.add('coarse');
      median.title = `only ${steps} timer steps of ${this.timerStepMs} ms: mostly timer noise. ${median.title}`;
      notes.push(`⚠ median is ${steps} timer step${steps === 1 ? '' : 's'} (under ${MIN_TIMER_STEPS}): mostly timer noise; use bigger sizes`);
    }
    notes.push(...precisionNotes(r, this.adaptive));
    const outliers = r.outliers?.indexes.length ?? 0;
    if (outliers > 0) notes.push(`${outliers} outlier${outliers === 1 ? '' : 's'} flagged (beyond median ± ${r.outliers?.k}·MAD), kept in the statistics`);
    // Files written before the probe moved to the measurement pass have it per sample.
    const gap = r.blocking?.maxFrameGapMs ?? maxOf(r.metrics?.maxFrameGapMs);
    if (gap !== undefined && gap > FREEZE_MS) notes.push(`page froze up to ${formatMs(gap)} ms`);
    const stored = r.footprint?.storageBytes;
    if (stored !== undefined) notes.push(`≈ ${formatBytes(stored)} stored (estimate)`);
    const perOp = r.operations > 0 ? s.median / r.operations : null;
    return h(
      'tr',
      { className: 'row-ok', attrs: { 'data-status': 'ok' } },
      adapterCell,
      caseCell,
      num(String(r.size)),
      n,
      median,
      num(formatMedianInterval(r) ?? '—', `${describeMedian(r)}\n${describeMean(s)}`),
      num(formatDuration(perOp)),
      num(r.operations > 0 ? formatRate(opsPerSecond(s.median, r.operations)) : '—'),
      status,
      h('td', { className: 'reason' }, notes.join('; ')),
    );
  }

  private renderSummary(): void {
    const total = Object.values(this.counts).reduce((a, b) => a + b, 0);
    if (total === 0) {
      this.summary.textContent = '';
      return;
    }
    const parts = (Object.entries(this.counts) as [CaseStatus, number][]).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
    const coarse =
      this.coarseRows > 0
        ? ` ⚠ ${this.coarseRows} row${this.coarseRows === 1 ? ' has a median' : 's have medians'} under ${MIN_TIMER_STEPS} timer steps (${this.timerStepMs} ms): mostly timer noise; use bigger sizes.`
        : '';
    this.summary.textContent = `${total} row${total === 1 ? '' : 's'}: ${parts.join(', ')}.${coarse}`;
  }
}

function formatBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (abs >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${Math.round(bytes)} B`;
}

function groupKey(r: CaseResult): string {
  return `${r.suite}/${r.case}/${r.size}`;
}

const maxOf = (values: readonly number[] | undefined): number | undefined => (values && values.length > 0 ? Math.max(...values) : undefined);
