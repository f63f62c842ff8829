/**
 * The default plan's findings: what a run of `npm run sweep` or the page's Run says in words.
 * Six pairs of cases, each checked on every store that ran them, and two kinds made from each
 * case's rows: its fastest store against the next fastest, and every store against raw
 * IndexedDB. Data for the one rule in findings.ts; results/document.ts writes what they find.
 */
import {
  browsersOf,
  checkFindingsIn,
  type BrowserRows,
  findingLines,
  isOk,
  perOperation,
  type CheckedFinding,
  type Finding,
} from './findings.ts';
import { DEFAULT_SUITES } from '../plan/defaults.ts';
import type { CaseResult, FindingLine, ResultsFile } from '../schema/results-schema.ts';

/** The store every other is set against: IndexedDB with no library on top. */
export const INDEXEDDB_FLOOR = 'indexeddb-raw';

function pair(
  id: string,
  suite: string,
  slower: string,
  faster: string,
  names: { slower: string; faster: string },
): Finding {
  return {
    id,
    says: `${names.faster} is faster than ${names.slower}`,
    slower: { suite, case: slower, size: 'largest' },
    faster: { suite, case: faster, size: 'largest' },
    claim: { kind: 'faster' },
    names,
  };
}

/** The pairs of the default plan's cases, each checked per store, in the order the page lists them. */
export const PAIR_FINDINGS: readonly Finding[] = [
  pair('bulk-over-serial', 'insert', 'serial', 'bulk', {
    slower: 'one write at a time',
    faster: 'a bulk write',
  }),
  pair('batch-over-serial-get', 'read', 'get-serial', 'get-batch', {
    slower: 'one get at a time',
    faster: 'one batch get',
  }),
  pair('startkey-over-skip', 'paginate', 'ref-skip', 'ref-startkey', {
    slower: 'skip/limit paging',
    faster: 'startkey paging',
  }),
  pair('index-over-scan', 'find', 'eq-scan', 'eq-indexed', {
    slower: 'a scan',
    faster: 'an indexed query',
  }),
  pair('persisted-over-temp', 'views', 'temp', 'persisted', {
    slower: 'a temporary view',
    faster: 'a persisted view',
  }),
  pair('warm-over-cold', 'find', 'eq-indexed-cold', 'eq-indexed', {
    slower: 'the first query after opening',
    faster: 'a warm indexed query',
  }),
];

/** The headings findings are listed under, in order: each pair's own, then the two made per case. */
export const FINDING_TOPICS: readonly { id: string; title: string }[] = [
  ...PAIR_FINDINGS.map((f) => ({
    id: f.id,
    title: f.says.charAt(0).toUpperCase() + f.says.slice(1),
  })),
  {
    id: 'fastest',
    title: 'The fastest store of each case, against the next fastest: next ÷ fastest',
  },
  {
    id: 'over-raw',
    title: `Each store against raw IndexedDB, per case: store ÷ ${INDEXEDDB_FLOOR}, slower or faster beyond ±5%, same within`,
  },
];

/** The ok rows of the default plan's suites in one browser, by case, at the largest size any store has ok. */
function casesOf(
  rows: readonly CaseResult[],
): { suite: string; kase: string; size: number; ok: (CaseResult & { status: 'ok' })[] }[] {
  const byCase = new Map<
    string,
    { suite: string; kase: string; ok: (CaseResult & { status: 'ok' })[] }
  >();
  for (const row of rows) {
    if (!isOk(row) || !DEFAULT_SUITES.includes(row.suite)) continue;
    const key = `${row.suite}/${row.case}`;
    const seen = byCase.get(key) ?? { suite: row.suite, kase: row.case, ok: [] };
    byCase.set(key, { ...seen, ok: [...seen.ok, row] });
  }
  return [...byCase.values()].map(({ suite, kase, ok }) => {
    const size = Math.max(...ok.map((c) => c.size));
    return { suite, kase, size, ok: ok.filter((c) => c.size === size) };
  });
}

/**
 * Per browser and case: its fastest store (lowest median per operation) against the next fastest.
 * Not in an A/B run: its two stores are A and B, whose rows the A/B verdict tells, by its own
 * threshold; a second verdict on the same pair by another rule could only contradict it.
 */
function fastestFindings(browsers: readonly BrowserRows[]): Finding[] {
  return browsers.flatMap((b) =>
    b.plans.some((p) => p.ab)
      ? []
      : casesOf(b.rows).flatMap(({ suite, kase, size, ok }) => {
          const [first, second] = [...ok].sort(
            (x, y) => perOperation(x).median - perOperation(y).median,
          );
          if (!first || !second) return [];
          return [
            {
              id: `fastest:${suite}/${kase}`,
              topic: 'fastest',
              says: `${first.adapter} is the fastest store at ${suite} ${kase}, ahead of ${second.adapter}`,
              slower: { suite, case: kase, size, adapter: second.adapter },
              faster: { suite, case: kase, size, adapter: first.adapter },
              claim: { kind: 'faster' },
              names: { slower: second.adapter, faster: first.adapter },
              store: first.adapter,
              browser: b.browser,
            },
          ];
        }),
  );
}

/** Per browser and case raw IndexedDB measured there: every other store that ran the case, against raw IndexedDB. */
function overRawFindings(browsers: readonly BrowserRows[]): Finding[] {
  return browsers.flatMap((b) => {
    const rows = b.rows.filter((c) => DEFAULT_SUITES.includes(c.suite));
    // A case raw IndexedDB cannot run (views need map/reduce) asks nothing of the others.
    const cases = new Map(
      rows
        .filter((c) => c.adapter === INDEXEDDB_FLOOR && isOk(c))
        .map((c) => [`${c.suite}/${c.case}`, { suite: c.suite, kase: c.case }]),
    );
    return [...cases].flatMap(([key, { suite, kase }]) => {
      const stores = [
        ...new Set(
          rows
            .filter((c) => c.suite === suite && c.case === kase && c.adapter !== INDEXEDDB_FLOOR)
            .map((c) => c.adapter),
        ),
      ];
      return stores.map((store): Finding => ({
        id: `over-raw:${key}:${store}`,
        topic: 'over-raw',
        says: `${store} against raw IndexedDB at ${suite} ${kase}`,
        slower: { suite, case: kase, size: 'largest', adapter: store },
        faster: { suite, case: kase, size: 'largest', adapter: INDEXEDDB_FLOOR },
        // Some stores are faster than raw IndexedDB (memory, localStorage): no direction is claimed.
        claim: { kind: 'either' },
        names: { slower: store, faster: 'raw IndexedDB' },
        store,
        browser: b.browser,
      }));
    });
  });
}

/** The default plan's findings for these rows: the pairs, then those made from their rows. */
function defaultFindingsIn(browsers: readonly BrowserRows[]): Finding[] {
  return [...PAIR_FINDINGS, ...fastestFindings(browsers), ...overRawFindings(browsers)];
}

/** The default plan's findings checked in the documents, each with its cells, those no store ran left out. */
export function checkDefaultFindings(docs: readonly ResultsFile[]): CheckedFinding[] {
  return checkDefaultFindingsIn(browsersOf(docs));
}

/** checkDefaultFindings over rows already taken as browsers: the runner's own rows at a planned look. */
export function checkDefaultFindingsIn(browsers: readonly BrowserRows[]): CheckedFinding[] {
  return checkFindingsIn(defaultFindingsIn(browsers), browsers);
}

/** What the documents found, as the results file's `findings` lines. */
export function runFindings(docs: readonly ResultsFile[]): FindingLine[] {
  return findingLines(checkDefaultFindings(docs));
}
