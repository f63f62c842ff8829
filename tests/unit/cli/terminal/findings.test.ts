/**
 * The sweep's "What this run found" (src/cli/terminal/findings.ts) for a committed results file of
 * three browsers: the numbers it prints are the ratios of the rows' own medians, each store and
 * browser has its line, and stores a finding is missing on are folded by reason.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findingsText } from '../../../../src/cli/terminal/findings.ts';
import type { CaseResult, ResultsFile } from '../../../../src/core/results/results.ts';
import { parseResults } from '../../../../src/core/results/recompute.ts';
import { expectedRatio } from '../../helpers/expected-ratio.ts';

const RUN = 'results/2026-11-25T06-13-31Z-73a2';
const read = (browser: string): ResultsFile =>
  parseResults(readFileSync(`${RUN}-${browser}.json`, 'utf8'), browser);
const docs = ['chromium', 'firefox', 'webkit'].map(read);
const lines = findingsText(docs);

/** The lines under a heading, up to the next heading. */
function section(title: string): string[] {
  const start = lines.indexOf(`  ${title}`);
  expect(start, title).toBeGreaterThan(0);
  const end = lines.findIndex((l, i) => i > start && /^ {2}\S/.test(l));
  return lines.slice(start + 1, end < 0 ? lines.length - 1 : end);
}

/** Three significant figures, written out independently of the module under test. */
const sig3 = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(3));

describe('sweep - what this run found', () => {
  it('comes first, with a heading that says what the numbers are, and ends in a blank line', () => {
    expect(lines[0]).toMatch(
      /^What this run found \(slower ÷ faster per operation, paired by pass where the two rows share passes, with its 95% interval, and its verdict\):$/,
    );
    expect(lines.at(-1)).toBe('');
    expect(lines.filter((l) => /^ {2}\S/.test(l))).toEqual([
      '  A bulk write is faster than one write at a time',
      '  One batch get is faster than one get at a time',
      '  Startkey paging is faster than skip/limit paging',
      '  An indexed query is faster than a scan',
      '  A persisted view is faster than a temporary view',
      '  A warm indexed query is faster than the first query after opening',
      '  The fastest store of each case, against the next fastest: next ÷ fastest',
      '  Each store against raw IndexedDB, per case: store ÷ indexeddb-raw, slower or faster beyond ±5%, same within',
    ]);
  });

  it("gives startkey over skip/limit a line per browser and store: the rows' own ratio, its interval and a verdict", () => {
    const body = section('Startkey paging is faster than skip/limit paging');
    let browser = '';
    let checked = 0;
    for (const line of body.filter((l) => !l.includes('missing on'))) {
      const m =
        /^ {4}(\S*)\s+(\S+)\s+(\S+)× \[(\S+), (\S+)\]\s+(holds|reversed|same|undecided)$/.exec(
          line,
        );
      expect(m, line).not.toBeNull();
      const [, named = '', store, ratio, lo, hi] = m ?? [];
      browser = named || browser;
      const doc = docs.find((d) => d.run.browser === browser) as ResultsFile;
      const row = (kase: string) =>
        doc.cases.find(
          (c) => c.suite === 'paginate' && c.case === kase && c.adapter === store,
        ) as CaseResult;
      expect(ratio, `${browser} ${store}`).toBe(
        sig3(expectedRatio(row('ref-skip'), row('ref-startkey'))),
      );
      expect(Number(lo)).toBeLessThanOrEqual(Number(ratio));
      expect(Number(hi)).toBeGreaterThanOrEqual(Number(ratio));
      checked++;
    }
    // Every store that ran both cases, in every browser: 10 in chromium and firefox, 9 in webkit (no OPFS SQLite there).
    const ok = (d: ResultsFile) =>
      new Set(
        d.cases
          .filter((c) => c.suite === 'paginate' && c.case === 'ref-skip' && c.status === 'ok')
          .map((c) => c.adapter),
      ).size;
    expect(checked).toBe(docs.reduce((n, d) => n + ok(d), 0));
    expect(checked).toBe(29);
    expect(body).toContain(
      '              missing on localforage-websql, websql: ref-skip is unsupported',
    );
  });

  it('folds a finding missing on every store into one line per browser, with why', () => {
    expect(section('A warm indexed query is faster than the first query after opening')).toEqual(
      ['chromium', 'firefox', 'webkit'].map(
        (b) =>
          `    ${b.padEnd(8)}  missing on every store (12): eq-indexed-cold was not in the plan`,
      ),
    );
  });

  it("names each case's fastest store and its factor to the next, and lists every store against raw IndexedDB in one line per case", () => {
    const fastest = section(
      'The fastest store of each case, against the next fastest: next ÷ fastest',
    );
    expect(fastest).toHaveLength(3 * 12);
    for (const line of fastest)
      expect(line).toMatch(
        /^ {4}(chromium|firefox |webkit {2}| {8}) {2}[a-z]+ [a-z-]+: [a-z-]+, \S+× \[\S+, \S+\] faster than [a-z-]+: (holds|same|undecided)$/,
      );
    const raw = section(
      'Each store against raw IndexedDB, per case: store ÷ indexeddb-raw, slower or faster beyond ±5%, same within',
    );
    // The cases raw IndexedDB ran (views need map/reduce, which it lacks), once per browser.
    expect(raw).toHaveLength(3 * 10);
    const serial = raw.find((l) => l.startsWith('    chromium  insert serial: ')) ?? '';
    expect(serial).toMatch(/; idb \S+× \[\S+, \S+\] (slower|faster|same|undecided); /);
    expect(serial).toMatch(/; missing on localforage-websql, websql \(serial is unsupported\)$/);
  });

  it('escapes a name from the file, and prints nothing when no finding was checked', () => {
    const hostile = read('chromium');
    hostile.run.browser = 'chro\u001b]0;PWNED\u0007mium\u202e';
    const text = findingsText([hostile]).join('\n');
    expect(text).toContain('chro\\u001b]0;PWNED\\u0007mium\\u202e');
    expect(
      // eslint-disable-next-line no-control-regex -- matching control characters is the point
      text.match(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g),
    ).toBeNull();
    // A run whose plan asked for none of the default plan's cases.
    const elsewhere = {
      ...hostile,
      run: { ...hostile.run, plan: { ...hostile.run.plan, suites: ['growth'], cases: undefined } },
      cases: [],
    };
    expect(findingsText([elsewhere])).toEqual([]);
  });
});
