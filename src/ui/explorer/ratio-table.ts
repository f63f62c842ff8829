/**
 * The "change in speed" table of the PouchDB 2.2.0 report, per browser: for each pair of cases
 * (startkey vs skip/limit, persisted vs temporary view, bulk vs one at a time, relaxed vs strict
 * durability, ...), how many times faster the first is than the second, by their medians.
 */
import { h } from '../dom.ts';
import {
  ratioRows,
  type Comparison,
  type RatioCell,
  type RatioRow,
} from '../model/explorer-model.ts';
import { formatMs } from '../../core/base/format.ts';

/** "1.9×" or "0.45×": a speed-up as the table's cells show it. */
function speedupText(s: number): string {
  return s >= 10 ? `${s.toFixed(0)}×` : s >= 1 ? `${s.toFixed(1)}×` : `${s.toFixed(2)}×`;
}

export class RatioTable {
  readonly element: HTMLElement;
  /** What the table holds in a line (pairs, stores, the range of speed-ups), for its folded line. */
  line = '';
  private readonly table: HTMLTableElement;
  private readonly empty: HTMLElement;

  constructor() {
    this.table = h('table', { attrs: { id: 'ratio-table' } });
    this.empty = h(
      'p',
      { className: 'chart-placeholder' },
      'No paired cases loaded (paginate, views, insert, read, update, durability).',
    );
    this.element = h(
      'div',
      { className: 'ratio' },
      h(
        'p',
        { className: 'figure-caption' },
        'Speed-up = median of the second case ÷ median of the first: above 1× the first is faster. ',
        'A faint cell means the 95% intervals of the two medians overlap, so the difference is not clear at this sample size, or that a median has no interval (fewer than 6 samples, or an older file).',
      ),
      this.empty,
      h('div', { className: 'table-scroll' }, this.table),
    );
  }

  render(comparison: Comparison): void {
    const rows = ratioRows(comparison);
    this.line = ratioLine(rows);
    const columns = comparison.columns.filter((c) => rows.some((r) => r.cells.has(c.key)));
    this.empty.hidden = rows.length > 0;
    this.table.hidden = rows.length === 0;
    const head = h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { attrs: { scope: 'col' } }, 'Pair'),
        h('th', { attrs: { scope: 'col' } }, 'Adapter'),
        h('th', { className: 'num', attrs: { scope: 'col' } }, 'Size'),
        ...columns.map((c) => h('th', { className: 'num', attrs: { scope: 'col' } }, c.label)),
      ),
    );
    let lastPair = '';
    const body = h(
      'tbody',
      {},
      ...rows.map((r) => {
        const pairId = `${r.pair.suite}/${r.pair.a}/${r.pair.b}`;
        const first = pairId !== lastPair;
        // The pair is named once per block of rows, as in the report's table; the tooltip names it on every row.
        const tr = h(
          'tr',
          { className: first ? 'group-first' : '', attrs: { 'data-pair': pairId } },
          h(
            'td',
            {
              className: 'case',
              title: `${r.pair.label}: ${r.pair.suite}/${r.pair.a} against ${r.pair.suite}/${r.pair.b}`,
            },
            first ? r.pair.label : '',
            first
              ? h(
                  'span',
                  { className: 'case-title' },
                  `${r.pair.suite}: ${r.pair.a} vs ${r.pair.b}`,
                )
              : null,
          ),
          h('td', { className: 'adapter' }, h('code', {}, r.adapter)),
          h('td', { className: 'num' }, r.size.toLocaleString()),
          ...columns.map((c) => ratioCell(r.cells.get(c.key))),
        );
        lastPair = pairId;
        return tr;
      }),
    );
    this.table.replaceChildren(head, body);
  }
}

/** "1 pair on 7 stores, 1.9× to 97× (bulk vs one at a time (insert))"; past three pairs, "and N more". */
function ratioLine(rows: readonly RatioRow[]): string {
  if (rows.length === 0) return 'no paired cases loaded';
  const pairs = [...new Set(rows.map((r) => r.pair.label))];
  const stores = new Set(rows.map((r) => r.adapter)).size;
  const speedups = rows.flatMap((r) =>
    [...r.cells.values()].flatMap((c) => (c.speedup === null ? [] : [c.speedup])),
  );
  const range =
    speedups.length === 0
      ? 'no speed-up to show'
      : `${speedupText(Math.min(...speedups))} to ${speedupText(Math.max(...speedups))}`;
  const named = pairs.length > 3 ? [...pairs.slice(0, 3), `${pairs.length - 3} more`] : pairs;
  return `${pairs.length} pair${pairs.length === 1 ? '' : 's'} on ${stores} store${stores === 1 ? '' : 's'}, ${range} (${named.join('; ')})`;
}

function ratioCell(cell: RatioCell | undefined): HTMLTableCellElement {
  if (!cell) return h('td', { className: 'num muted' }, '·');
  if (cell.speedup === null) {
    const why = [cell.a, cell.b]
      .filter((c) => c && c.status !== 'ok')
      .map((c) => `${c!.case}: ${c!.status}`);
    return h(
      'td',
      { className: 'num muted', title: why.join('; ') || 'one side is missing' },
      why.length ? why.map((w) => w.split(': ')[1]).join(' / ') : '—',
    );
  }
  const s = cell.speedup;
  const text = speedupText(s);
  const a = cell.a?.status === 'ok' ? cell.a.stats.median : null;
  const b = cell.b?.status === 'ok' ? cell.b.stats.median : null;
  const title =
    `${cell.a?.case}: ${formatMs(a)} ms, ${cell.b?.case}: ${formatMs(b)} ms (medians)` +
    (cell.clear === false
      ? '; the 95% intervals of the medians overlap'
      : cell.clear === null
        ? '; no 95% interval for a median (fewer than 6 samples, or not recorded)'
        : '');
  const kind = s >= 1 ? 'faster' : 'slower';
  return h(
    'td',
    {
      className: `num ratio-${kind}${cell.clear === true ? '' : ' ratio-unclear'}`,
      title,
      attrs: { 'data-speedup': String(s) },
    },
    text,
  );
}
