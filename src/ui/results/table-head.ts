/**
 * The results table's columns and its header: each column's label and what it holds, and the
 * numeric columns' sort, which orders the rows by the number each cell keeps in data-value.
 */
import { h } from '../dom.ts';

export const COLUMNS: readonly { label: string; title?: string; numeric?: boolean }[] = [
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

/** The header row of `body`'s table; numeric columns sort its rows on a click (again: the other way). */
export function tableHead(body: HTMLTableSectionElement): HTMLTableSectionElement {
  return h('thead', {}, h('tr', {}, ...COLUMNS.map((c, i) => header(body, c, i))));
}

function header(
  body: HTMLTableSectionElement,
  c: (typeof COLUMNS)[number],
  index: number,
): HTMLElement {
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
  button.addEventListener('click', () => sortBy(body, th, index));
  th.append(button);
  return th;
}

function sortBy(body: HTMLTableSectionElement, th: HTMLElement, index: number): void {
  const ascending = th.getAttribute('aria-sort') !== 'ascending';
  for (const other of th.parentElement?.children ?? []) other.removeAttribute('aria-sort');
  th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
  const value = (tr: Element) =>
    Number((tr.children[index] as HTMLElement | undefined)?.dataset.value ?? NaN);
  const rows = [...body.querySelectorAll('tr')].filter((tr) => !tr.classList.contains('empty-row'));
  // Rows without a value (an error, a timeout) go last either way.
  rows.sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : 1) : -1;
    return ascending ? x - y : y - x;
  });
  for (const tr of rows) tr.classList.remove('group-first');
  body.append(...rows);
}
