/**
 * The one rule for findings (src/core/verdicts/findings.ts) on rows made here, and the default plan's
 * findings (src/core/verdicts/default-findings.ts) as a results document carries them.
 */
import { describe, expect, it } from 'vitest';
import {
  checkDefaultFindings,
  FINDING_TOPICS,
  PAIR_FINDINGS,
  runFindings,
} from '../../../../src/core/verdicts/default-findings.ts';
import {
  findingCells,
  findingSentence,
  perOperation,
  verdictOf,
  type Finding,
} from '../../../../src/core/verdicts/findings.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import { resultsDocument } from '../../../../src/core/results/document.ts';
import type { CaseResult, ResultsFile } from '../../../../src/core/results/results.ts';
import { validateResults } from '../../../../src/core/results/recompute.ts';
import { ratioOfMedians, summarize } from '../../../../src/core/stats/stats.ts';
import { nodeEnvironment } from '../../helpers/runner-doc.ts';

/** An ok row of 12 samples within ±`spread`·2 of `ms` a sample (±2% by default), `ops` operations each. */
function ok(
  suite: string,
  kase: string,
  adapter: string,
  ms: number,
  ops = 10,
  size = 1000,
  n = 12,
  spread = 0.01,
): CaseResult {
  const samples = Array.from({ length: n }, (_, i) => ms * (1 + ((i % 5) - 2) * spread));
  return {
    suite,
    case: kase,
    title: kase,
    adapter,
    size,
    params: {},
    operations: ops,
    status: 'ok',
    reason: null,
    samples,
    warmup: [],
    stats: summarize(samples),
  };
}

function notOk(
  suite: string,
  kase: string,
  adapter: string,
  status: 'unsupported' | 'error' | 'timeout',
  reason: string,
  size = 1000,
): CaseResult {
  return {
    suite,
    case: kase,
    title: kase,
    adapter,
    size,
    params: {},
    operations: 10,
    status,
    reason,
    samples: [],
    warmup: [],
  };
}

function doc(
  browser: string,
  cases: CaseResult[],
  plan: Partial<Plan> = {},
  runId = `run-${browser}`,
): ResultsFile {
  return resultsDocument({
    runId,
    browser,
    plan: {
      ...DEFAULT_PLAN,
      suites: ['paginate'],
      adapters: [...new Set(cases.map((c) => c.adapter))],
      sizes: [1000],
      cases: ['ref-skip', 'ref-startkey'],
      ...plan,
    },
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:01:00.000Z',
    environment: nodeEnvironment(),
    output: { cases, order: [], cancelled: false },
    harness: { version: 'test', commit: 'test' },
  });
}

const startkey = PAIR_FINDINGS.find((f) => f.id === 'startkey-over-skip') as Finding;

describe('findings - the verdict comes from the interval', () => {
  it('a claim holds wholly above 1, is reversed wholly below, same within ±5%, else undecided; undecided without an interval', () => {
    const claim = { kind: 'faster' } as const;
    expect(verdictOf(claim, { lo: 1.01, hi: 3 })).toBe('holds');
    expect(verdictOf(claim, { lo: 0.2, hi: 0.99 })).toBe('reversed');
    expect(verdictOf(claim, { lo: 0.99, hi: 1.01 })).toBe('same');
    expect(verdictOf(claim, { lo: 0.97, hi: 1.06 })).toBe('undecided');
    expect(verdictOf(claim, null)).toBe('undecided');
  });

  it('two stores without a claim read slower or faster beyond ±5%, same within, else undecided', () => {
    const either = { kind: 'either' } as const;
    expect(verdictOf(either, { lo: 1.06, hi: 1.3 })).toBe('slower');
    expect(verdictOf(either, { lo: 1.01, hi: 1.3 })).toBe('undecided');
    expect(verdictOf(either, { lo: 0.1, hi: 0.94 })).toBe('faster');
    expect(verdictOf(either, { lo: 0.96, hi: 1.04 })).toBe('same');
    expect(verdictOf(either, null)).toBe('undecided');
  });
});

describe('findings - the rule on rows', () => {
  const rows = [
    // idb: startkey 3 times faster than skip; dexie: startkey slower; sqlite-opfs: the same;
    // localforage-indexeddb: 2% apart with samples ±20% apart, too noisy to call.
    ok('paginate', 'ref-skip', 'idb', 30),
    ok('paginate', 'ref-startkey', 'idb', 10),
    ok('paginate', 'ref-skip', 'dexie', 10),
    ok('paginate', 'ref-startkey', 'dexie', 20),
    ok('paginate', 'ref-skip', 'sqlite-opfs', 10),
    ok('paginate', 'ref-startkey', 'sqlite-opfs', 10.05),
    ok('paginate', 'ref-skip', 'localforage-indexeddb', 10.2, 10, 1000, 12, 0.1),
    ok('paginate', 'ref-startkey', 'localforage-indexeddb', 10, 10, 1000, 12, 0.1),
    notOk(
      'paginate',
      'ref-skip',
      'websql',
      'unsupported',
      'WebSQL (openDatabase) is not available in this browser',
    ),
    notOk(
      'paginate',
      'ref-startkey',
      'websql',
      'unsupported',
      'WebSQL (openDatabase) is not available in this browser',
    ),
    ok('paginate', 'ref-skip', 'localstorage', 10),
    notOk(
      'paginate',
      'ref-startkey',
      'localstorage',
      'timeout',
      'cut off at the 120000 ms time limit after 2 of 6 samples',
    ),
    ok('paginate', 'ref-skip', 'memory', 10, 10, 1000, 4),
    ok('paginate', 'ref-startkey', 'memory', 5, 10, 1000, 4),
  ];
  const cells = findingCells(startkey, [doc('chromium', rows)]);
  const by = (store: string) => cells.find((c) => c.adapter === store);

  it('gives each store its ratio of medians per operation, slower over faster, with its interval and verdict', () => {
    expect(cells.map((c) => [c.adapter, c.verdict])).toEqual([
      ['idb', 'holds'],
      ['dexie', 'reversed'],
      ['sqlite-opfs', 'same'],
      ['localforage-indexeddb', 'undecided'],
      ['websql', 'missing'],
      ['localstorage', 'missing'],
      ['memory', 'undecided'],
    ]);
    const idb = by('idb');
    expect(idb?.point).toBeCloseTo(3, 9);
    expect(idb?.ratio?.lo).toBeGreaterThan(1);
    expect(idb?.ratio?.hi).toBeGreaterThan(3);
    expect(idb?.size).toBe(1000);
    expect(by('dexie')?.ratio?.hi).toBeLessThan(1);
    const same = by('sqlite-opfs')?.ratio;
    expect(same && same.lo >= 0.95 && same.hi <= 1.05).toBe(true);
    const close = by('localforage-indexeddb')?.ratio;
    expect(close && close.lo < 0.95 && close.hi > 1.05).toBe(true);
    // One pass each: nothing to pair, so the interval is from the two medians' own.
    expect(idb?.ratio?.method).toBe('unpaired');
  });

  it('says which row is missing and why: unsupported with its reason, timeout with its reason', () => {
    expect(by('websql')?.why).toBe(
      'ref-skip is unsupported: WebSQL (openDatabase) is not available in this browser',
    );
    expect(by('localstorage')?.why).toBe(
      'ref-startkey is timeout: cut off at the 120000 ms time limit after 2 of 6 samples',
    );
    expect(by('websql')?.ratio).toBeNull();
  });

  it('has no interval for a row of fewer than 6 samples, and says so: undecided', () => {
    const memory = by('memory');
    expect(memory?.ratio).toBeNull();
    expect(memory?.point).toBeCloseTo(2, 9);
    expect(memory?.why).toBe('too few samples (4)');
  });

  it('says each in a sentence: the claim, the ratio, its interval, where, and the verdict', () => {
    const sentence = (store: string) =>
      findingSentence(startkey, by(store) as NonNullable<ReturnType<typeof by>>);
    expect(sentence('idb')).toMatch(
      /^startkey paging is 3\.00× \[\d\.\d\d, \d\.\d\d\] faster than skip\/limit paging on idb in chromium: holds$/,
    );
    expect(sentence('dexie')).toMatch(
      /^startkey paging is 0\.500× \[0\.\d+, 0\.\d+\] as fast as skip\/limit paging \(skip\/limit paging is 2\.00× faster\) on dexie in chromium: reversed$/,
    );
    expect(sentence('websql')).toBe(
      'startkey paging against skip/limit paging on websql in chromium: missing (ref-skip is unsupported: WebSQL (openDatabase) is not available in this browser)',
    );
    expect(sentence('memory')).toBe(
      'startkey paging is 2.00× faster than skip/limit paging on memory in chromium: undecided: too few samples (4)',
    );
  });

  it('lists a store the plan asked for but that has no row, as missing, and leaves out a finding the plan did not ask for', () => {
    const cancelled = doc('firefox', [ok('paginate', 'ref-skip', 'idb', 30)], {
      adapters: ['idb', 'dexie'],
    });
    expect(findingCells(startkey, [cancelled]).map((c) => [c.adapter, c.verdict, c.why])).toEqual([
      ['idb', 'missing', 'ref-startkey did not run at 1,000 documents'],
      ['dexie', 'missing', 'ref-skip did not run'],
    ]);
    const bulk = PAIR_FINDINGS.find((f) => f.id === 'bulk-over-serial') as Finding;
    expect(findingCells(bulk, [cancelled])).toEqual([]);
    const onlySkip = doc('firefox', [ok('paginate', 'ref-skip', 'idb', 30)], {
      cases: ['ref-skip'],
    });
    expect(findingCells(startkey, [onlySkip])[0]?.why).toBe('ref-startkey was not in the plan');
  });

  it('reads both rows at the largest size either has, so it never sets one size against another', () => {
    const sizes = doc(
      'chromium',
      [
        ok('paginate', 'ref-skip', 'idb', 30, 10, 100),
        ok('paginate', 'ref-startkey', 'idb', 10, 10, 100),
        ok('paginate', 'ref-skip', 'idb', 90, 10, 1000),
      ],
      { sizes: [100, 1000] },
    );
    expect(findingCells(startkey, [sizes]).map((c) => [c.size, c.verdict, c.why])).toEqual([
      [1000, 'missing', 'ref-startkey did not run at 1,000 documents'],
    ]);
  });

  it('takes shards of one browser together, and runs of one browser that measured the same rows apart', () => {
    const shards = [
      doc('chromium', [rows[0] as CaseResult], {}, 'a'),
      doc('chromium', [rows[1] as CaseResult], {}, 'b'),
    ];
    expect(findingCells(startkey, shards).map((c) => [c.browser, c.adapter, c.verdict])).toEqual([
      ['chromium', 'idb', 'holds'],
    ]);
    const twice = [
      doc('chromium', rows.slice(0, 2), {}, 'a'),
      doc('chromium', rows.slice(0, 2), {}, 'b'),
    ];
    expect(findingCells(startkey, twice).map((c) => c.browser)).toEqual([
      'chromium (a)',
      'chromium (b)',
    ]);
  });
});

describe('findings - paired by pass', () => {
  /** A row sampled in 9 passes, 3 samples each: each pass moves both rows of a store alike (a launch), by up to ±20%. */
  function passes(kase: string, ms: number, noise: number): CaseResult {
    const launch = [1, 1.2, 0.85, 1.1, 0.8, 1.15, 0.9, 1.05, 0.95];
    const samples = launch.flatMap((f, p) =>
      [0, 1, 2].map((i) => ms * f * (1 + (((p * 3 + i) % 5) - 2) * noise)),
    );
    const row = ok('paginate', kase, 'idb', ms);
    return {
      ...row,
      samples,
      samplesPerPass: launch.map(() => 3),
      stats: summarize(
        samples,
        launch.map(() => 3),
      ),
    } as CaseResult;
  }

  it('takes the interval over the passes both rows sampled in, which cancels what each pass did to both', () => {
    const rows = [passes('ref-skip', 30, 0.01), passes('ref-startkey', 10, 0.012)];
    const [cell] = findingCells(startkey, [doc('chromium', rows)]);
    expect(cell?.ratio?.method).toBe('paired');
    expect(cell?.ratio?.passes).toBe(9);
    expect(cell?.verdict).toBe('holds');
    // The launches move each median by ±20%; the ratio within a pass hardly moves.
    const unpaired = ratioOfMedians(perOperation(rows[1] as never), perOperation(rows[0] as never));
    const width = (r: { lo: number; hi: number }) => Math.log(r.hi / r.lo);
    expect(width(cell!.ratio!)).toBeLessThan(Math.log(1.05));
    expect(width(unpaired!)).toBeGreaterThan(width(cell!.ratio!) * 3);
    const line = doc('chromium', rows).findings?.find((l) => l.finding === 'startkey-over-skip');
    expect(line).toMatchObject({ method: 'paired', passes: 9, verdict: 'holds' });
  });
});

describe('findings - the default plan', () => {
  const rows = [
    ok('paginate', 'ref-skip', 'idb', 30),
    ok('paginate', 'ref-startkey', 'idb', 10),
    ok('paginate', 'ref-skip', 'indexeddb-raw', 20),
    ok('paginate', 'ref-startkey', 'indexeddb-raw', 8),
    ok('paginate', 'ref-skip', 'dexie', 40),
    ok('paginate', 'ref-startkey', 'dexie', 7.9),
    notOk('paginate', 'ref-skip', 'websql', 'unsupported', 'no openDatabase'),
    notOk('paginate', 'ref-startkey', 'websql', 'unsupported', 'no openDatabase'),
  ];
  const checked = checkDefaultFindings([doc('chromium', rows)]);
  const cellsOf = (topic: string) =>
    checked.filter((c) => (c.finding.topic ?? c.finding.id) === topic);

  it('checks only the findings whose rows the plan asked for, in the order of its topics', () => {
    expect([...new Set(checked.map((c) => c.finding.topic ?? c.finding.id))]).toEqual([
      'startkey-over-skip',
      'fastest',
      'over-raw',
    ]);
    expect(FINDING_TOPICS.map((t) => t.id)).toEqual([
      'bulk-over-serial',
      'batch-over-serial-get',
      'startkey-over-skip',
      'index-over-scan',
      'persisted-over-temp',
      'warm-over-cold',
      'fastest',
      'over-raw',
    ]);
  });

  it('names the fastest store of each case and its factor to the next fastest, same when they are alike', () => {
    const fastest = cellsOf('fastest');
    expect(
      fastest.map((c) => [
        c.finding.id,
        c.finding.store,
        c.finding.names?.slower,
        c.cells[0]?.verdict,
      ]),
    ).toEqual([
      ['fastest:paginate/ref-skip', 'indexeddb-raw', 'idb', 'holds'],
      ['fastest:paginate/ref-startkey', 'dexie', 'indexeddb-raw', 'same'],
    ]);
    expect(fastest[0]?.cells[0]?.point).toBeCloseTo(1.5, 9);
  });

  it('sets every other store against raw IndexedDB, per case, naming the direction, a missing one with its reason', () => {
    const skip = cellsOf('over-raw').filter((c) => c.finding.slower.case === 'ref-skip');
    expect(skip.map((c) => [c.finding.store, c.cells[0]?.verdict])).toEqual([
      ['idb', 'slower'],
      ['dexie', 'slower'],
      ['websql', 'missing'],
    ]);
    const startkey = cellsOf('over-raw').filter((c) => c.finding.slower.case === 'ref-startkey');
    expect(startkey.map((c) => [c.finding.store, c.cells[0]?.verdict])).toEqual([
      ['idb', 'slower'],
      ['dexie', 'same'],
      ['websql', 'missing'],
    ]);
    const raw = startkey[1]?.cells[0];
    expect(raw && findingSentence(startkey[1]!.finding, raw)).toMatch(
      /^dexie is 1\.01× \[\d\.\d+, \d\.\d+\] faster than raw IndexedDB at paginate ref-startkey in chromium: same$/,
    );
    expect(skip[0]?.cells[0]?.point).toBeCloseTo(1.5, 9);
    expect(skip[2]?.cells[0]?.why).toBe('websql ref-skip is unsupported: no openDatabase');
  });

  it('is in the results document as `findings`, which a reader accepts and which the rows give again', () => {
    const d = doc('chromium', rows);
    expect(d.findings).toEqual(runFindings([d]));
    const line = d.findings?.find((l) => l.finding === 'startkey-over-skip' && l.store === 'idb');
    expect(line).toMatchObject({
      topic: 'startkey-over-skip',
      claim: 'startkey paging is faster than skip/limit paging',
      browser: 'chromium',
      size: 1000,
      verdict: 'holds',
      why: null,
    });
    expect(line?.ratio).toBeCloseTo(3, 9);
    expect(line?.text).toMatch(/^startkey paging is 3\.00× \[/);
    const read = validateResults(JSON.parse(JSON.stringify(d)));
    expect(read.findings).toEqual(d.findings);
    // A reader recomputes them from the rows, as it does the statistics: an edited file, or one from before them, reads the same.
    const edited = JSON.parse(JSON.stringify(d)) as ResultsFile;
    edited.findings = edited.findings?.map((l) => ({
      ...l,
      verdict: 'reversed' as const,
      ratio: 0.5,
    }));
    expect(validateResults(edited).findings).toEqual(d.findings);
    const { findings: _none, ...older } = JSON.parse(JSON.stringify(d)) as ResultsFile;
    expect(validateResults(older).findings).toEqual(d.findings);
    expect(
      d.findings?.find((l) => l.store === 'websql' && l.finding === 'startkey-over-skip'),
    ).toMatchObject({
      verdict: 'missing',
      ratio: null,
      lo: null,
      hi: null,
      why: 'ref-skip is unsupported: no openDatabase',
    });
  });
});

describe('findings - an A/B run is told once', () => {
  it("leaves the pair's own rows to the A/B verdict: no fastest-store finding on A against B", () => {
    const rows = [
      ok('insert', 'bulk', 'keyval', 10),
      ok('insert', 'bulk', 'keyval@6.2.1', 10.1),
      ok('insert', 'serial', 'keyval', 30),
      ok('insert', 'serial', 'keyval@6.2.1', 29),
    ];
    const plan = { suites: ['insert'], cases: ['serial', 'bulk'], ab: { thresholdPct: 5 } };
    const ab = checkDefaultFindings([doc('chromium', rows, plan)]);
    expect(ab.filter((c) => c.finding.topic === 'fastest')).toEqual([]);
    // Each store's own pair (a bulk write against one at a time) still says what it found.
    expect(ab.map((c) => c.finding.id)).toContain('bulk-over-serial');
    // The same rows without --ab: the fastest store of each case is named.
    const plain = checkDefaultFindings([doc('chromium', rows, { ...plan, ab: undefined })]);
    expect(plain.filter((c) => c.finding.topic === 'fastest')).toHaveLength(2);
  });
});
