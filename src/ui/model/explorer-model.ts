/**
 * The results explorer's data model: loaded documents in, comparison rows, browser columns,
 * ratio pairs, histogram bins, scaling and growth points out. Pure: no DOM and no Chart.js, so
 * the tests check it with exact values. Beside the explorer (src/ui/explorer) and the charts, not
 * in either: both read it.
 */
import type { CaseResult, Environment, ResultsFile } from '../../core/results/results.ts';

export type OkCase = Extract<CaseResult, { status: 'ok' }>;

export type Origin = 'served' | 'local' | 'run';

export interface LoadedFile {
  /** Unique among loaded files: the served name, `local:<name>` or `run:<run id>`. */
  id: string;
  /** What the reader sees: the file name, or "this run". */
  label: string;
  origin: Origin;
  results: ResultsFile;
}

/** A facet filter: null means everything, an array the values kept. */
export interface Filters {
  suites: string[] | null;
  adapters: string[] | null;
  browsers: string[] | null;
  sizes: number[] | null;
}

export const NO_FILTERS: Filters = { suites: null, adapters: null, browsers: null, sizes: null };

export interface Facets {
  suites: string[];
  adapters: string[];
  browsers: string[];
  sizes: number[];
}

/** One column of the comparison: one browser, from one or more documents that do not overlap. */
export interface Column {
  key: string;
  browser: string;
  label: string;
  environment: Environment;
  docs: ResultsFile[];
}

/** The CPU throttling rate a column ran at (1: none). */
export function cpuRate(c: Column): number {
  return c.docs[0]?.run.plan.cpuThrottle ?? 1;
}

/**
 * A column's name on a chart axis, in lines short enough for a phone and no rotation: the
 * browser, then for a column of one run among several the run's start ("run 11-24", "00:17");
 * the full id is in the caption. Joined with spaces, the short name in a chart's title.
 */
export function axisLines(column: Column): string[] {
  // A throttled run says so on its axis: its column stands beside the unthrottled one of the same browser.
  const rate = cpuRate(column) > 1 ? [`CPU ×${cpuRate(column)}`] : [];
  if (column.key === column.browser) return [column.browser, ...rate];
  const id = column.docs[0]?.run.id ?? '';
  const start = /^\d{4}-(\d\d-\d\d)T(\d\d)-(\d\d)/.exec(id);
  return [
    ...(start
      ? [column.browser, `run ${start[1]}`, `${start[2]}:${start[3]}`]
      : [column.browser, id.slice(0, 16)]),
    ...rate,
  ];
}

export interface ComparisonRow {
  key: string;
  suite: string;
  case: string;
  title: string;
  adapter: string;
  size: number;
  /** By column key. */
  cells: Map<string, CaseResult>;
  /** Position in the order the runs produced (suite, case, size, adapter as first seen). */
  order: number;
}

export interface Comparison {
  columns: Column[];
  rows: ComparisonRow[];
}

const rowKey = (r: Pick<CaseResult, 'suite' | 'case' | 'adapter' | 'size'>): string =>
  `${r.suite}/${r.case}/${r.adapter}/${r.size}`;
export const caseKey = (r: Pick<CaseResult, 'suite' | 'case'>): string => `${r.suite}/${r.case}`;

/** Every value present in the loaded documents, in first-seen order (sizes ascending). */
export function facetsOf(files: readonly LoadedFile[]): Facets {
  const suites = new Set<string>();
  const adapters = new Set<string>();
  const browsers = new Set<string>();
  const sizes = new Set<number>();
  for (const f of files) {
    browsers.add(f.results.run.browser);
    for (const c of f.results.cases) {
      suites.add(c.suite);
      adapters.add(c.adapter);
      sizes.add(c.size);
    }
  }
  return {
    suites: [...suites],
    adapters: [...adapters],
    browsers: [...browsers],
    sizes: [...sizes].sort((a, b) => a - b),
  };
}

function keepCase(c: CaseResult, f: Filters): boolean {
  return (
    (f.suites === null || f.suites.includes(c.suite)) &&
    (f.adapters === null || f.adapters.includes(c.adapter)) &&
    (f.sizes === null || f.sizes.includes(c.size))
  );
}

function keepDoc(d: ResultsFile, f: Filters): boolean {
  return f.browsers === null || f.browsers.includes(d.run.browser);
}

/** The documents as the filters leave them: what the exports write. */
export function filteredDocs(files: readonly LoadedFile[], f: Filters): ResultsFile[] {
  return files
    .filter((x) => keepDoc(x.results, f))
    .map((x) => ({ ...x.results, cases: x.results.cases.filter((c) => keepCase(c, f)) }));
}

/**
 * Columns: one per browser. Documents of the same browser share a column when they measured
 * different rows with the same browser version and CPU throttling (a sweep split in shards, say);
 * otherwise each gets its own, labelled with its run id, so no number silently replaces another
 * and no throttled number stands beside an unthrottled one as if they were alike.
 */
export function columnsOf(docs: readonly ResultsFile[]): Column[] {
  const byBrowser = new Map<string, ResultsFile[]>();
  for (const d of docs) byBrowser.set(d.run.browser, [...(byBrowser.get(d.run.browser) ?? []), d]);
  const columns: Column[] = [];
  for (const [browser, list] of byBrowser) {
    const seen = new Set<string>();
    let disjoint = true;
    for (const d of list) {
      for (const c of d.cases) {
        const k = rowKey(c);
        if (seen.has(k)) disjoint = false;
        seen.add(k);
      }
    }
    const first = list[0] as ResultsFile;
    const alike = list.every(
      (d) =>
        d.environment.browser.version === first.environment.browser.version &&
        d.run.plan.cpuThrottle === first.run.plan.cpuThrottle,
    );
    if (list.length === 1 || (disjoint && alike)) {
      columns.push({
        key: browser,
        browser,
        label: browser,
        environment: first.environment,
        docs: list,
      });
    } else {
      for (const d of list)
        columns.push({
          key: `${browser}@${d.run.id}`,
          browser,
          label: `${browser} (${d.run.id})`,
          environment: d.environment,
          docs: [d],
        });
    }
  }
  return columns;
}

export function buildComparison(files: readonly LoadedFile[], f: Filters): Comparison {
  const docs = filteredDocs(files, f);
  const columns = columnsOf(docs);
  const rows = new Map<string, ComparisonRow>();
  for (const col of columns) {
    for (const d of col.docs) {
      for (const c of d.cases) {
        const k = rowKey(c);
        let row = rows.get(k);
        if (!row) {
          row = {
            key: k,
            suite: c.suite,
            case: c.case,
            title: c.title,
            adapter: c.adapter,
            size: c.size,
            cells: new Map(),
            order: 0,
          };
          rows.set(k, row);
        }
        row.cells.set(col.key, c);
      }
    }
  }
  const list = [...rows.values()];
  // First-seen order of each part, so the default order is the runs' own: suite, case, size, adapter.
  const rank = (values: string[]) => new Map(values.map((v, i) => [v, i]));
  const suiteRank = rank([...new Set(list.map((r) => r.suite))]);
  const caseRank = rank([...new Set(list.map((r) => caseKey(r)))]);
  const adapterRank = rank([...new Set(list.map((r) => r.adapter))]);
  list.sort(
    (a, b) =>
      (suiteRank.get(a.suite) ?? 0) - (suiteRank.get(b.suite) ?? 0) ||
      (caseRank.get(caseKey(a)) ?? 0) - (caseRank.get(caseKey(b)) ?? 0) ||
      a.size - b.size ||
      (adapterRank.get(a.adapter) ?? 0) - (adapterRank.get(b.adapter) ?? 0),
  );
  list.forEach((r, i) => (r.order = i));
  return { columns, rows: list };
}

export interface Sort {
  /** `suite`, `case`, `adapter`, `size`, or `col:<column key>` (by median). */
  key: string;
  desc: boolean;
}

/**
 * Rows sorted by one column, ties in the default order. By a browser column the rows sort on
 * the median; rows without one (unsupported, error, timeout, absent) go last either way, since
 * "no number" is neither fast nor slow.
 */
export function sortRows(rows: readonly ComparisonRow[], sort: Sort | null): ComparisonRow[] {
  const out = [...rows];
  if (!sort) return out.sort((a, b) => a.order - b.order);
  const dir = sort.desc ? -1 : 1;
  if (sort.key.startsWith('col:')) {
    const col = sort.key.slice(4);
    const median = (r: ComparisonRow) => {
      const c = r.cells.get(col);
      return c?.status === 'ok' ? c.stats.median : null;
    };
    return out.sort((a, b) => {
      const ma = median(a);
      const mb = median(b);
      if (ma === null || mb === null) return ma === mb ? a.order - b.order : ma === null ? 1 : -1;
      return (ma - mb) * dir || a.order - b.order;
    });
  }
  return out.sort((a, b) => {
    let d = 0;
    if (sort.key === 'size') d = a.size - b.size;
    else if (sort.key === 'suite' || sort.key === 'adapter')
      d = a[sort.key].localeCompare(b[sort.key]);
    else if (sort.key === 'case') d = caseKey(a).localeCompare(caseKey(b));
    return d * dir || a.order - b.order;
  });
}

/**
 * Paired cases: the pattern a study recommends (`a`) against the one it replaces (`b`). The
 * speed-up is median(b) / median(a), as in the "change in speed" table of the PouchDB 2.2.0
 * report: above 1, `a` is faster.
 */
export interface RatioPair {
  suite: string;
  a: string;
  b: string;
  label: string;
}

const RATIO_PAIRS: readonly RatioPair[] = [
  {
    suite: 'paginate',
    a: 'ref-startkey',
    b: 'ref-skip',
    label: 'startkey vs skip/limit (10 pages at spread offsets)',
  },
  {
    suite: 'paginate',
    a: 'walk-startkey',
    b: 'walk-skip',
    label: 'startkey vs skip/limit (walk every page)',
  },
  { suite: 'views', a: 'persisted', b: 'temp', label: 'persisted vs temporary view' },
  {
    suite: 'views',
    a: 'persisted-stale',
    b: 'temp',
    label: "persisted view, stale: 'ok', vs temporary view",
  },
  { suite: 'views', a: 'secondary-index', b: 'full-scan', label: 'secondary index vs full scan' },
  { suite: 'insert', a: 'bulk', b: 'serial', label: 'bulk vs one at a time (insert)' },
  {
    suite: 'read',
    a: 'get-batch',
    b: 'get-serial',
    label: 'one batch get vs one at a time (read)',
  },
  {
    suite: 'update',
    a: 'replace-bulk',
    b: 'replace-serial',
    label: 'bulk vs one at a time (replace)',
  },
  {
    suite: 'update',
    a: 'remove-bulk',
    b: 'remove-serial',
    label: 'bulk vs one at a time (remove)',
  },
  {
    suite: 'durability',
    a: 'bulk-relaxed',
    b: 'bulk-strict',
    label: 'durability relaxed vs strict (bulk)',
  },
  {
    suite: 'durability',
    a: 'serial-relaxed',
    b: 'serial-strict',
    label: 'durability relaxed vs strict (one at a time)',
  },
];

export interface RatioCell {
  /** median(b) / median(a); null when either side has no ok result or a zero median. */
  speedup: number | null;
  a: CaseResult | undefined;
  b: CaseResult | undefined;
  /**
   * Whether the two medians' 95% intervals are apart: the speed-up is a ratio of medians, so it is
   * their intervals that say whether it is clear. Non-overlap is a conservative test (it implies
   * p < 0.05); overlap does not prove "no difference", so it is shown as "unclear". null when a
   * median has no interval (fewer than 6 samples, or a file from before it was recorded).
   */
  clear: boolean | null;
}

export interface RatioRow {
  pair: RatioPair;
  adapter: string;
  size: number;
  cells: Map<string, RatioCell>;
}

export function ratioRows(comparison: Comparison): RatioRow[] {
  const byKey = new Map(comparison.rows.map((r) => [r.key, r]));
  const out: RatioRow[] = [];
  for (const pair of RATIO_PAIRS) {
    const seen = new Set<string>();
    for (const r of comparison.rows) {
      if (r.suite !== pair.suite || r.case !== pair.a) continue;
      const id = `${r.adapter}/${r.size}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const other = byKey.get(
        rowKey({ suite: pair.suite, case: pair.b, adapter: r.adapter, size: r.size }),
      );
      if (!other) continue;
      const cells = new Map<string, RatioCell>();
      for (const col of comparison.columns) {
        const a = r.cells.get(col.key);
        const b = other.cells.get(col.key);
        if (!a && !b) continue;
        cells.set(col.key, ratioCell(a, b));
      }
      // A pair that timed out or failed is a finding and stays; one unsupported everywhere is noise.
      const telling = [...cells.values()].some(
        (c) =>
          c.speedup !== null ||
          [c.a, c.b].some((x) => x?.status === 'timeout' || x?.status === 'error'),
      );
      if (telling) out.push({ pair, adapter: r.adapter, size: r.size, cells });
    }
  }
  return out;
}

export function ratioCell(a: CaseResult | undefined, b: CaseResult | undefined): RatioCell {
  if (a?.status !== 'ok' || b?.status !== 'ok' || a.stats.median <= 0)
    return { speedup: null, a, b, clear: null };
  const speedup = b.stats.median / a.stats.median;
  const ca = a.stats.medianCi;
  const cb = b.stats.medianCi;
  const clear = !ca || !cb ? null : ca.hi < cb.lo || cb.hi < ca.lo;
  return { speedup, a, b, clear };
}

export interface Bin {
  from: number;
  to: number;
  count: number;
}

/**
 * Histogram bins of raw samples. Bin count by Sturges' rule for small n (the runs here take 5 to
 * 100 samples) and Freedman–Diaconis from 30 on, where the IQR is stable enough, then widths
 * rounded to 1, 2 or 5 × 10^k so the edges read as plain numbers.
 */
export function histogramBins(samples: readonly number[]): Bin[] {
  const xs = samples.filter(Number.isFinite).sort((a, b) => a - b);
  const n = xs.length;
  if (n === 0) return [];
  const min = xs[0] as number;
  const max = xs[n - 1] as number;
  if (max === min) return [{ from: min, to: min, count: n }];
  let width = (max - min) / (Math.ceil(Math.log2(n)) + 1);
  if (n >= 30) {
    const iqr = quantileSorted(xs, 0.75) - quantileSorted(xs, 0.25);
    if (iqr > 0) width = (2 * iqr) / Math.cbrt(n);
  }
  // Never more than 60 bars: a long tail would otherwise make hundreds of empty bins.
  width = niceStep(Math.max(width, (max - min) / 60));
  const start = Math.floor(min / width) * width;
  const count = Math.max(1, Math.floor((max - start) / width) + 1);
  const bins: Bin[] = Array.from({ length: count }, (_, i) => ({
    from: roundTo(start + i * width, width),
    to: roundTo(start + (i + 1) * width, width),
    count: 0,
  }));
  for (const x of xs) {
    const i = Math.min(count - 1, Math.floor((x - start) / width));
    (bins[i] as Bin).count++;
  }
  return bins;
}

function quantileSorted(xs: readonly number[], q: number): number {
  const pos = (xs.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (xs[lo] as number) + ((xs[hi] as number) - (xs[lo] as number)) * (pos - lo);
}

export function niceStep(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  const m = x / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/** Drop float noise from an edge (0.30000000000000004) at the step's precision. */
function roundTo(x: number, step: number): number {
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  return Number(x.toFixed(Math.min(digits, 15)));
}

export interface XY {
  x: number;
  y: number;
}

/** Median time against size for one case, adapter and column: the scaling line. */
export function scalingPoints(
  comparison: Comparison,
  caseId: string,
  adapter: string,
  column: string,
): XY[] {
  return comparison.rows
    .filter((r) => caseKey(r) === caseId && r.adapter === adapter)
    .flatMap((r) => {
      const c = r.cells.get(column);
      return c?.status === 'ok' ? [{ x: r.size, y: c.stats.median }] : [];
    })
    .sort((a, b) => a.x - b.x);
}

/**
 * A growth curve from a row's series: at each x (store size before the batch), the median of
 * the batch times over the timed samples, plus every sample's own points.
 */
export function growthCurve(row: CaseResult): { median: XY[]; points: XY[] } {
  const byX = new Map<number, number[]>();
  const points: XY[] = [];
  for (const sample of row.series?.samples ?? []) {
    for (const [x, y] of sample) {
      points.push({ x, y });
      byX.set(x, [...(byX.get(x) ?? []), y]);
    }
  }
  const median = [...byX.entries()]
    .sort(([a], [b]) => a - b)
    .map(([x, ys]) => ({ x, y: medianOf(ys) }));
  return { median, points };
}

function medianOf(values: readonly number[]): number {
  const xs = [...values].sort((a, b) => a - b);
  const mid = xs.length >> 1;
  return xs.length % 2 ? (xs[mid] as number) : ((xs[mid - 1] as number) + (xs[mid] as number)) / 2;
}

/** What the reader chose for the charts (the URL keeps it, explorer-url.ts); null: not chosen. */
export interface ChartChoice {
  /** `suite/case` shown by the bar, scaling and histogram charts; null picks the first. */
  case: string | null;
  size: number | null;
  /** Column key shown by the scaling, histogram and growth charts. */
  browser: string | null;
  /** Adapter of the histogram. */
  adapter: string | null;
  /** Bar chart on a log scale; null lets the chart decide from the spread of its medians. */
  log: boolean | null;
}

/** The chart choice with every gap filled from what is loaded; the URL keeps only the reader's own picks. */
export interface EffectiveChoice {
  caseId: string | null;
  size: number | null;
  browser: string | null;
  adapter: string | null;
  cases: string[];
  sizes: number[];
  adapters: string[];
}

export function effectiveChoice(comparison: Comparison, c: ChartChoice): EffectiveChoice {
  const okRows = comparison.rows.filter((r) =>
    [...r.cells.values()].some((x) => x.status === 'ok'),
  );
  const cases = [...new Set(okRows.map((r) => caseKey(r)))];
  const caseId = c.case !== null && cases.includes(c.case) ? c.case : (cases[0] ?? null);
  const sizes = [...new Set(okRows.filter((r) => caseKey(r) === caseId).map((r) => r.size))].sort(
    (a, b) => a - b,
  );
  const size = c.size !== null && sizes.includes(c.size) ? c.size : (sizes.at(-1) ?? null);
  const atSize = okRows.filter((r) => caseKey(r) === caseId && r.size === size);
  const browsers = comparison.columns.map((col) => col.key);
  // By default the first browser with a result for the case, not one that would chart nothing.
  const withCase = browsers.filter((b) => atSize.some((r) => r.cells.get(b)?.status === 'ok'));
  const browser =
    c.browser !== null && browsers.includes(c.browser)
      ? c.browser
      : (withCase[0] ?? browsers[0] ?? null);
  const adapters = [...new Set(atSize.map((r) => r.adapter))];
  const withSamples = atSize
    .filter((r) => browser !== null && (r.cells.get(browser)?.samples.length ?? 0) > 0)
    .map((r) => r.adapter);
  const adapter =
    c.adapter !== null && adapters.includes(c.adapter)
      ? c.adapter
      : (withSamples[0] ?? adapters[0] ?? null);
  return { caseId, size, browser, adapter, cases, sizes, adapters };
}

/**
 * Which bars are missing and why, one clause per reason and browser rather than one per store:
 * "unsupported everywhere: websql, localstorage; not run in firefox: dexie, idb".
 */
export function missingBars(rows: readonly ComparisonRow[], columns: readonly Column[]): string {
  const groups = new Map<string, string[]>();
  for (const r of rows) {
    const bad = columns.filter((c) => r.cells.get(c.key)?.status !== 'ok');
    if (bad.length === 0) continue;
    const statuses = [...new Set(bad.map((c) => r.cells.get(c.key)?.status ?? 'not run'))].join(
      '/',
    );
    const where =
      bad.length === columns.length
        ? `${statuses} everywhere`
        : `${statuses} in ${bad.map((c) => c.label).join(', ')}`;
    groups.set(where, [...(groups.get(where) ?? []), r.adapter]);
  }
  return [...groups].map(([where, adapters]) => `${where}: ${adapters.join(', ')}`).join('; ');
}

/**
 * A throttled column and an unthrottled one of the same browser, for the throttled-against-not
 * chart: of the chosen column's browser when it has both, else of any browser that does; null
 * when no loaded browser has both.
 */
export function throttlePair(
  comparison: Comparison,
  column: string | null,
): { slow: Column; plain: Column } | null {
  const chosen = comparison.columns.find((c) => c.key === column)?.browser;
  const browsers = [
    ...new Set([...(chosen ? [chosen] : []), ...comparison.columns.map((c) => c.browser)]),
  ];
  for (const browser of browsers) {
    const same = comparison.columns.filter((c) => c.browser === browser);
    const slow = same.find((c) => cpuRate(c) > 1);
    const plain = same.find((c) => cpuRate(c) === 1);
    if (slow && plain) return { slow, plain };
  }
  return null;
}
