import { describe, expect, it } from 'vitest';
import type { CaseResult, ResultsFile } from '../../../../src/core/results/results.ts';
import { medianInterval } from '../../../../src/core/stats/stats.ts';
import {
  buildComparison,
  axisLines,
  columnsOf,
  effectiveChoice,
  facetsOf,
  filteredDocs,
  growthCurve,
  histogramBins,
  missingBars,
  NO_FILTERS,
  niceStep,
  ratioCell,
  ratioRows,
  scalingPoints,
  sortRows,
  throttlePair,
  type LoadedFile,
} from '../../../../src/ui/model/explorer-model.ts';
import { floorSummary } from '../../../../src/ui/explorer/comparison-table.ts';
import {
  EXPLORER_KEYS,
  readExplorerState,
  withPlanQuery,
  writeExplorerState,
} from '../../../../src/ui/explorer/explorer-url.ts';
import { handBuilt } from '../../helpers/export-fixture.ts';

function ok(
  suite: string,
  kase: string,
  adapter: string,
  size: number,
  samples: number[],
  extra: Partial<CaseResult> = {},
): CaseResult {
  const sorted = [...samples].sort((a, b) => a - b);
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  const median =
    sorted.length % 2
      ? (sorted[sorted.length >> 1] as number)
      : ((sorted[sorted.length / 2 - 1] as number) + (sorted[sorted.length / 2] as number)) / 2;
  return {
    suite,
    case: kase,
    title: kase,
    adapter,
    size,
    params: {},
    operations: size,
    status: 'ok',
    reason: null,
    samples,
    warmup: [],
    stats: {
      n: samples.length,
      min: sorted[0] as number,
      max: sorted.at(-1) as number,
      mean,
      median,
      stddev: 0,
      ci95: samples.length > 1 ? 0.5 : null,
      medianCi: medianInterval(samples),
    },
    ...extra,
  } as CaseResult;
}

function doc(
  browser: string,
  cases: CaseResult[],
  runId = `run-${browser}`,
  version = '1',
): ResultsFile {
  const r = handBuilt();
  r.run.id = runId;
  r.run.browser = browser;
  r.environment.browser.version = version;
  r.cases = cases;
  return r;
}

const loaded = (...docs: ResultsFile[]): LoadedFile[] =>
  docs.map((results, i) => ({ id: `f${i}`, label: `f${i}`, origin: 'local', results }));

describe('explorer model - columns', () => {
  it('gives each browser one column, and shares it between runs that measured different rows', () => {
    const a = doc('chromium', [ok('insert', 'bulk', 'idb', 100, [1])], 'r1');
    const b = doc('chromium', [ok('paginate', 'ref-skip', 'idb', 100, [2])], 'r2');
    const c = doc('firefox', [ok('insert', 'bulk', 'idb', 100, [3])], 'r3');
    expect(columnsOf([a, b, c]).map((col) => [col.key, col.label, col.docs.length])).toEqual([
      ['chromium', 'chromium', 2],
      ['firefox', 'firefox', 1],
    ]);
  });

  it('splits a browser into one column per run when the runs overlap or the versions differ', () => {
    const a = doc('chromium', [ok('insert', 'bulk', 'idb', 100, [1])], 'r1');
    const b = doc('chromium', [ok('insert', 'bulk', 'idb', 100, [2])], 'r2');
    expect(columnsOf([a, b]).map((col) => col.label)).toEqual(['chromium (r1)', 'chromium (r2)']);
    const c = doc('chromium', [ok('read', 'all', 'idb', 100, [2])], 'r3', '2');
    expect(columnsOf([a, c]).map((col) => col.key)).toEqual(['chromium@r1', 'chromium@r3']);
  });
});

describe('explorer model - CPU throttling', () => {
  const throttled = (d: ResultsFile, rate: number) => (
    (d.run.plan = { ...d.run.plan, cpuThrottle: rate }),
    d
  );

  it('never shares a column between a throttled run and an unthrottled one, even when their rows differ', () => {
    const a = doc('chromium', [ok('insert', 'bulk', 'idb', 100, [1])], 'r1');
    const b = throttled(doc('chromium', [ok('read', 'all', 'idb', 100, [2])], 'r2'), 4);
    expect(columnsOf([a, b]).map((col) => col.key)).toEqual(['chromium@r1', 'chromium@r2']);
  });

  it('pairs a throttled column with an unthrottled one of the same browser, the chosen browser first', () => {
    const plain = doc('chromium', [ok('insert', 'bulk', 'idb', 100, [1])], 'r1');
    const slow = throttled(doc('chromium', [ok('insert', 'bulk', 'idb', 100, [4])], 'r2'), 4);
    const firefox = doc('firefox', [ok('insert', 'bulk', 'idb', 100, [2])], 'r3');
    const c = buildComparison(loaded(firefox, plain, slow), NO_FILTERS);
    const pair = throttlePair(c, 'firefox');
    expect([pair?.slow.key, pair?.plain.key]).toEqual(['chromium@r2', 'chromium@r1']);
    // The throttled column says so on a chart axis; the other does not.
    expect(axisLines(pair!.slow).at(-1)).toBe('CPU ×4');
    expect(axisLines(pair!.plain).join(' ')).not.toContain('CPU');
    expect(throttlePair(buildComparison(loaded(firefox, plain), NO_FILTERS), null)).toBeNull();
  });
});

describe('explorer model - comparison', () => {
  const chromium = doc('chromium', [
    ok('insert', 'serial', 'idb', 100, [10]),
    ok('insert', 'serial', 'memory', 100, [1]),
    ok('insert', 'serial', 'idb', 1000, [100]),
    ok('insert', 'bulk', 'idb', 100, [2]),
    {
      ...ok('insert', 'bulk', 'memory', 100, [1]),
      status: 'timeout',
      reason: 'cut off',
    },
  ]);
  const firefox = doc('firefox', [
    ok('insert', 'serial', 'idb', 100, [20]),
    ok('insert', 'bulk', 'idb', 100, [1]),
  ]);
  const files = loaded(chromium, firefox);

  it('has one row per suite/case/adapter/size, in the runs’ order, with a cell per browser', () => {
    const c = buildComparison(files, NO_FILTERS);
    expect(c.columns.map((x) => x.key)).toEqual(['chromium', 'firefox']);
    expect(c.rows.map((r) => r.key)).toEqual([
      'insert/serial/idb/100',
      'insert/serial/memory/100',
      'insert/serial/idb/1000',
      'insert/bulk/idb/100',
      'insert/bulk/memory/100',
    ]);
    expect(c.rows[0]?.cells.get('firefox')?.samples).toEqual([20]);
    expect(c.rows[1]?.cells.has('firefox')).toBe(false);
  });

  it("charts by default the first browser with a result for the chosen case, and keeps a reader's pick", () => {
    const onlyFirefox = doc('firefox', [ok('insert', 'chunked', 'dexie', 100, [3])], 'run-late');
    const c = buildComparison(loaded(chromium, onlyFirefox), NO_FILTERS);
    const none = { case: null, size: null, browser: null, adapter: null, log: null };
    expect(effectiveChoice(c, { ...none, case: 'insert/serial' })).toMatchObject({
      caseId: 'insert/serial',
      size: 1000,
      browser: 'chromium',
      adapter: 'idb',
    });
    expect(effectiveChoice(c, { ...none, case: 'insert/chunked' })).toMatchObject({
      browser: 'firefox',
      adapter: 'dexie',
    });
    expect(
      effectiveChoice(c, { ...none, case: 'insert/chunked', browser: 'chromium' }).browser,
    ).toBe('chromium');
  });

  it('names chart columns in lines, and says which bars are missing once per reason and browser', () => {
    const again = doc(
      'chromium',
      [ok('insert', 'serial', 'idb', 100, [11])],
      '2026-11-24T00-17-57Z-541e',
    );
    const c = buildComparison(loaded(chromium, firefox, again), NO_FILTERS);
    expect(c.columns.map(axisLines)).toEqual([
      ['chromium', 'run-chromium'],
      ['chromium', 'run 11-24', '00:17'],
      ['firefox'],
    ]);
    const rows = c.rows.filter(
      (r) => r.suite === 'insert' && r.case === 'serial' && r.size === 100,
    );
    expect(missingBars(rows, c.columns)).toBe(
      'not run in chromium (2026-11-24T00-17-57Z-541e), firefox: memory',
    );
    const bulk = c.rows.filter((r) => r.case === 'bulk');
    expect(missingBars(bulk, c.columns)).toBe(
      'not run in chromium (2026-11-24T00-17-57Z-541e): idb; timeout/not run everywhere: memory',
    );
  });

  it("gives each store's factor over the IndexedDB floor per browser, only where the floor ran", () => {
    const withFloor = doc(
      'webkit',
      [
        ok('insert', 'bulk', 'indexeddb-raw', 100, [2]),
        ok('insert', 'bulk', 'idb', 100, [3]),
        ok('insert', 'bulk', 'dexie', 100, [8]),
      ],
      'run-floor',
    );
    expect(floorSummary(buildComparison(loaded(chromium, firefox), NO_FILTERS))).toBe('');
    expect(floorSummary(buildComparison(loaded(chromium, withFloor), NO_FILTERS))).toBe(
      '. Geometric mean of each store’s factor over the IndexedDB floor (indexeddb-raw, plain requests), in the cases both ran: webkit: idb ×1.50 (1), dexie ×4.00 (1).',
    );
  });

  it('lists the facets and filters by each', () => {
    expect(facetsOf(files)).toEqual({
      suites: ['insert'],
      adapters: ['idb', 'memory'],
      browsers: ['chromium', 'firefox'],
      sizes: [100, 1000],
    });
    const f = { ...NO_FILTERS, adapters: ['idb'], sizes: [100], browsers: ['firefox'] };
    const c = buildComparison(files, f);
    expect(c.columns.map((x) => x.key)).toEqual(['firefox']);
    expect(c.rows.map((r) => r.key)).toEqual(['insert/serial/idb/100', 'insert/bulk/idb/100']);
    expect(filteredDocs(files, f).map((d) => [d.run.browser, d.cases.length])).toEqual([
      ['firefox', 2],
    ]);
  });

  it('sorts by a browser column on the median, rows without one last in both directions', () => {
    const rows = buildComparison(files, NO_FILTERS).rows;
    expect(sortRows(rows, { key: 'col:chromium', desc: false }).map((r) => r.key)).toEqual([
      'insert/serial/memory/100',
      'insert/bulk/idb/100',
      'insert/serial/idb/100',
      'insert/serial/idb/1000',
      'insert/bulk/memory/100',
    ]);
    expect(
      sortRows(rows, { key: 'col:chromium', desc: true })
        .map((r) => r.key)
        .at(-1),
    ).toBe('insert/bulk/memory/100');
    expect(
      sortRows(rows, { key: 'col:firefox', desc: false })
        .map((r) => r.key)
        .slice(0, 2),
    ).toEqual(['insert/bulk/idb/100', 'insert/serial/idb/100']);
    expect(sortRows(rows, { key: 'size', desc: true }).map((r) => r.size)).toEqual([
      1000, 100, 100, 100, 100,
    ]);
    expect(sortRows(rows, { key: 'adapter', desc: false }).map((r) => r.adapter)).toEqual([
      'idb',
      'idb',
      'idb',
      'memory',
      'memory',
    ]);
    expect(sortRows(rows, null).map((r) => r.key)).toEqual(rows.map((r) => r.key));
  });

  it('gives the scaling points of one case, adapter and browser', () => {
    expect(
      scalingPoints(buildComparison(files, NO_FILTERS), 'insert/serial', 'idb', 'chromium'),
    ).toEqual([
      { x: 100, y: 10 },
      { x: 1000, y: 100 },
    ]);
  });
});

describe('explorer model - ratios', () => {
  it('pairs the cases per adapter, size and browser, as median(b) / median(a)', () => {
    const d = doc('chromium', [
      ok('paginate', 'ref-skip', 'idb', 1000, [40, 40]),
      ok('paginate', 'ref-startkey', 'idb', 1000, [10, 10]),
      ok('views', 'persisted', 'pouchdb-idb', 1000, [2, 2]),
      ok('views', 'temp', 'pouchdb-idb', 1000, [200, 200]),
      ok('insert', 'bulk', 'idb', 1000, [5]),
    ]);
    const rows = ratioRows(buildComparison(loaded(d), NO_FILTERS));
    expect(
      rows.map((r) => [`${r.pair.a}/${r.pair.b}`, r.adapter, r.cells.get('chromium')?.speedup]),
    ).toEqual([
      ['ref-startkey/ref-skip', 'idb', 4],
      ['persisted/temp', 'pouchdb-idb', 100],
    ]);
  });

  it("says whether the medians' intervals are apart, and gives no ratio without two ok medians", () => {
    // n = 6: each median's interval is about [x(1), x(6)] pulled 5/14 of the way in, here ±0.32.
    const a = ok('insert', 'bulk', 'idb', 100, [0.5, 1, 1, 1, 1, 1.5]);
    const b = ok('insert', 'serial', 'idb', 100, [9.5, 10, 10, 10, 10, 10.5]);
    expect(ratioCell(a, b)).toMatchObject({ speedup: 10, clear: true });
    const close = ok('insert', 'serial', 'idb', 100, [0.7, 1.2, 1.2, 1.2, 1.2, 1.7]);
    expect(ratioCell(a, close)).toMatchObject({ speedup: 1.2, clear: false });
    // A long tail moves the mean (2.47, its interval ±0.5 clear of a's) but not the median: unclear.
    const skewed = ok('insert', 'serial', 'idb', 100, [1.2, 1.2, 1.2, 1.2, 5, 5]);
    expect(ratioCell(a, skewed)).toMatchObject({ speedup: 1.2, clear: false });
    // Too few samples for a median's interval, or a file from before it was recorded: unknown.
    expect(ratioCell(ok('insert', 'bulk', 'idb', 100, [1, 1, 1, 1, 1]), b).clear).toBeNull();
    const older = ok('insert', 'bulk', 'idb', 100, [0.5, 1, 1, 1, 1, 1.5]) as Extract<
      CaseResult,
      { status: 'ok' }
    >;
    delete older.stats.medianCi;
    expect(ratioCell(older, b).clear).toBeNull();
    expect(ratioCell(undefined, b).speedup).toBeNull();
    expect(ratioCell({ ...a, status: 'error', reason: 'x' }, b).speedup).toBeNull();
  });
});

describe('explorer model - histogram bins', () => {
  it('uses round bin edges and counts every sample once', () => {
    const bins = histogramBins([41, 62, 65, 88, 101]);
    expect(bins).toEqual([
      { from: 40, to: 60, count: 1 },
      { from: 60, to: 80, count: 2 },
      { from: 80, to: 100, count: 1 },
      { from: 100, to: 120, count: 1 },
    ]);
  });

  it('handles none, one value, and many samples', () => {
    expect(histogramBins([])).toEqual([]);
    expect(histogramBins([3, 3, 3])).toEqual([{ from: 3, to: 3, count: 3 }]);
    const many = Array.from({ length: 1000 }, (_, i) => 10 + (i % 100) / 10);
    const bins = histogramBins(many);
    expect(bins.reduce((n, b) => n + b.count, 0)).toBe(1000);
    expect(bins.length).toBeLessThanOrEqual(60);
    expect(bins[0]?.from).toBeLessThanOrEqual(10);
    expect(bins.at(-1)?.to).toBeGreaterThan(19.9);
  });

  it('rounds steps to 1, 2 or 5 times a power of ten', () => {
    expect([0.013, 0.3, 1, 1.5, 3, 7, 42].map(niceStep)).toEqual([0.02, 0.5, 1, 2, 5, 10, 50]);
  });
});

describe('explorer model - growth curve', () => {
  it('takes the median over samples at each store size, and keeps every point', () => {
    const row = ok('growth', 'batches', 'idb', 1000, [30, 31, 35], {
      series: {
        x: 'documents in store',
        y: 'batch time (ms)',
        samples: [
          [
            [1000, 10],
            [1200, 20],
          ],
          [
            [1000, 12],
            [1200, 18],
          ],
          [
            [1000, 11],
            [1200, 40],
          ],
        ],
      },
    });
    expect(growthCurve(row)).toEqual({
      median: [
        { x: 1000, y: 11 },
        { x: 1200, y: 20 },
      ],
      points: [
        { x: 1000, y: 10 },
        { x: 1200, y: 20 },
        { x: 1000, y: 12 },
        { x: 1200, y: 18 },
        { x: 1000, y: 11 },
        { x: 1200, y: 40 },
      ],
    });
  });
});

describe('explorer url', () => {
  it('round-trips the files, filters, sort and chart choices', () => {
    const state = {
      results: ['a-chromium.json', 'b-firefox.json'],
      filters: {
        suites: ['paginate'],
        adapters: null,
        browsers: ['chromium', 'firefox'],
        sizes: [1000],
      },
      sort: { key: 'col:chromium', desc: true },
      chart: {
        case: 'paginate/ref-skip',
        size: 1000,
        browser: 'firefox',
        adapter: 'idb',
        log: false,
      },
      trend: { row: 'firefox/insert/bulk/idb/100', by: 'commit' as const },
    };
    const search = writeExplorerState('', state);
    expect(search).toBe(
      '?results=a-chromium.json%2Cb-firefox.json&filter-suites=paginate&filter-browsers=chromium%2Cfirefox&filter-sizes=1000&sort=-col%3Achromium' +
        '&chart-case=paginate%2Fref-skip&chart-size=1000&chart-browser=firefox&chart-adapter=idb&chart-log=0' +
        '&trend=firefox%2Finsert%2Fbulk%2Fidb%2F100&trend-by=commit',
    );
    expect(readExplorerState(search)).toEqual({ state, errors: [] });
  });

  it('keeps the plan’s keys, and the plan keeps the explorer’s', () => {
    const base = '?suites=insert&adapters=idb%2Cmemory';
    const state = readExplorerState('').state;
    expect(writeExplorerState(base, state)).toBe(base);
    const withFilter = writeExplorerState(base, {
      ...state,
      filters: { ...state.filters, suites: [] },
    });
    expect(withFilter).toBe('?suites=insert&adapters=idb%2Cmemory&filter-suites=');
    expect(readExplorerState(withFilter).state.filters.suites).toEqual([]);
    expect(
      withPlanQuery(
        '?results=x.json&suites=read&collector=y',
        new URLSearchParams('suites=insert&sizes=100'),
      ),
    ).toBe('?suites=insert&sizes=100&results=x.json');
    expect(Object.values(EXPLORER_KEYS)).not.toContain('suites');
  });

  it('refuses file names that would leave results/, and bad numbers, naming the key', () => {
    const { state, errors } = readExplorerState(
      '?results=../secret.json,https://evil.example/x.json,ok.json&filter-sizes=10,ten&chart-size=big',
    );
    expect(state.results).toEqual(['ok.json']);
    expect(state.filters.sizes).toEqual([10]);
    expect(state.chart.size).toBeNull();
    expect(errors).toEqual([
      'results: "../secret.json" is not a file name in results/ (letters, digits, ".", "_", "-", ending in .json)',
      'results: "https://evil.example/x.json" is not a file name in results/ (letters, digits, ".", "_", "-", ending in .json)',
      'filter-sizes: "ten" is not a whole number',
      'chart-size: "big" is not a whole number',
    ]);
  });
});

describe('explorer model - ratio rows', () => {
  it('keeps a pair that timed out everywhere, and drops one unsupported everywhere', () => {
    const d = doc('chromium', [
      ok('views', 'persisted', 'pouchdb-idb', 1000, [2, 2]),
      {
        ...ok('views', 'temp', 'pouchdb-idb', 1000, [9000]),
        status: 'timeout',
        reason: 'cut off',
      },
      {
        ...ok('views', 'persisted', 'idb', 1000, []),
        status: 'unsupported',
        reason: 'no mapReduce',
      },
      {
        ...ok('views', 'temp', 'idb', 1000, []),
        status: 'unsupported',
        reason: 'no mapReduce',
      },
    ]);
    const rows = ratioRows(buildComparison(loaded(d), NO_FILTERS));
    expect(
      rows.map((r) => [
        r.adapter,
        r.cells.get('chromium')?.speedup,
        r.cells.get('chromium')?.b?.status,
      ]),
    ).toEqual([['pouchdb-idb', null, 'timeout']]);
  });
});
