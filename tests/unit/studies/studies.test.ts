import { describe, expect, it } from 'vitest';
import { parseSweepArgs } from '../../../src/cli/commands/sweep/args.ts';
import { parseStudyArgs, partArgv, studyList } from '../../../src/cli/commands/study/main.ts';
import { ADAPTER_IDS, ADAPTER_WRAPS } from '../../../src/adapters/registry.ts';
import type { CaseResult, ResultsFile } from '../../../src/core/results/results.ts';
import { planGroups } from '../../../src/core/run/runner.ts';
import { summarize } from '../../../src/core/stats/stats.ts';
import { FIXTURE_IDS } from '../../../fixtures/index.ts';
import { SUITE_IDS, SUITES } from '../../../suites/index.ts';
import { STUDIES, studyById } from '../../../src/studies/index.ts';
import { studyReport } from '../../../src/studies/report.ts';
import { reportHtml } from '../../../src/studies/report-html.ts';
import { reportMarkdown } from '../../../src/studies/report-markdown.ts';
import { verdictOf } from '../../../src/core/verdicts/findings.ts';
import type { Study } from '../../../src/studies/study.ts';
import { sampleResults } from '../../sample-results.ts';

const vocab = {
  suites: SUITE_IDS,
  adapters: ADAPTER_IDS,
  fixtures: FIXTURE_IDS,
  wraps: ADAPTER_WRAPS,
};

describe('studies - definitions', () => {
  it('names the five studies, each with a source to cite', () => {
    expect(STUDIES.map((s) => s.id)).toEqual([
      'pouchdb-2.2',
      'jsonstore',
      'insertion-profile',
      'jofti',
      'persevere',
    ]);
    for (const s of STUDIES) {
      for (const field of ['title', 'author', 'date', 'setup'] as const)
        expect(s.source[field].length, `${s.id} source.${field}`).toBeGreaterThan(3);
      // A source whose page is gone says so.
      if (s.source.url === null) expect(s.source.note, s.id).toMatch(/could not/);
      else expect(s.source.url).toMatch(/^https:\/\//);
    }
    for (const line of STUDIES.map((s) => s.id)) expect(studyList()).toContain(`${line}: `);
  });

  it('gives every published figure a value, a unit, where it stands and what it was measured in', () => {
    const figures = STUDIES.flatMap((s) => [
      ...s.findings.flatMap((f) => f.published),
      ...s.references.flatMap((r) => r.published),
    ]);
    expect(figures.length).toBeGreaterThanOrEqual(30);
    for (const p of figures) {
      expect(p.value).toBeGreaterThan(0);
      expect(['ms', '×']).toContain(p.unit);
      expect(p.where.length).toBeGreaterThan(5);
      expect(p.measuredIn.length).toBeGreaterThan(5);
    }
    const pouch = studyById('pouchdb-2.2')!;
    const persisted = pouch.findings.find((f) => f.id === 'version-persisted')!.published;
    expect(persisted.map((p) => [p.measuredIn, p.value])).toEqual([
      ['Chrome 34, IndexedDB', 61.32],
      ['Firefox 28, IndexedDB', 72.8],
      ['IE 11, IndexedDB', 58.79],
      ['Chrome 34, WebSQL', 10.67],
      ['Safari 6.1, WebSQL', 11.84],
    ]);
    const profile = studyById('insertion-profile')!.references.map((r) => r.published[0]!.value);
    expect(profile).toEqual([2.18, 268.5, 2132.47, 8361.61]);
  });

  it('runs each part, full and quick, as a plan the sweep accepts, with the cases its findings read', () => {
    for (const study of STUDIES) {
      for (const part of study.parts) {
        for (const quick of [false, true]) {
          const argv = partArgv(
            study,
            part.id,
            {
              help: false,
              list: false,
              study,
              quick,
              browsers: null,
              out: 'x',
              reportOnly: false,
              parts: null,
            },
            'out',
            'page',
          );
          const args = parseSweepArgs(argv, vocab, ['chromium']);
          expect(args.plan.study).toBe(`${study.id}/${part.id}`);
          expect(args.page).toBe('page');
          const groups = planGroups(
            args.plan,
            SUITES.filter((s) => args.plan.suites.includes(s.id)),
          );
          const cases = new Set(groups.map((g) => `${g.suite.id}/${g.c.id}`));
          for (const f of study.findings.filter((x) => x.part === part.id && !x.notMeasurable)) {
            for (const ref of [f.slower, f.faster])
              expect(
                [...cases],
                `${study.id}/${part.id} ${quick ? 'quick' : 'full'}: ${ref.suite}/${ref.case}`,
              ).toContain(`${ref.suite}/${ref.case}`);
          }
        }
      }
      for (const f of study.findings)
        expect(
          study.parts.map((p) => p.id),
          `${study.id} ${f.id}`,
        ).toContain(f.part);
    }
  });
});

describe('studies - verdicts come from the interval', () => {
  it('a "faster" claim: holds above 1, reversed below, undecided across, undecided without one', () => {
    const faster = { kind: 'faster' } as const;
    expect(verdictOf(faster, { lo: 1.02, hi: 1.4 })).toBe('holds');
    expect(verdictOf(faster, { lo: 0.5, hi: 0.98 })).toBe('reversed');
    expect(verdictOf(faster, { lo: 0.9, hi: 1.1 })).toBe('undecided');
    expect(verdictOf(faster, null)).toBe('undecided');
  });

  it('an "about" claim: holds inside its band, differs wholly outside, undecided astride an edge', () => {
    const about = { kind: 'about', value: 2, tolerance: 1.5 } as const; // band 1.33 to 3
    expect(verdictOf(about, { lo: 1.5, hi: 2.9 })).toBe('holds');
    expect(verdictOf(about, { lo: 3.2, hi: 4 })).toBe('differs');
    expect(verdictOf(about, { lo: 1, hi: 1.2 })).toBe('differs');
    expect(verdictOf(about, { lo: 1.2, hi: 1.6 })).toBe('undecided');
  });
});

/** A row of `n` samples around `ms`, as a results file holds it. */
function row(
  kase: string,
  adapter: string,
  ms: number,
  extra: Partial<CaseResult> = {},
): CaseResult {
  const samples = Array.from({ length: 12 }, (_, i) => ms * (1 + ((i % 5) - 2) * 0.01));
  return {
    suite: 'paginate',
    case: kase,
    title: kase,
    adapter,
    size: 200,
    params: {},
    operations: 10,
    status: 'ok',
    reason: null,
    samples,
    warmup: [],
    stats: summarize(samples),
    ...extra,
  } as CaseResult;
}

function doc(
  browser: string,
  part: string,
  cases: CaseResult[],
  study = 'pouchdb-2.2',
): ResultsFile {
  const d = sampleResults();
  d.run = {
    ...d.run,
    id: `run-${browser}-${part}`,
    browser,
    plan: { ...d.run.plan, study: `${study}/${part}` },
  };
  d.cases = cases;
  return d;
}

describe('studies - the report', () => {
  const pouch = studyById('pouchdb-2.2') as Study;
  const docs = [
    doc('chromium', 'paging', [
      row('walk-skip', 'pouchdb-idb', 30),
      row('walk-startkey', 'pouchdb-idb', 10),
      row('walk-skip', 'pouchdb-idb@7.3.1', 60),
      row('walk-startkey', 'pouchdb-idb@7.3.1', 12),
    ]),
    doc('firefox', 'paging', [
      row('walk-skip', 'pouchdb-idb', 10),
      row('walk-startkey', 'pouchdb-idb', 20),
      row('walk-skip', 'pouchdb-idb@7.3.1', 5, {
        status: 'unsupported',
        reason: 'no <IndexedDB>',
        samples: [],
      }),
    ]),
    doc(
      'chromium',
      'paging',
      [row('walk-skip', 'idb', 1), row('walk-startkey', 'idb', 2)],
      'jofti',
    ),
  ];
  const report = studyReport(pouch, docs);

  it("checks each finding per browser and store, from that study's files only", () => {
    expect(report.documents).toBe(2);
    const cells = report.findings.find((f) => f.finding.id === 'startkey-beats-skip')!.cells;
    expect(cells.map((c) => [c.browser, c.adapter, c.verdict])).toEqual([
      ['chromium', 'pouchdb-idb', 'holds'],
      ['chromium', 'pouchdb-idb@7.3.1', 'holds'],
      ['firefox', 'pouchdb-idb', 'reversed'],
      ['firefox', 'pouchdb-idb@7.3.1', 'missing'],
    ]);
    expect(cells[0]!.ratio!.ratio).toBeCloseTo(3, 6);
    expect(cells[3]!.why).toBe('walk-skip is unsupported: no <IndexedDB>');
    expect(report.tally.holds).toBe(2);
    // Firefox's 7.3.1 row, and the two paging version findings (2.0.2 against 2.2.0) in both browsers, whose rows these files lack:
    // counted 'not measurable' before a missing row had a verdict of its own.
    expect(report.tally.missing + report.tally['not measurable']).toBe(1 + 2 * 2);
    expect(report.tally.missing).toBe(1 + 2 * 2);
    const versions = report.findings.find((f) => f.finding.id === 'version-alldocs-1')!.cells;
    expect(versions.map((c) => [c.browser, c.adapter, c.verdict, c.why])).toEqual([
      [
        'chromium',
        'pouchdb-idb@2.0.2 → pouchdb-idb@2.2.0',
        'missing',
        'pouchdb-idb@2.0.2 walk-skip did not run',
      ],
      [
        'firefox',
        'pouchdb-idb@2.0.2 → pouchdb-idb@2.2.0',
        'missing',
        'pouchdb-idb@2.0.2 walk-skip did not run',
      ],
    ]);
  });

  it('measures the published version factors on the nearest published pair, 2.0.2 against 2.2.0, and tables both pairs of versions', () => {
    const withOld = [
      ...docs.slice(0, 1),
      doc('chromium', 'views', [
        row('temp', 'pouchdb-idb@2.0.2', 10, { suite: 'views' }),
        row('temp', 'pouchdb-idb@2.2.0', 40, { suite: 'views' }),
        row('persisted', 'pouchdb-idb@2.0.2', 100, { suite: 'views' }),
        row('persisted', 'pouchdb-idb@2.2.0', 5, {
          suite: 'views',
          status: 'error',
          reason: 'ReferenceError: emit is not defined',
          samples: [],
        }),
      ]),
    ];
    withOld[0] = doc('chromium', 'paging', [
      ...docs[0]!.cases,
      row('walk-skip', 'pouchdb-idb@2.0.2', 90),
      row('walk-skip', 'pouchdb-idb@2.2.0', 30),
    ]);
    const r = studyReport(pouch, withOld);
    const cell = (id: string) => r.findings.find((f) => f.finding.id === id)!.cells;
    // walk-skip: 2.2.0 took a third of 2.0.2's time, as the published factors say it got faster.
    expect(cell('version-alldocs-1').map((c) => [c.browser, c.adapter, c.verdict])).toEqual([
      ['chromium', 'pouchdb-idb@2.0.2 → pouchdb-idb@2.2.0', 'holds'],
    ]);
    expect(cell('version-alldocs-1')[0]!.ratio!.ratio).toBeCloseTo(3, 6);
    // Temporary views: the published factors say 2.2.0 got slower, and so it is here.
    expect(cell('version-temp').map((c) => [c.adapter, c.verdict])).toEqual([
      ['pouchdb-idb@2.2.0 → pouchdb-idb@2.0.2', 'holds'],
    ]);
    // A row the browser failed names the browser's error.
    expect(cell('version-persisted').map((c) => c.why)).toEqual([
      'pouchdb-idb@2.2.0 persisted is error: ReferenceError: emit is not defined',
    ]);
    const table = r.versions
      .filter((v) => v.case === 'walk-skip')
      .map((v) => [v.older, v.newer, Number(v.ratio!.ratio.toFixed(6))]);
    expect(table).toEqual([
      ['2.0.2', '2.2.0', 3],
      ['7.3.1', 'current', 2],
    ]);
    expect(reportMarkdown(r)).toContain(
      'pouchdb-idb@2.0.2 walk-skip ÷ pouchdb-idb@2.2.0 walk-skip, per operation > 1',
    );
  });

  it('names the failure of a version the study could not build, instead of "not measurable" alone', () => {
    const failures = {
      'pouchdb-idb@2.0.2': 'could not be built: [plugin storebench-variants] Unexpected token',
    };
    const r = studyReport(pouch, docs, failures);
    const cells = r.findings.find((f) => f.finding.id === 'version-persisted')!.cells;
    expect(cells).toEqual([
      {
        browser: 'every browser',
        adapter: 'pouchdb-idb@2.0.2 → pouchdb-idb@2.2.0',
        verdict: 'not measurable',
        ratio: null,
        why: 'pouchdb-idb@2.0.2 could not be built: [plugin storebench-variants] Unexpected token',
      },
    ]);
    expect(reportMarkdown(r)).toContain(
      'pouchdb-idb@2.0.2 could not be built: [plugin storebench-variants] Unexpected token',
    );
  });

  it('gives the change in speed between versions, above 1 when the newer one is faster', () => {
    const skip = report.versions.find((v) => v.case === 'walk-skip' && v.browser === 'chromium')!;
    expect([skip.store, skip.older]).toEqual(['pouchdb-idb', '7.3.1']);
    expect(skip.ratio!.ratio).toBeCloseTo(2, 6);
    expect(skip.ratio!.lo).toBeGreaterThan(1);
  });

  it("writes HTML that shows a file's text and never runs it, and Markdown whose cells stay cells", () => {
    const hostile = doc('chromium<script>alert(1)</script>', 'paging', [
      row('walk-skip', 'a|b\nc', 30),
      row('walk-startkey', 'a|b\nc', 10),
    ]);
    const html = reportHtml(studyReport(pouch, [hostile]));
    expect(html).not.toContain('<script>');
    expect(html).toContain('chromium&#60;script&#62;');
    expect(html).toContain('61.32×');
    const md = reportMarkdown(studyReport(pouch, [hostile]));
    expect(md).toContain('| a\\|b c |');
  });
});

describe('studies - distribution and growth', () => {
  it('summarises every sample of the histogram part, and compares the last batches of a growth row with the first', () => {
    const profile = studyById('insertion-profile') as Study;
    const hist = {
      ...row('parallel', 'idb', 100),
      suite: 'insert',
      samples: Array.from({ length: 100 }, (_, i) => 100 + i),
    };
    // 20 batches: the first 10 take 10 ms, the last 10 take 20 ms.
    const batches: [number, number][] = Array.from({ length: 20 }, (_, i) => [
      (i + 1) * 1000,
      i < 10 ? 10 + (i % 3) * 0.1 : 20 + (i % 3) * 0.1,
    ]);
    const growth = {
      ...row('batches', 'idb', 1),
      suite: 'growth',
      samples: [300],
      stats: summarize([300]),
      series: { x: 'documents', y: 'ms', samples: [batches] },
    } as CaseResult;
    const report = studyReport(profile, [
      doc('chromium', 'histogram', [hist], 'insertion-profile'),
      doc('chromium', 'growth', [growth], 'insertion-profile'),
    ]);
    expect(report.distribution).toEqual([
      {
        browser: 'chromium',
        adapter: 'idb',
        size: 200,
        n: 100,
        min: 100,
        p25: 124.75,
        median: 149.5,
        p75: 174.25,
        p95: 194.05,
        max: 199,
      },
    ]);
    expect(report.growth).toHaveLength(1);
    const g = report.growth[0]!;
    expect([g.batches, g.reached]).toEqual([20, 20000]);
    expect(g.ratio!.ratio).toBeCloseTo(2, 1);
    expect(g.ratio!.lo).toBeGreaterThan(1.8);
    expect(reportMarkdown(report)).toContain('| chromium | idb | 20 | 20000 |');
  });
});

describe('studies - the command line', () => {
  it('takes one known study, or --list', () => {
    expect(parseStudyArgs(['pouchdb-2.2', '--quick']).study?.id).toBe('pouchdb-2.2');
    expect(parseStudyArgs(['--list']).list).toBe(true);
    expect(() => parseStudyArgs(['nope'])).toThrow(
      'unknown study "nope"; allowed: pouchdb-2.2, jsonstore, insertion-profile, jofti, persevere',
    );
    expect(() => parseStudyArgs([])).toThrow('give one study name');
    expect(() => parseStudyArgs(['jofti', '--report-only', '--quick'])).toThrow(
      '--report-only runs nothing',
    );
    expect(parseStudyArgs(['pouchdb-2.2', '--parts', 'views,paging']).parts).toEqual([
      'views',
      'paging',
    ]);
    expect(() => parseStudyArgs(['jofti', '--browsers', 'chromium,nosuch'])).toThrow(
      '--browsers: unknown "nosuch"; allowed: chromium, chromium-headless-shell, firefox, webkit',
    );
    expect(() => parseStudyArgs(['pouchdb-2.2', '--parts', 'views,nope'])).toThrow(
      '--parts: unknown "nope"; pouchdb-2.2 has paging, inserts, views',
    );
  });
});
