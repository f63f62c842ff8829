/**
 * The results table: one row per case and store, kept as they arrive and grouped by case and
 * size. An error or a timeout is a row of its own; a store that cannot run a case is counted and
 * folded under the table (table-counts.ts). Each ok row shows its factor against the fastest store
 * of its case and size, and a line above the table gives each store's geometric mean of those
 * factors (table-factors.ts). The cells are table-rows.ts's, the header table-head.ts's.
 */
import { plannedLooksOf, type Plan } from '../../core/plan/plan.ts';
import type { CaseResult } from '../../core/results/results.ts';
import { groupKey } from '../../core/verdicts/fastest.ts';
import { h } from '../dom.ts';
import { TableCounts } from './table-counts.ts';
import { groupFactorCells, meanLines } from './table-factors.ts';
import { COLUMNS, tableHead } from './table-head.ts';
import { lineFold, tableRow, type RowContext } from './table-rows.ts';

type OkRow = Extract<CaseResult, { status: 'ok' }>;

export class ResultsTable {
  readonly element: HTMLElement;
  private readonly body = h('tbody');
  private readonly summary = h('p', {
    className: 'table-summary',
    attrs: { 'data-testid': 'table-summary' },
  });
  private readonly factors = h('p', {
    className: 'table-factors muted',
    attrs: { 'data-testid': 'table-factors' },
  });
  private readonly folded = h('div', {
    className: 'table-unsupported',
    attrs: { 'data-testid': 'table-unsupported' },
  });
  private readonly counts = new TableCounts();
  private readonly context: RowContext = {
    adapterLabels: new Map(),
    timerStepMs: 0,
    adaptive: false,
  };
  private lastGroup: string | null = null;
  /** ok medians by group, for the geometric means. */
  private readonly medians = new Map<string, Map<string, number>>();
  /** ok rows by group and store, for the factor column. */
  private readonly okRows = new Map<string, Map<string, OkRow>>();
  /** The plan's looks, at which a paired factor's interval is taken (plan.plannedLooksOf). */
  private looks: readonly number[] | null = null;

  constructor() {
    this.element = h(
      'div',
      { className: 'results-table' },
      this.summary,
      this.factors,
      h(
        'div',
        { className: 'table-scroll results-scroll' },
        h('table', { attrs: { id: 'results-table' } }, tableHead(this.body), this.body),
      ),
      this.folded,
    );
    this.clear();
  }

  setAdapterLabels(labels: Map<string, string>): void {
    this.context.adapterLabels = labels;
  }

  /** The timer step of the run, to flag medians within a few steps of it. */
  setTimerStep(ms: number): void {
    this.context.timerStepMs = ms;
  }

  /** Adaptive sampling or a fixed count, and its looks, from the plan the rows ran under. */
  setPlan(plan: Plan): void {
    this.context.adaptive = plan.auto !== undefined;
    this.looks = plannedLooksOf(plan.auto);
  }

  clear(): void {
    this.body.replaceChildren();
    this.lastGroup = null;
    this.counts.clear();
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
    if (result.status === 'unsupported') {
      this.counts.add(result);
      const empty = this.body.querySelector('.empty-row td');
      if (empty)
        empty.textContent =
          'No measured rows yet; the stores that cannot run a case are listed below the table.';
      this.folded.replaceChildren(...this.counts.folded());
      this.renderSummary();
      return;
    }
    this.body.querySelector('.empty-row')?.remove();
    const { tr, coarse } = tableRow(result, this.context);
    this.counts.add(result, coarse);
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
      const rows = this.okRows.get(key) ?? new Map<string, OkRow>();
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
    const cells = groupFactorCells([...group.values()], this.looks);
    for (const tr of this.body.querySelectorAll<HTMLTableRowElement>('tr[data-status=ok]')) {
      if (tr.dataset.group !== key) continue;
      const cell = tr.querySelector<HTMLElement>('td.factor');
      const factor = cells.get(tr.dataset.adapter ?? '');
      if (!cell || !factor) continue;
      cell.textContent = factor.text;
      cell.title = factor.title;
      if (factor.value !== undefined) cell.dataset.value = String(factor.value);
      cell.dataset.band = factor.band;
    }
    // Each mean a line, unfolded on a click: with a dozen stores each runs to two lines or more.
    this.factors.replaceChildren(...meanLines(this.medians).map(lineFold));
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

  private renderSummary(): void {
    this.summary.textContent = this.counts.summary(this.context.timerStepMs);
  }
}
