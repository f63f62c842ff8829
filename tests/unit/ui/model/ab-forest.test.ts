// The forest plot's model of an A/B run (src/ui/model/ab-forest.ts) and the page's choices of A
// and B (src/ui/model/ab-choices.ts), on documents built by the same resultsDocument() as the page's.
import { describe, expect, it } from 'vitest';
import { abDecision, abRows, judgeAb } from '../../../../src/core/verdicts/ab.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_AUTO, DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import { resultsDocument } from '../../../../src/core/results/document.ts';
import type { CaseResult, ResultsFile } from '../../../../src/core/results/results.ts';
import { summarize } from '../../../../src/core/stats/stats.ts';
import {
  abForests,
  axisAt,
  forestAxis,
  forestTicks,
  LAUNCH_PHRASES,
  scopedLine,
  times,
} from '../../../../src/ui/model/ab-forest.ts';
import { abChoices, INSTRUMENT_PERCENTS } from '../../../../src/ui/model/ab-choices.ts';
import { nodeEnvironment } from '../../helpers/runner-doc.ts';

/** One sample per pass: A takes 10 ms in every pass, B 10 × each factor. */
interface Pair {
  case: string;
  b: number[];
}

function row(kase: string, adapter: string, samples: number[]): CaseResult {
  return {
    suite: 'insert',
    case: kase,
    title: kase,
    adapter,
    size: 50,
    params: {},
    operations: 50,
    status: 'ok',
    reason: null,
    samples,
    warmup: [],
    samplesPerPass: samples.map(() => 1),
    stats: summarize(samples),
  };
}

function abDoc(
  browser: string,
  pairs: Pair[],
  opts: {
    runId?: string;
    thresholdPct?: number;
    launches?: number;
    adapters?: [string, string];
  } = {},
): ResultsFile {
  const [a, b] = opts.adapters ?? ['memory', 'idb'];
  const plan: Plan = {
    ...DEFAULT_PLAN,
    suites: ['insert'],
    adapters: [a, b],
    // One look: the fixtures' intervals are one-look t intervals over their passes.
    auto: { ...DEFAULT_AUTO, looks: 1 },
    budgetMs: 12_000,
    ab: { thresholdPct: opts.thresholdPct ?? 5 },
  };
  const cases = pairs.flatMap((p) => [
    row(
      p.case,
      a,
      p.b.map(() => 10),
    ),
    row(
      p.case,
      b,
      p.b.map((f) => 10 * f),
    ),
  ]);
  const doc = resultsDocument({
    runId: opts.runId ?? 'run-1',
    browser,
    plan,
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:01:00.000Z',
    environment: nodeEnvironment(),
    output: { cases, order: [], cancelled: false },
    harness: { version: 'test', commit: 'test' },
  });
  return opts.launches ? { ...doc, run: { ...doc.run, launches: opts.launches } } : doc;
}

const SLOW = [1.3, 1.31, 1.29, 1.3, 1.32, 1.3];
const SAME = [1.0, 1.01, 0.99, 1.0, 1.01, 0.99];
/** Beyond ×1.05 and shown slower alone (one-sided p near 0.04 against no change): not small enough for Holm over six rows. */
const MARGINAL = [1.04, 1.14, 1.09];

describe('A/B forest - runs and lines', () => {
  it('draws one forest per A/B run, its browsers side by side, and leaves out documents of other plans', () => {
    const chromium = abDoc('chromium', [
      { case: 'bulk', b: SLOW },
      { case: 'serial', b: SAME },
    ]);
    const firefox = abDoc('firefox', [
      { case: 'bulk', b: SLOW },
      { case: 'serial', b: SAME },
    ]);
    const other = abDoc('chromium', [{ case: 'bulk', b: SAME }], { runId: 'run-2' });
    const plain = {
      ...chromium,
      run: { ...chromium.run, id: 'plain', plan: { ...chromium.run.plan, ab: undefined } },
    };
    const forests = abForests([chromium, firefox, other, plain]);
    expect(forests.map((f) => [f.runId, f.browsers])).toEqual([
      ['run-1', ['chromium', 'firefox']],
      ['run-2', ['chromium']],
    ]);
    const [run1] = forests;
    // One line per row and browser, a case's browsers next to each other.
    expect(run1?.lines.map((l) => `${l.row} ${l.browser}`)).toEqual([
      'insert/bulk chromium',
      'insert/bulk firefox',
      'insert/serial chromium',
      'insert/serial firefox',
    ]);
    expect(run1?.lines.map((l) => l.verdict)).toEqual(['slower', 'slower', 'same', 'same']);
    expect(new Set(run1?.lines.map((l) => l.key)).size).toBe(4);
    expect(run1?.a).toBe('memory');
    expect(run1?.b).toBe('idb');
  });

  it('gives each line the ratio and interval abRows gives, and marks as failing exactly the rows slower over the family', () => {
    const docs = [
      abDoc('chromium', [
        { case: 'bulk', b: SLOW },
        { case: 'serial', b: MARGINAL },
        { case: 'get', b: SAME },
      ]),
      abDoc('firefox', [
        { case: 'bulk', b: SAME },
        { case: 'serial', b: SAME },
        { case: 'get', b: SAME },
      ]),
    ];
    const [forest] = abForests(docs);
    const decision = abDecision(docs.flatMap(abRows), 5);
    const rows = decision.rows;
    expect(forest?.decision.code).toBe(decision.code);
    expect(forest?.line).toBe(scopedLine(decision.line, 'one-launch'));
    // The fixture means what it says: shown slower alone, not over six rows.
    const marginal = rows.find((r) => r.case === 'serial' && r.browser === 'chromium');
    expect(judgeAb([marginal!], 5)[0]?.verdict).toBe('slower');
    expect(marginal?.verdict).toBe('undecided');
    expect(marginal?.pSlower).toBeGreaterThan(0.05 / 5);
    expect(marginal?.pSlower).toBeLessThan(0.05);
    for (const line of forest?.lines ?? []) {
      const r = rows.find((x) => x.browser === line.browser && `${x.suite}/${x.case}` === line.row);
      expect(line.ratio).toEqual(
        r?.ratio
          ? { ratio: r.ratio.ratio, lo: r.ratio.lo, hi: r.ratio.hi, passes: r.ratio.passes }
          : null,
      );
      expect(line.fails).toBe(r?.verdict === 'slower');
      // A row shown slower caught its slowdown: it shows none it could have caught.
      expect(line.detectable).toBe(r?.verdict === 'slower' ? null : r?.detectable);
    }
    const byName = (row: string, browser: string) =>
      forest?.lines.find((l) => l.row === row && l.browser === browser);
    expect(byName('insert/bulk', 'chromium')).toMatchObject({ verdict: 'slower', fails: true });
    expect(byName('insert/serial', 'chromium')).toMatchObject({
      verdict: 'undecided',
      fails: false,
    });
    expect(byName('insert/serial', 'chromium')?.detectable).toBeGreaterThan(1.09);
    expect(byName('insert/get', 'firefox')).toMatchObject({
      verdict: 'same',
      fails: false,
    });
    expect(forest?.decision.line).toMatch(/^FAIL: 1 row of idb slower than memory/);
  });

  it('says why a row has no interval, and draws none for it', () => {
    const doc = abDoc('chromium', [
      { case: 'bulk', b: [1.3] },
      { case: 'serial', b: SAME },
    ]);
    const [forest] = abForests([doc]);
    const bulk = forest?.lines.find((l) => l.row === 'insert/bulk');
    expect(bulk).toMatchObject({
      ratio: null,
      at: null,
      verdict: 'undecided',
      detectable: null,
      why: 'too few passes with samples on both sides for an interval',
    });
  });
});

describe('A/B forest - where the passes ran', () => {
  it("rewords the verdict line for a page's run, whose passes share one launch, and leaves a sweep's as it is", () => {
    const page = abForests([abDoc('chromium', [{ case: 'bulk', b: SLOW }])])[0];
    expect(page?.oneLaunch).toEqual(['chromium']);
    expect(page?.line).toContain('95% intervals over passes in one browser launch');
    expect(page?.line).not.toContain('over launches');
    const sweep = abForests([
      abDoc('chromium', [{ case: 'bulk', b: SLOW }], { launches: 6 }),
      abDoc('firefox', [{ case: 'bulk', b: SLOW }], { launches: 6 }),
    ])[0];
    expect(sweep?.oneLaunch).toEqual([]);
    expect(sweep?.line).toBe(sweep?.decision.line);
    const mixed = abForests([
      abDoc('chromium', [{ case: 'bulk', b: SLOW }], { launches: 6 }),
      abDoc('firefox', [{ case: 'bulk', b: SLOW }]),
    ])[0];
    expect(mixed?.oneLaunch).toEqual(['firefox']);
    expect(mixed?.line).not.toContain(LAUNCH_PHRASES.intervals);
  });

  it('leaves out of the decision a case neither store can run, and says so', () => {
    const doc = abDoc('chromium', [
      { case: 'bulk', b: SAME },
      { case: 'serial', b: SAME },
    ]);
    const unsupported = (c: ResultsFile['cases'][number]): ResultsFile['cases'][number] => ({
      suite: c.suite,
      case: c.case,
      title: c.title,
      adapter: c.adapter,
      size: c.size,
      params: c.params,
      operations: c.operations,
      status: 'unsupported',
      reason: 'needs mapReduce',
      samples: [],
      warmup: [],
    });
    // Two cases of the pair, and two more neither store runs: without them the run is decided (2 same).
    const withViews = {
      ...doc,
      cases: [...doc.cases, ...doc.cases.map((c) => unsupported({ ...c, case: `${c.case}-view` }))],
    };
    const rows = abRows(withViews);
    expect(rows.filter((r) => r.neither)).toHaveLength(2);
    const decision = abDecision(rows, 5);
    expect(decision.code).toBe(0);
    expect(decision.line).toContain('2 rows compared: 0 slower, 0 faster, 2 same, 0 undecided');
    expect(decision.line).toContain('2 cases neither store can run, not compared');
    // One side unsupported is a row that did not compare: it stays undecided and counts.
    const oneSide = { ...doc, cases: [...doc.cases.slice(0, 3), unsupported(doc.cases[3]!)] };
    expect(abDecision(abRows(oneSide), 5).tally.undecided).toBe(1);
  });

  it("finds the phrases it rewords in abDecision's own lines, so a change of wording there fails here", () => {
    const rows = abRows(abDoc('chromium', [{ case: 'bulk', b: SAME }]));
    const ok = abDecision(rows, 5).line;
    // Asked to catch 10% (--detect), three passes this scattered cannot: the line says what would.
    const undecided = abDecision(
      abRows(abDoc('chromium', [{ case: 'bulk', b: [0.9, 1.12, 1.0] }])),
      5,
      10,
    ).line;
    expect(ok).toMatch(/^PASS:/);
    expect(undecided).toMatch(/^UNDECIDED:/);
    for (const line of [ok, undecided]) expect(line).toContain(LAUNCH_PHRASES.intervals);
    expect(undecided).toContain(LAUNCH_PHRASES.budget);
    expect(undecided).toContain(LAUNCH_PHRASES.passes);
    const page = scopedLine(undecided, 'one-launch');
    expect(page).toContain('the setting passes:10');
    expect(page).not.toContain('launch of its own');
    expect(page).not.toContain('--');
  });
});

describe('A/B forest - axis', () => {
  it('puts ×1 and the ±threshold band where the log scale says, and every point inside', () => {
    const axis = forestAxis(
      [
        { ratio: 1.3, lo: 1.25, hi: 1.35 },
        { ratio: 0.98, lo: 0.96, hi: 1.01 },
      ],
      5,
    );
    expect(axis.min).toBeLessThan(0.95);
    expect(axis.max).toBeGreaterThan(1.35);
    expect(axis.one).toBeCloseTo(Math.log(1 / axis.min) / Math.log(axis.max / axis.min), 12);
    expect(axis.band.lo).toBeCloseTo(axisAt(0.95, axis), 12);
    expect(axis.band.hi).toBeCloseTo(axisAt(1.05, axis), 12);
    // A margin on each side: nothing sits on the edge.
    expect(axisAt(0.95, axis)).toBeGreaterThan(0.02);
    expect(axisAt(1.35, axis)).toBeLessThan(0.98);
  });

  it('cuts an interval that reaches far past the points and marks its cut ends, so the other lines keep their width', () => {
    const docs = [
      abDoc('chromium', [
        { case: 'bulk', b: [1.2, 40, 0.05] },
        { case: 'serial', b: SLOW },
      ]),
    ];
    const [forest] = abForests(docs);
    const wild = forest?.lines.find((l) => l.row === 'insert/bulk');
    expect(wild?.ratio?.hi).toBeGreaterThan(1000);
    expect(wild?.at).toMatchObject({ lo: 0, hi: 1, loCut: true, hiCut: true });
    // The axis reaches at most as far again as the points and band span, and at least ×2.
    const core = {
      min: Math.min(0.95, wild!.ratio!.ratio, 1.3),
      max: Math.max(1.05, wild!.ratio!.ratio, 1.3),
    };
    const reach = Math.max(core.max / core.min, 2);
    expect(forest!.axis.max).toBeLessThanOrEqual(core.max * reach * 1.5);
    const slow = forest?.lines.find((l) => l.row === 'insert/serial');
    expect(slow?.at?.loCut).toBe(false);
    expect((slow?.at?.hi ?? 0) - (slow?.at?.lo ?? 0)).toBeGreaterThan(0);
  });

  it('labels round values, ×1 among them, majors far enough apart for a phone and the rest for a wider plot', () => {
    for (const [min, max] of [
      [0.9, 1.12],
      [0.5, 40],
      [0.93, 300],
      [0.01, 2],
    ] as const) {
      const ticks = forestTicks(min, max);
      expect(ticks.map((t) => t.value)).toEqual(
        [...ticks.map((t) => t.value)].sort((x, y) => x - y),
      );
      expect(ticks.some((t) => t.value === 1 && t.major)).toBe(true);
      const majors = ticks.filter((t) => t.major);
      expect(majors.length).toBeGreaterThanOrEqual(2);
      for (const [i, t] of ticks.entries()) {
        expect(t.at).toBeGreaterThanOrEqual(0);
        expect(t.at).toBeLessThanOrEqual(1);
        expect(t.label).toMatch(/^×\d+(\.\d+)?$/);
        if (i > 0) expect(t.at - ticks[i - 1]!.at).toBeGreaterThanOrEqual(0.1 - 1e-9);
      }
      for (const [i, t] of majors.entries())
        if (i > 0) expect(t.at - majors[i - 1]!.at).toBeGreaterThanOrEqual(0.2 - 1e-9);
    }
    expect(forestTicks(0.9, 1.12).map((t) => t.label)).toEqual([
      '×0.9',
      '×0.95',
      '×1',
      '×1.05',
      '×1.1',
    ]);
  });

  it('writes ratios to three decimals below ×10, then fewer', () => {
    expect([0.9512, 1.05, 12.345, 250.4].map(times)).toEqual(['×0.951', '×1.050', '×12.3', '×250']);
  });
});

describe('A/B choices', () => {
  const stores = [
    { id: 'idb', label: 'idb' },
    { id: 'memory', label: 'In memory' },
  ];

  it('offers every store, and for B the instrument over A only where the registry builds it', () => {
    const none = abChoices(stores, 'idb', () => false);
    expect(none.map((c) => c.value)).toEqual(['idb', 'memory']);
    const built = abChoices(stores, 'idb', (id) => /^idb@\+\d+%$/.test(id));
    expect(built.filter((c) => c.group === 'instrument').map((c) => c.value)).toEqual(
      INSTRUMENT_PERCENTS.map((n) => `idb@+${n}%`),
    );
    // A's own list never has instruments.
    expect(abChoices(stores, null, () => true).map((c) => c.value)).toEqual(['idb', 'memory']);
  });

  it('keeps an id a link named, even one the list does not offer', () => {
    const kept = abChoices(stores, 'idb', () => false, ['idb@+7%']);
    expect(kept.at(-1)).toEqual({ value: 'idb@+7%', text: 'idb@+7%', group: 'instrument' });
    expect(
      abChoices(stores, null, () => false, ['memory']).filter((c) => c.value === 'memory'),
    ).toHaveLength(1);
  });
});
