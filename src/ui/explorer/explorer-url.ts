/**
 * The explorer's state in the page URL, so a link reopens the same files, filters, sort and
 * charts. Its keys live beside the plan's (src/core/plan/url.ts) and never share a name with them;
 * each side rewrites only its own keys. Pure: the page passes `location.search` in.
 */
import { HISTORY_BY, type HistoryBy } from '../../core/history/series.ts';
import { RESULTS_FILE_NAME } from '../../core/results/input.ts';
import { NO_FILTERS, type ChartChoice, type Filters, type Sort } from '../model/explorer-model.ts';

export interface ExplorerState {
  /** Files from the results/ folder, by name. */
  results: string[];
  filters: Filters;
  sort: Sort | null;
  chart: ChartChoice;
  /** The trends' row (browser/suite/case/adapter/size) and whether a point is a run or a commit. */
  trend: { row: string | null; by: HistoryBy | null };
}

export const EXPLORER_KEYS = {
  results: 'results',
  suites: 'filter-suites',
  adapters: 'filter-adapters',
  browsers: 'filter-browsers',
  sizes: 'filter-sizes',
  sort: 'sort',
  case: 'chart-case',
  size: 'chart-size',
  browser: 'chart-browser',
  adapter: 'chart-adapter',
  log: 'chart-log',
  trend: 'trend',
  trendBy: 'trend-by',
} as const;

const list = (text: string): string[] =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function readExplorerState(search: string): { state: ExplorerState; errors: string[] } {
  const q = new URLSearchParams(search);
  const errors: string[] = [];
  const results: string[] = [];
  for (const name of q.getAll(EXPLORER_KEYS.results).flatMap(list)) {
    // Only plain names inside results/: a shared link must not make the page fetch from elsewhere.
    if (RESULTS_FILE_NAME.test(name)) results.push(name);
    else
      errors.push(
        `${EXPLORER_KEYS.results}: "${name}" is not a file name in results/ (letters, digits, ".", "_", "-", ending in .json)`,
      );
  }
  const names = (key: string): string[] | null => {
    const v = q.get(key);
    return v === null ? null : list(v);
  };
  let sizes: number[] | null = null;
  const sizeText = q.get(EXPLORER_KEYS.sizes);
  if (sizeText !== null) {
    sizes = [];
    for (const s of list(sizeText)) {
      if (/^\d+$/.test(s)) sizes.push(Number(s));
      else errors.push(`${EXPLORER_KEYS.sizes}: "${s}" is not a whole number`);
    }
  }
  let sort: Sort | null = null;
  const sortText = q.get(EXPLORER_KEYS.sort);
  if (sortText !== null && sortText !== '') {
    const desc = sortText.startsWith('-');
    sort = { key: desc ? sortText.slice(1) : sortText, desc };
  }
  const sizeChoice = q.get(EXPLORER_KEYS.size);
  let chartSize: number | null = null;
  if (sizeChoice !== null) {
    if (/^\d+$/.test(sizeChoice)) chartSize = Number(sizeChoice);
    else errors.push(`${EXPLORER_KEYS.size}: "${sizeChoice}" is not a whole number`);
  }
  const filters: Filters = {
    ...NO_FILTERS,
    suites: names(EXPLORER_KEYS.suites),
    adapters: names(EXPLORER_KEYS.adapters),
    browsers: names(EXPLORER_KEYS.browsers),
    sizes,
  };
  const chart: ChartChoice = {
    case: q.get(EXPLORER_KEYS.case),
    size: chartSize,
    browser: q.get(EXPLORER_KEYS.browser),
    adapter: q.get(EXPLORER_KEYS.adapter),
    log: q.get(EXPLORER_KEYS.log) === '1' ? true : q.get(EXPLORER_KEYS.log) === '0' ? false : null,
  };
  const byText = q.get(EXPLORER_KEYS.trendBy);
  let by: HistoryBy | null = null;
  if (byText !== null) {
    if ((HISTORY_BY as readonly string[]).includes(byText)) by = byText as HistoryBy;
    else
      errors.push(`${EXPLORER_KEYS.trendBy}: "${byText}" is not one of ${HISTORY_BY.join(', ')}`);
  }
  const trend = { row: q.get(EXPLORER_KEYS.trend), by };
  return { state: { results: [...new Set(results)], filters, sort, chart, trend }, errors };
}

/** `search` with the explorer's keys replaced by `state`; every other key kept as it was. */
export function writeExplorerState(search: string, state: ExplorerState): string {
  const before = new URLSearchParams(search);
  // A key set to '' (a filter with nothing ticked) differs from an absent key (no filter).
  const ours = (q: URLSearchParams) =>
    JSON.stringify(Object.values(EXPLORER_KEYS).map((k) => (q.has(k) ? q.getAll(k) : null)));
  const q = new URLSearchParams(search);
  for (const key of Object.values(EXPLORER_KEYS)) q.delete(key);
  if (state.results.length > 0) q.set(EXPLORER_KEYS.results, state.results.join(','));
  const f = state.filters;
  if (f.suites !== null) q.set(EXPLORER_KEYS.suites, f.suites.join(','));
  if (f.adapters !== null) q.set(EXPLORER_KEYS.adapters, f.adapters.join(','));
  if (f.browsers !== null) q.set(EXPLORER_KEYS.browsers, f.browsers.join(','));
  if (f.sizes !== null) q.set(EXPLORER_KEYS.sizes, f.sizes.join(','));
  if (state.sort) q.set(EXPLORER_KEYS.sort, `${state.sort.desc ? '-' : ''}${state.sort.key}`);
  const c = state.chart;
  if (c.case !== null) q.set(EXPLORER_KEYS.case, c.case);
  if (c.size !== null) q.set(EXPLORER_KEYS.size, String(c.size));
  if (c.browser !== null) q.set(EXPLORER_KEYS.browser, c.browser);
  if (c.adapter !== null) q.set(EXPLORER_KEYS.adapter, c.adapter);
  if (c.log !== null) q.set(EXPLORER_KEYS.log, c.log ? '1' : '0');
  if (state.trend.row !== null) q.set(EXPLORER_KEYS.trend, state.trend.row);
  if (state.trend.by !== null) q.set(EXPLORER_KEYS.trendBy, state.trend.by);
  // Unchanged: keep the address as it was, rather than re-encoding the plan's keys.
  if (ours(q) === ours(before)) return search;
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}

/** The plan's query (`planToQuery`) merged into `search`, keeping the explorer's keys. */
export function withPlanQuery(search: string, plan: URLSearchParams): string {
  const current = new URLSearchParams(search);
  const out = new URLSearchParams(plan);
  const ours = new Set<string>(Object.values(EXPLORER_KEYS));
  for (const [k, v] of current) if (ours.has(k)) out.append(k, v);
  const text = out.toString();
  return text === '' ? '' : `?${text}`;
}
