/**
 * The browser comparison: one row per suite/case/adapter/size, one column per browser, the
 * median per sample with the larger side of its own 95% interval. Every header sorts. A click on a row shows that case
 * in the charts. All text from files goes in through text nodes.
 */
import type { CaseResult } from '../../core/results/results.ts';
import { adapterColour, adapterLegend } from '../charts/colours.ts';
import { h } from '../dom.ts';
import { INDEXEDDB_FLOOR } from '../../core/verdicts/default-findings.ts';
import { formatMeans, geometricMeans, groupKey } from '../../core/verdicts/fastest.ts';
import {
  caseKey,
  sortRows,
  type Column,
  type Comparison,
  type ComparisonRow,
  type Sort,
} from '../model/explorer-model.ts';
import { formatMeasuredDuration, formatMs, formatStep } from '../../core/base/format.ts';
import {
  describeMean,
  describeMedian,
  samplingNotes,
  shortMedianInterval,
  stopNote,
} from '../results/row-text.ts';

export interface Pick {
  case: string;
  size: number;
  adapter: string;
  browser: string | null;
}

export class ComparisonTable {
  readonly element: HTMLElement;
  private readonly envList: HTMLElement;
  private readonly table: HTMLTableElement;
  private readonly summary: HTMLElement;

  constructor(
    private readonly onSort: (sort: Sort | null) => void,
    private readonly onPick: (pick: Pick) => void,
  ) {
    this.summary = h('p', {
      className: 'table-summary',
      attrs: { 'data-testid': 'comparison-summary' },
    });
    this.envList = h('ul', {
      className: 'env-columns',
      attrs: { 'data-testid': 'comparison-environments' },
    });
    this.table = h('table', { attrs: { id: 'comparison-table' } });
    this.element = h(
      'div',
      { className: 'comparison' },
      this.envList,
      this.summary,
      h('div', { className: 'table-scroll table-tall' }, this.table),
    );
  }

  render(
    comparison: Comparison,
    sort: Sort | null,
    selected: { case: string; size: number; adapter: string } | null,
    emptyMessage: string,
  ): void {
    const { columns } = comparison;
    this.envList.replaceChildren(
      ...columns.map((c) => h('li', {}, h('strong', {}, c.label), ': ', describeEnvironment(c))),
    );
    const rows = sortRows(comparison.rows, sort);
    const counts = columns.map(
      (c) => rows.filter((r) => r.cells.get(c.key)?.status === 'ok').length,
    );
    this.summary.textContent =
      (rows.length === 0
        ? ''
        : `${rows.length} rows × ${columns.length} browser${columns.length === 1 ? '' : 's'}; ok: ${columns.map((c, i) => `${c.label} ${counts[i]}`).join(', ')}`) +
      floorSummary(comparison);

    const header = (key: string, label: string, numeric: boolean, title: string) => {
      const active = sort?.key === key;
      const button = h(
        'button',
        { className: 'sort-button', attrs: { type: 'button', 'data-sort': key } },
        label,
        h(
          'span',
          { className: 'sort-mark', attrs: { 'aria-hidden': 'true' } },
          active ? (sort.desc ? ' ▼' : ' ▲') : '',
        ),
      );
      button.addEventListener('click', () => {
        // Ascending, descending, then back to the runs' own order.
        this.onSort(!active ? { key, desc: false } : !sort.desc ? { key, desc: true } : null);
      });
      const th = h(
        'th',
        { className: numeric ? 'num' : '', title, attrs: { scope: 'col' } },
        button,
      );
      if (active) th.setAttribute('aria-sort', sort.desc ? 'descending' : 'ascending');
      return th;
    };
    const head = h(
      'thead',
      {},
      h(
        'tr',
        {},
        header('suite', 'Suite', false, 'suite id'),
        header('case', 'Case', false, 'case id and title'),
        header('adapter', 'Adapter', false, 'store adapter'),
        header('size', 'Size', true, 'documents'),
        ...columns.map((c) =>
          header(
            `col:${c.key}`,
            c.label,
            true,
            `median ms per sample in ${c.environment.browser.name} ${c.environment.browser.version}; ± the larger side of the median's 95% CI, in % of the median`,
          ),
        ),
      ),
    );
    const body = h('tbody');
    if (rows.length === 0) {
      body.append(
        h(
          'tr',
          { className: 'empty-row' },
          h('td', { attrs: { colspan: String(4 + columns.length) } }, emptyMessage),
        ),
      );
    }
    for (const r of rows) body.append(this.row(r, columns, selected));
    this.table.replaceChildren(head, body);
  }

  private row(
    r: ComparisonRow,
    columns: readonly Column[],
    selected: { case: string; size: number; adapter: string } | null,
  ): HTMLTableRowElement {
    const isSelected =
      selected !== null &&
      selected.case === caseKey(r) &&
      selected.size === r.size &&
      selected.adapter === r.adapter;
    const tr = h(
      'tr',
      { className: isSelected ? 'selected' : '', attrs: { 'data-row': r.key } },
      h('td', {}, r.suite),
      h(
        'td',
        { className: 'case', title: r.title },
        r.case,
        h('span', { className: 'case-title' }, r.title),
      ),
      h(
        'td',
        { className: 'adapter' },
        h('span', {
          className: 'legend-swatch',
          attrs: { style: `background:${adapterColour(r.adapter)}` },
        }),
        ' ',
        h('code', {}, adapterLegend(r.adapter)),
      ),
      h('td', { className: 'num' }, r.size.toLocaleString()),
      ...columns.map((c) => cell(r.cells.get(c.key), c)),
    );
    tr.addEventListener('click', (e) => {
      const td = (e.target as HTMLElement).closest('td[data-col]');
      this.onPick({
        case: caseKey(r),
        size: r.size,
        adapter: r.adapter,
        browser: td instanceof HTMLElement ? (td.dataset.col ?? null) : null,
      });
    });
    return tr;
  }
}

function cell(c: CaseResult | undefined, col: Column): HTMLTableCellElement {
  const attrs = { 'data-col': col.key };
  if (!c) return h('td', { className: 'num muted', title: 'not in this run', attrs }, '·');
  if (c.status !== 'ok') {
    return h(
      'td',
      { className: 'num', title: c.reason, attrs: { ...attrs, 'data-status': c.status } },
      h('span', { className: `status status-${c.status}` }, c.status),
    );
  }
  const s = c.stats;
  // A column's runs share a browser; if any sampled adaptively, a row at its count was at its cap.
  const adaptive = col.docs.some((d) => d.run.plan.auto !== undefined);
  const perOp = c.operations > 0 ? s.median / c.operations : null;
  const title = [
    `${describeMedian(c)}; per sample of ${c.operations} operations`,
    `per operation ${formatMeasuredDuration(perOp)}`,
    describeMean(s),
    `n = ${s.n}, min ${formatMs(s.min)}, max ${formatMs(s.max)}`,
    ...[stopNote(c, adaptive)].filter((x): x is string => x !== null),
    ...samplingNotes(c),
  ].join('\n');
  return h(
    'td',
    { className: 'num', title, attrs: { ...attrs, 'data-status': 'ok' } },
    h('span', { className: 'median' }, formatMs(s.median)),
    h('span', { className: 'ci' }, shortMedianInterval(c)),
  );
}

function describeEnvironment(c: Column): string {
  const e = c.environment;
  return [
    `${e.browser.name} ${e.browser.version} (${e.browser.engine})`,
    e.os,
    e.cores !== null ? `${e.cores} cores` : null,
    e.crossOriginIsolated ? 'cross-origin isolated' : 'not isolated',
    `timer step ${formatStep(e.timerStepMs)}`,
    ...[
      ...new Set(c.docs.flatMap((d) => (d.run.plan.cpuThrottle ? [d.run.plan.cpuThrottle] : []))),
    ].map((rate) => `CPU throttled ×${rate} (DevTools emulation)`),
    c.docs.map((d) => `run ${d.run.id}`).join(', '),
  ]
    .filter((x): x is string => x !== null)
    .join(' · ');
}

/**
 * Each store's geometric-mean factor over the IndexedDB floor (indexeddb-raw), per browser, in
 * the cases both ran; empty when the floor did not run.
 */
export function floorSummary(comparison: Comparison): string {
  const parts = comparison.columns.flatMap((column) => {
    const medians = new Map<string, Map<string, number>>();
    for (const r of comparison.rows) {
      const cell = r.cells.get(column.key);
      if (cell?.status !== 'ok') continue;
      const group = groupKey(r);
      (medians.get(group) ?? medians.set(group, new Map()).get(group)!).set(
        r.adapter,
        cell.stats.median,
      );
    }
    const means = geometricMeans(medians, INDEXEDDB_FLOOR);
    return means.length > 0 ? [`${column.label}: ${formatMeans(means)}`] : [];
  });
  return parts.length > 0
    ? `. Geometric mean of each store’s factor over the IndexedDB floor (${INDEXEDDB_FLOOR}, plain requests), in the cases both ran: ${parts.join('; ')}.`
    : '';
}
