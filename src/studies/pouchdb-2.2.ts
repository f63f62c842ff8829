import type { PublishedFigure, Study } from './study.ts';

const MEASURED_IN = [
  'Chrome 34, IndexedDB',
  'Firefox 28, IndexedDB',
  'IE 11, IndexedDB',
  'Chrome 34, WebSQL',
  'Safari 6.1, WebSQL',
];

/** One row of the report's "change in speed" tables: PouchDB 2.2.0-alpha against 2.1.2, per browser. */
function changeInSpeed(table: string, values: (number | null)[]): PublishedFigure[] {
  return values.flatMap((value, i) =>
    value === null
      ? []
      : [
          {
            value,
            unit: '×' as const,
            where: `change in speed, ${table}`,
            measuredIn: MEASURED_IN[i] as string,
          },
        ],
  );
}

/**
 * The nearest published pair to the report's 2.1.2 → 2.2.0-alpha: 2.1.2 was never published to
 * npm, and the 2.x packages that were (2.0.2, 2.2.0, 2.2.3) hold no browser build, only CommonJS
 * for browserify, which the sweep bundles with Node's shims (docs/stores.md, "Variants of a store").
 */
const OLDER = 'pouchdb-idb@2.0.2';
const NEWER = 'pouchdb-idb@2.2.0';

const ADAPTERS = `pouchdb-idb,pouchdb-indexeddb,pouchdb-idb@7.3.1,${OLDER},${NEWER}`;

/** The direction the published factors give, over every browser: their geometric mean above or below 1. */
const newerFaster = (values: readonly (number | null)[]) =>
  values.reduce<number>((p, v) => p * (v ?? 1), 1) > 1;

export const pouchdb22: Study = {
  id: 'pouchdb-2.2',
  title: 'PouchDB 2.2.0 performance report',
  source: {
    title: 'PouchDB 2.2.0 performance report, April 2014',
    author: 'Nolan Lawson',
    date: '2014-04-19 (tests run), published April 2014',
    url: 'https://gist.github.com/nolanlawson/11100235',
    setup:
      '2013 MacBook Air; Chrome 34, Firefox 28, IE 11 (VirtualBox, Windows 8.1), Safari 6.1; 1,000-document databases; total ms per test',
  },
  summary:
    'allDocs paging through 1,000 documents in pages of 100 by skip/limit and by startkey, basic inserts, persisted views (with and without stale: ok) and temporary views. ' +
    'Its tables compare two PouchDB versions on each test (2.2.0-alpha against 2.1.2); its text compares the patterns. ' +
    '2.1.2 was never published to npm, so today the nearest published pair, 2.0.2 against 2.2.0, stands beside its factors, and 7.3.1 against 9.0.0 shows versions today.',
  parts: [
    {
      id: 'paging',
      title: 'allDocs paging through every document, pages of 100: skip/limit against startkey',
      full: [
        '--suites',
        'paginate',
        '--cases',
        'walk-skip,walk-startkey',
        '--sizes',
        '1000',
        '--params',
        'pageSize=100',
        '--adapters',
        ADAPTERS,
        '--auto=min-n:50',
        '--budget',
        '1m',
      ],
      quick: [
        '--suites',
        'paginate',
        '--cases',
        'walk-skip,walk-startkey',
        '--sizes',
        '200',
        '--params',
        'pageSize=20',
        '--adapters',
        ADAPTERS,
        '--iterations',
        '8',
        '--warmup',
        '1',
      ],
    },
    {
      id: 'inserts',
      title: 'basic inserts, one at a time',
      full: [
        '--suites',
        'insert',
        '--cases',
        'serial',
        '--sizes',
        '1000',
        '--adapters',
        ADAPTERS,
        '--budget',
        '1m',
      ],
      quick: [
        '--suites',
        'insert',
        '--cases',
        'serial',
        '--sizes',
        '200',
        '--adapters',
        ADAPTERS,
        '--iterations',
        '8',
        '--warmup',
        '1',
      ],
    },
    {
      id: 'views',
      title: "persisted views (with and without stale: 'ok') against temporary views",
      full: [
        '--suites',
        'views',
        '--cases',
        'persisted,persisted-stale,temp',
        '--sizes',
        '1000',
        '--params',
        'queries=3',
        '--adapters',
        ADAPTERS,
        '--budget',
        '3m',
      ],
      quick: [
        '--suites',
        'views',
        '--cases',
        'persisted,persisted-stale,temp',
        '--sizes',
        '200',
        '--params',
        'queries=3',
        '--adapters',
        ADAPTERS,
        '--iterations',
        '8',
        '--warmup',
        '1',
      ],
    },
  ],
  findings: [
    {
      id: 'startkey-beats-skip',
      says: 'Paging with skip/limit is "a disaster for IndexedDB"; the startkey pattern performs fine.',
      part: 'paging',
      slower: { suite: 'paginate', case: 'walk-skip', size: 'largest' },
      faster: { suite: 'paginate', case: 'walk-startkey', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'persisted-beats-temp',
      says: 'A persisted view, queried after its first build, is far faster than a temporary view built for every query.',
      part: 'views',
      slower: { suite: 'views', case: 'temp', size: 'largest' },
      faster: { suite: 'views', case: 'persisted', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'stale-beats-persisted',
      says: "stale: 'ok' makes a persisted view faster still (it skips the index update).",
      part: 'views',
      slower: { suite: 'views', case: 'persisted', size: 'largest' },
      faster: { suite: 'views', case: 'persisted-stale', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    ...(
      [
        [
          'alldocs-1',
          'allDocs, the first of its two tables',
          [2.0, 0.96, 1.15, 1.75, 2.19],
          'paginate',
          'walk-skip',
        ],
        [
          'alldocs-2',
          'allDocs, the second of its two tables',
          [8.04, 1.6, 3.3, 1.3, 3.07],
          'paginate',
          'walk-startkey',
        ],
        ['persisted', 'persisted views', [61.32, 72.8, 58.79, 10.67, 11.84], 'views', 'persisted'],
        [
          'persisted-stale',
          "persisted views, stale: 'ok'",
          [83.25, 94.36, 94.52, 34.91, 46.95],
          'views',
          'persisted-stale',
        ],
        [
          'temp',
          'temporary views (IE never finished)',
          [0.02, 0.03, null, 0.01, 0.01],
          'views',
          'temp',
        ],
      ] as const
    ).map(([id, table, values, suite, kase]) => {
      // The claim is the published direction: the newer version faster, or (temporary views) slower.
      const [slower, faster] = newerFaster(values) ? [OLDER, NEWER] : [NEWER, OLDER];
      return {
        id: `version-${id}`,
        says: `PouchDB 2.2.0-alpha against 2.1.2, ${table}: the change in speed per browser, ${newerFaster(values) ? 'the newer faster' : 'the newer slower'}; measured here as 2.0.2 against 2.2.0.`,
        part: suite === 'paginate' ? 'paging' : 'views',
        slower: { suite, case: kase, size: 'largest' as const, adapter: slower },
        faster: { suite, case: kase, size: 'largest' as const, adapter: faster },
        claim: { kind: 'faster' as const },
        published: changeInSpeed(table, [...values]),
      };
    }),
  ],
  references: [],
  versions: [
    { older: OLDER, newer: NEWER },
    { older: 'pouchdb-idb@7.3.1', newer: 'pouchdb-idb' },
  ],
};
