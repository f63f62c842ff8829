import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NO_BETWEEN_RUNS } from '../../../../src/core/stats/between-runs.ts';
import {
  compareResults as compareWith,
  parseThreshold,
} from '../../../../src/core/verdicts/compare.ts';

/** compare's own statistics, on the two files alone: the scatter between runs here is tested in core/stats/between-runs.test.ts. */
const compareResults = (
  base: readonly ResultsFile[],
  next: readonly ResultsFile[],
  thresholdPct?: number,
) => compareWith(base, next, thresholdPct, NO_BETWEEN_RUNS);
import { parseResultsInput } from '../../../../src/core/results/input.ts';
import type { ResultsFile } from '../../../../src/core/results/results.ts';
import { medianCi, medianRatio, summarize } from '../../../../src/core/stats/stats.ts';
import { DEFAULT_GATE, gate, parseMinCompared } from '../../../../src/core/verdicts/gate.ts';
import { ResultsError } from '../../../../src/core/results/results.ts';
import { compareCommand } from '../../../../src/cli/commands/compare.ts';
import { formatComparison } from '../../../../src/cli/terminal/comparison-text.ts';
import { sampleResults } from '../../../sample-results.ts';

/** The sample results with the idb row's samples replaced (stats recomputed, so the file stays valid). */
function withSamples(samples: number[], change: (r: ResultsFile) => void = () => {}): ResultsFile {
  const r = sampleResults();
  const row = r.cases[0]!;
  if (row.status !== 'ok') throw new Error('sample row 0 is ok');
  row.samples = samples;
  row.stats = summarize(samples);
  change(r);
  return r;
}

/** Ten samples around 10 ms, spread ±5%: a row measured well. */
const BASE = [9.6, 10.2, 9.9, 10.4, 10, 9.7, 10.1, 10.3, 9.8, 10];
const slower = (factor: number) => BASE.map((x) => x * factor);

/** runCompare over in-memory files, as the CLI would read them from disk. */
function cli(files: Record<string, unknown>, ...args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = compareCommand(
    args,
    { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
    (path: string) => {
      if (!(path in files)) throw new ResultsError(`${path}: no such file`);
      const v = files[path];
      return typeof v === 'string' ? v : JSON.stringify(v);
    },
  );
  return { code, stdout, stderr };
}

describe('compare - per case', () => {
  it("samples 20% slower are slower: the median ratio, with the interval built from both medians' intervals", () => {
    const c = compareResults([withSamples(BASE)], [withSamples(slower(1.2))], 5);
    const row = c.rows.find((r) => r.adapter === 'idb')!;
    const a = medianCi(BASE)!;
    const b = medianCi(slower(1.2))!;
    const se = Math.hypot(Math.log(a.hi / a.lo), Math.log(b.hi / b.lo)) / (2 * 1.959963984540054);
    expect(row.change!.pct).toBeCloseTo(20, 10);
    expect(row.change!.low).toBeCloseTo(100 * (1.2 * Math.exp(-1.959963984540054 * se) - 1), 8);
    expect(row.change!.high).toBeCloseTo(100 * (1.2 * Math.exp(1.959963984540054 * se) - 1), 8);
    expect(row.change!.low).toBeGreaterThan(5);
    expect(row).toMatchObject({
      verdict: 'slower',
      base: { median: 10, n: 10 },
      next: { n: 10 },
    });
    expect(c.failed).toBe(true);
  });

  it('a slowdown whose interval stays within the threshold is same, and does not fail', () => {
    const c = compareResults([withSamples(BASE)], [withSamples(slower(1.2))], 50);
    expect(c.rows[0]!.change!.low).toBeGreaterThan(0);
    expect(c.rows[0]!.verdict).toBe('same');
    expect(c.failed).toBe(false);
  });

  it('identical files: the same, nothing fails; an unsupported row in both is not ok in either', () => {
    const c = compareResults([withSamples(BASE)], [withSamples(BASE)]);
    expect(c.rows[0]).toMatchObject({ verdict: 'same', change: { pct: 0 } });
    expect(c.rows[1]).toMatchObject({ adapter: 'websql', verdict: 'not ok in either', note: null });
    expect(c.coverage).toEqual({ okInBoth: 1, compared: 1, why: {} });
    expect(c.failed).toBe(false);
  });

  it('a change the interval cannot tell from a slowdown beyond the threshold is undecided, and does not fail', () => {
    // 20% slower, but 6 samples spread ±30% give an interval that reaches from below 0 to past +5%.
    const noisy = [7, 13, 10, 8, 12, 9];
    const c = compareResults([withSamples(noisy)], [withSamples(noisy.map((x) => x * 1.2))]);
    expect(c.rows[0]).toMatchObject({
      verdict: 'undecided',
      note: expect.stringMatching(
        /neither slower beyond \+5% nor within ±5%.*take more samples, or sweep with --baseline/,
      ),
    });
    expect(c.rows[0]!.change!.low).toBeLessThan(0);
    expect(c.failed).toBe(false);
  });

  it('faster, broke, and rows on one side only', () => {
    const fast = compareResults([withSamples(BASE)], [withSamples(slower(0.5))]);
    expect(fast.rows[0]!.verdict).toBe('faster');
    expect(fast.failed).toBe(false);

    const broken = withSamples(BASE, (r) => {
      r.cases[0] = {
        ...r.cases[0]!,
        status: 'timeout',
        reason: 'cut off at the 100 ms time limit',
      };
    });
    const c = compareResults([withSamples(BASE)], [broken]);
    expect(c.rows[0]).toMatchObject({
      verdict: 'broke',
      note: 'ok → timeout: cut off at the 100 ms time limit',
    });
    expect(c.failed).toBe(true);

    const other = withSamples(BASE, (r) => (r.run.browser = 'firefox'));
    const split = compareResults([withSamples(BASE)], [other]);
    expect(split.rows.map((r) => `${r.browser} ${r.adapter} ${r.verdict}`)).toEqual([
      'chromium idb only in base',
      'chromium websql only in base',
      'firefox idb only in new',
      'firefox websql only in new',
    ]);
  });

  it('does not compare a throttled run with an unthrottled one: a ×4 CPU is not a regression', () => {
    const throttled = withSamples(BASE, (r) => (r.run.plan = { ...r.run.plan, cpuThrottle: 4 }));
    const c = compareResults([withSamples(BASE)], [throttled]);
    expect(c.rows[0]).toMatchObject({
      verdict: 'not comparable',
      note: 'CPU throttling differs: ×1 → ×4',
    });
    expect(c.coverage.why).toEqual({ 'CPU throttling differs': 1 });
    expect(compareResults([throttled], [throttled]).rows[0]!.verdict).toBe('same');
  });

  it('matches on the parameters both rows record: a differing one keeps rows apart, one only a side has does not', () => {
    const p = compareResults(
      [withSamples(BASE, (r) => (r.cases[0]!.params = { chunkSize: 100 }))],
      [withSamples(BASE, (r) => (r.cases[0]!.params = { chunkSize: 10 }))],
    );
    expect(p.rows[0]).toMatchObject({
      verdict: 'not comparable',
      note: 'parameters differ: chunkSize 100 → 10',
    });
    expect(p.coverage).toEqual({ okInBoth: 1, compared: 0, why: { 'parameters differ': 1 } });
    // An older file records its suite's whole parameter set; a newer row only what its case uses.
    const old = compareResults(
      [withSamples(BASE, (r) => (r.cases[0]!.params = { chunkSizes: [1, 10], orderChunk: 100 }))],
      [withSamples(BASE, (r) => (r.cases[0]!.params = {}))],
    );
    expect(old.rows[0]!.verdict).toBe('same');
  });

  it('says which is 0 ms when no ratio can be had: a median, or an interval a wild stretch of samples widened to 0', () => {
    const zero = compareResults([withSamples(new Array<number>(10).fill(0))], [withSamples(BASE)]);
    expect(zero.rows[0]).toMatchObject({
      verdict: 'not comparable',
      note: 'a median is 0 ms (under the timer step): no ratio; use bigger sizes',
    });
    // 40 samples whose last tenth ran 30 times slower: the batch medians' interval reaches below 0.
    const wild = [
      ...BASE,
      ...BASE,
      ...BASE,
      ...BASE.slice(0, 6),
      ...BASE.slice(0, 4).map((x) => x * 30),
    ];
    const c = compareResults([withSamples(wild)], [withSamples(BASE)]);
    expect(c.rows[0]).toMatchObject({ verdict: 'not comparable' });
    expect(c.rows[0]!.note).toMatch(
      /^an interval of a median reaches 0 ms: a stretch of its samples ran many times slower than the rest/,
    );
    expect(c.coverage.why).toEqual({ 'an interval reaching 0 ms': 1 });
  });

  it("needs 6 samples a side for the median's interval", () => {
    const few = compareResults(
      [withSamples([10, 11, 9, 10, 10])],
      [withSamples([12, 12, 12, 12, 12, 12])],
    );
    expect(few.rows[0]).toMatchObject({
      verdict: 'not comparable',
      note: 'needs 6 or more samples on each side for an interval of the median (n = 5 and 6)',
    });
    expect(few.coverage.why).toEqual({ 'fewer than 6 samples': 1 });
  });

  it('pools a case run in several files of one side, and notes environment differences', () => {
    const a = withSamples(BASE.slice(0, 5));
    const b = withSamples(BASE, (r) => (r.environment.browser.version = '157.0'));
    const c = compareResults([a, withSamples(BASE.slice(5))], [b]);
    expect(c.rows[0]!.base).toMatchObject({ n: 10, files: 2 });
    expect(c.rows[0]!.note).toMatch(/samples pooled from 2 base and 1 new results$/);
    expect(c.notes).toEqual(['chromium: version 156.0 → 157.0']);
  });

  it('counts the files of a pooled side as passes: two runs that disagree widen its interval to cover both', () => {
    const runs = [withSamples(BASE), withSamples(slower(1.12))];
    const pooled = compareResults(runs, [withSamples(BASE)]).rows[0]!.base!;
    const asOne = medianCi([...BASE, ...slower(1.12)])!;
    expect(pooled.medianCi!.hi - pooled.medianCi!.lo).toBeGreaterThan(asOne.hi - asOne.lo);
    expect(pooled.medianCi!.lo).toBeLessThan(10);
    expect(pooled.medianCi!.hi).toBeGreaterThan(11.2);
  });

  it("a row whose passes disagree compares with its passes' interval, not its samples' alone", () => {
    // Base: most samples in its third pass at 10 ms, its first two passes at 15. New: steady at 15.
    const base = [15, 15.1, 14.9, 15.2, 15, 14.9, ...BASE, ...BASE, ...BASE, ...BASE];
    const a = withSamples(
      base,
      (r) => ((r.cases[0] as { samplesPerPass?: number[] }).samplesPerPass = [3, 3, 40]),
    );
    const b = withSamples([...slower(1.5), ...slower(1.5)]);
    const row = compareResults([a], [b]).rows[0]!;
    const lo = row.base!.medianCi!.lo;
    const hi = row.base!.medianCi!.hi;
    // The change's interval is the ratio of those two medians' intervals, after Price and Bonett.
    expect(row.change!.low).toBeLessThan(100 * ((1.5 * 10) / hi - 1) + 1e-9);
    expect(hi / lo).toBeGreaterThan(1.3);
    // Still shown slower, but barely: its interval reaches down to +1.5%, and it could have caught only +64%.
    expect(row).toMatchObject({ verdict: 'slower', change: { low: expect.any(Number) } });
    expect(row.change!.low).toBeLessThan(5);
    // Without its passes the same samples read far surer: an interval from +30%, +20% detectable.
    const alone = compareResults([withSamples(base)], [b]).rows[0]!;
    expect(alone.verdict).toBe('slower');
    expect(alone.change!.low).toBeGreaterThan(25);
    expect(alone.change!.detectablePct).toBeLessThan(row.change!.detectablePct / 2);
  });
});

describe('compare - run-to-run spread', () => {
  /** One file with `rows` ok rows (adapters a0, a1, …), row i's samples BASE scaled by factor(i). */
  function manyRows(rows: number, factor: (i: number) => number): ResultsFile {
    const r = sampleResults();
    const template = r.cases[0]!;
    r.cases = Array.from({ length: rows }, (_, i) => {
      const samples = BASE.map((x) => x * factor(i));
      return { ...template, adapter: `a${i}`, samples, stats: summarize(samples) };
    });
    return r;
  }
  /** Shifts of ±6% between the runs, alternating: beyond what each row's own interval (about ±3%) allows. */
  const scatter = (i: number) => Math.exp(((i % 2 === 0 ? 1 : -1) * 0.06 * ((i % 5) + 1)) / 3);
  const own = (i: number) => {
    const r = medianRatio(
      BASE,
      BASE.map((x) => x * scatter(i)),
    )!;
    return r.lo > 1 || r.hi < 1;
  };

  it('rows that scatter beyond their own intervals widen every interval by the spread they show', () => {
    const c = compareResults([manyRows(30, () => 1)], [manyRows(30, scatter)]);
    expect(c.runToRun).toHaveLength(1);
    const [spread] = c.runToRun;
    expect(spread).toMatchObject({ browser: 'chromium', rows: 30, estimated: true });
    expect(spread!.pct).toBeGreaterThan(2);
    expect(spread!.pct).toBeLessThan(10);
    // Without the spread most of these rows would read as significant changes; with it, few do.
    const significantAlone = c.rows.filter((_, i) => own(i)).length;
    const significant = c.rows.filter(
      (r) => r.verdict === 'faster' || r.verdict === 'slower',
    ).length;
    expect(significantAlone).toBeGreaterThan(15);
    expect(significant).toBeLessThan(significantAlone / 2);
    expect(formatComparison(c)).toMatch(
      /Run-to-run spread added to every row's interval: chromium \d+\.\d% \(from 30 rows\)/,
    );
    // A row left undecided by the spread is told that more samples of one run will not help.
    const undecided = c.rows.filter((r) => r.verdict === 'undecided');
    expect(undecided.length).toBeGreaterThan(0);
    for (const r of undecided)
      expect(r.note).toMatch(
        /most of its width is the run-to-run spread, which more samples in one run do not narrow: pool several runs per side/,
      );
    // The table gives each undecided row the slowdown the comparison could have caught in it.
    const lines = formatComparison(c).split('\n');
    for (const r of undecided) {
      const line = lines.find((l) => new RegExp(`\\b${r.adapter}\\b`).test(l))!;
      expect(line.trimEnd()).toMatch(/ undecided +\+\d+\.\d%$/);
      expect(r.change!.detectablePct).toBeGreaterThan(5);
    }
  });

  it('--detect counts a row shown same as answering it, its interval ruling out a slowdown that size, as --ab does', () => {
    const c = compareResults(
      [manyRows(30, () => 1)],
      [manyRows(30, (i) => (i < 10 ? 1 + (scatter(i) - 1) / 3 : 1))],
    );
    const measured = c.rows.filter((r) => r.change);
    const same = measured.filter((r) => r.verdict === 'same');
    expect(same.length).toBeGreaterThan(0);
    const answers = (pct: number) =>
      measured.filter((r) => r.verdict === 'same' || r.change!.detectablePct <= pct).length;
    expect(answers(6)).toBeGreaterThan(measured.filter((r) => r.change!.detectablePct <= 6).length);
    expect(gate(c, { ...DEFAULT_GATE, detectPct: 6 }).line).toContain(
      `+6% or more, or shown same, in ${answers(6)} of ${measured.length} rows`,
    );
    // At or under the threshold a slowdown can hide inside a same row's ±5%: it answers nothing.
    const under = measured.filter((r) => r.change!.detectablePct <= 4).length;
    expect(gate(c, { ...DEFAULT_GATE, detectPct: 4 }).line).toContain(
      `${measured.length - under} of ${measured.length} rows could not have caught +4% and were not shown same`,
    );
  });

  it('a row 35% slower among rows that only scatter is still slower; one 25% slower is not shown so over 30 rows', () => {
    const c = compareResults(
      [manyRows(30, () => 1)],
      [manyRows(30, (i) => (i === 7 ? 1.35 : i === 8 ? 1.25 : scatter(i)))],
    );
    expect(c.rows.find((r) => r.adapter === 'a7')!.verdict).toBe('slower');
    expect(c.failed).toBe(true);
    // Its interval lies above 0 but reaches below +5%: alone it would be shown slower, not among 30.
    const twelve = c.rows.find((r) => r.adapter === 'a8')!;
    expect(twelve.verdict).toBe('undecided');
    expect(twelve.change!.low).toBeGreaterThan(0);
    expect(twelve.change!.low).toBeLessThan(5);
    expect(twelve.change!.detectablePct).toBeGreaterThan(25);
  });

  it('every row 10% slower is a shift, not spread: no row is slower, and the gate is undecided', () => {
    const c = compareResults([manyRows(30, () => 1)], [manyRows(30, () => 1.1)]);
    expect(c.runToRun[0]!.pct).toBe(0);
    expect(c.runToRun[0]!.shift).toMatchObject({ verdict: 'slower' });
    expect(c.runToRun[0]!.shift!.pct).toBeCloseTo(10, 8);
    expect(formatComparison(c)).toContain(
      "Shift every row shares, the median row's change with its 95% interval: chromium +10.0% [+10.0%, +10.0%]. Each row is judged net of it",
    );
    for (const r of c.rows) {
      expect(r.verdict).toBe('same');
      expect(r.change!.measured).toBeCloseTo(10, 8);
      expect(r.change!.pct).toBeCloseTo(0, 8);
    }
    expect(c.failed).toBe(false);
    expect(gate(c)).toMatchObject({
      code: 3,
      line: expect.stringMatching(
        /^UNDECIDED: every row moved together, chromium \+10\.0% \[\+10\.0%, \+10\.0%\], slower beyond 5%: a slower machine or a change every store shares/,
      ),
    });
  });

  it('judges rows net of the shift: among rows that all got 15% slower, the one 30% slower is slower', () => {
    const c = compareResults(
      [manyRows(30, () => 1)],
      [manyRows(30, (i) => 1.15 * (i === 4 ? 1.3 : 1 + ((i % 3) - 1) * 0.002))],
    );
    expect(c.runToRun[0]!.shift!.pct).toBeCloseTo(15, 0);
    const four = c.rows.find((r) => r.adapter === 'a4')!;
    expect(four.verdict).toBe('slower');
    expect(four.change!.pct).toBeCloseTo(30, 0);
    expect(four.change!.measured).toBeCloseTo(49.5, 8);
    expect(c.rows.filter((r) => r.verdict === 'slower')).toEqual([four]);
    // The gate fails on the row before it would call the shift undecided.
    expect(gate(c).code).toBe(1);
  });

  it('a shift that reaches past the threshold without lying beyond it passes by default and not with --fail-on-undecided', () => {
    // Rows 0% to +8% slower, evenly: a median of about +4% whose interval reaches past +5%.
    const c = compareResults([manyRows(30, () => 1)], [manyRows(30, (i) => 1 + (0.08 * i) / 29)]);
    expect(c.runToRun[0]!.shift).toMatchObject({ verdict: 'undecided' });
    expect(gate(c).code).toBe(0);
    expect(gate(c, { ...DEFAULT_GATE, failOnUndecided: true }).line).toMatch(
      /^UNDECIDED: the shift every row shares, chromium \+4\.\d% \[\+\d\.\d%, \+\d\.\d%\], is neither slower beyond 5% nor within it \(--fail-on-undecided\)/,
    );
    expect(gate(c, { ...DEFAULT_GATE, failOnUndecided: true }).code).toBe(3);
  });

  it('adds nothing when the rows scatter within their own intervals, or when there are too few rows to tell', () => {
    const calm = compareResults(
      [manyRows(30, () => 1)],
      [manyRows(30, (i) => 1 + ((i % 3) - 1) * 0.002)],
    );
    expect(calm.runToRun[0]).toMatchObject({ pct: 0, estimated: true });
    // A file against itself, with rows of constant samples (zero-width intervals) among them.
    const constant = manyRows(12, () => 1);
    for (const row of constant.cases.slice(0, 6)) row.samples = row.samples.map(() => 10);
    const itself = compareResults([constant], [structuredClone(constant)]);
    expect(itself.runToRun[0]).toMatchObject({ pct: 0, estimated: true });
    expect(itself.rows.every((r) => r.verdict === 'same')).toBe(true);
    const few = compareResults([manyRows(9, () => 1)], [manyRows(9, scatter)]);
    expect(few.runToRun[0]).toMatchObject({
      browser: 'chromium',
      rows: 9,
      pct: 0,
      estimated: false,
    });
    expect(formatComparison(few)).toMatch(
      /chromium none \(9 rows: too few to estimate it from, 10 needed\)/,
    );
  });
});

describe('compare - the gate', () => {
  const c = (base: number[], next: number[]) =>
    compareResults([withSamples(base)], [withSamples(next)]);
  it('exit 0 with enough rows compared, 1 on a slower row, 3 when nothing or too little was compared', () => {
    expect(gate(c(BASE, BASE))).toEqual({
      outcome: 'pass',
      code: 0,
      line: 'PASS: no row slower beyond 5%; this comparison would have caught a slowdown of +6.5% or more at its median row; compared 1 of 1 rows ok in both: 0 slower beyond 5%, 0 faster, 1 same, 0 undecided.',
    });
    expect(gate(c(BASE, slower(1.2))).code).toBe(1);
    const none = gate(c(BASE.slice(0, 5), BASE));
    expect(none).toEqual({
      outcome: 'undecided',
      code: 3,
      line: 'UNDECIDED: too few rows compared, 0 where --min-compared asks for 90% (1); compared 0 of 1 rows ok in both (not compared: 1 fewer than 6 samples): 0 slower beyond 5%, 0 faster, 0 same, 0 undecided.',
    });
    expect(gate(c(BASE, BASE), { ...DEFAULT_GATE, minCompared: { count: 2 } }).code).toBe(3);
  });

  it('an undecided row passes by default and not with --fail-on-undecided', () => {
    const noisy = [7, 13, 10, 8, 12, 9];
    const cmp = c(
      noisy,
      noisy.map((x) => x * 1.2),
    );
    expect(gate(cmp).code).toBe(0);
    expect(gate(cmp, { ...DEFAULT_GATE, failOnUndecided: true }).line).toMatch(
      /^UNDECIDED: 1 row neither slower beyond 5% nor within it \(--fail-on-undecided\)/,
    );
  });

  it('reads --min-compared as a share or a count', () => {
    expect(parseMinCompared('90%')).toEqual({ share: 0.9 });
    expect(parseMinCompared('40')).toEqual({ count: 40 });
    expect(() => parseMinCompared('120%')).toThrow('min-compared: "120%" is neither');
    expect(() => parseMinCompared('most')).toThrow(RangeError);
  });
});

describe('compare - input', () => {
  it('reads one results document or an array of them', () => {
    expect(parseResultsInput(JSON.stringify(sampleResults()), 'one.json')).toHaveLength(1);
    expect(
      parseResultsInput(JSON.stringify([sampleResults(), sampleResults()]), 'two.json'),
    ).toHaveLength(2);
  });

  const bad: [string, string, RegExp][] = [
    ['text that is not JSON', '{"schema":', /^x\.json: not JSON/],
    ['an empty array', '[]', /^x\.json: .*an empty array/],
    [
      'a wrong schema in an array element',
      JSON.stringify([sampleResults(), { ...sampleResults(), schema: 'other' }]),
      /^x\.json.*1.*: \$\.schema: expected "storebench\/results@1", got "other"/,
    ],
    [
      'a file over the size cap',
      ' '.repeat(64 * 1024 * 1024 + 1),
      /^x\.json: \d+ bytes is larger than the/,
    ],
  ];
  for (const [what, text, message] of bad) {
    it(`refuses ${what}, naming the file and where`, () => {
      expect(() => parseResultsInput(text, 'x.json')).toThrow(message);
    });
  }

  it('thresholds are percentages, with or without the sign', () => {
    expect(parseThreshold('5%')).toBe(5);
    expect(parseThreshold('2.5')).toBe(2.5);
    expect(() => parseThreshold('-1%')).toThrow(
      'threshold: "-1%" is not a percentage from 0% to 1000%',
    );
    expect(() => parseThreshold('five')).toThrow(RangeError);
  });
});

describe('compare - command line', () => {
  it('exits 1 on a case made 20% slower and 0 on identical files, with a verdict last', () => {
    const slow = cli(
      { 'base.json': withSamples(BASE), 'new.json': withSamples(slower(1.2)) },
      'base.json',
      'new.json',
    );
    expect(slow.code).toBe(1);
    expect(slow.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^FAIL: 1 row slower beyond 5% or broken \(chromium insert\/bulk idb 100 \+20\.0%\), a slower one shown so .*; compared 1 of 1 rows ok in both/,
    );
    const same = cli(
      { 'base.json': withSamples(BASE), 'copy.json': withSamples(BASE) },
      'base.json',
      'copy.json',
    );
    expect(same.code).toBe(0);
    // Identical files pass; the idb row's interval takes in how far identical code moves between runs here (between-runs.ts), so it cannot rule out +5%, and could have caught only +11.7%.
    expect(same.stdout.trimEnd().split('\n').at(-1)).toBe(
      'PASS: no row slower beyond 5%; this comparison would have caught a slowdown of +11.7% or more at its median row; compared 1 of 1 rows ok in both: 0 slower beyond 5%, 0 faster, 0 same, 1 undecided. Between two runs a row must move further than identical code moves between runs here; to decide the undecided rows, sample both sides in one run: npm run sweep -- --ab A,B.',
    );
    expect(
      cli(
        { 'base.json': withSamples(BASE), 'new.json': withSamples(slower(1.2)) },
        'base.json',
        'new.json',
        '--threshold',
        '50%',
      ).code,
    ).toBe(0);
    expect(
      cli(
        { 'base.json': withSamples(BASE), 'new.json': withSamples(BASE) },
        'base.json',
        'new.json',
        '--min-compared',
        '2',
      ).code,
    ).toBe(3);
  });

  it('prints a table with the change of the median and its interval', () => {
    const text = formatComparison(compareResults([withSamples(BASE)], [withSamples(slower(1.2))]));
    const lines = text.split('\n');
    expect(lines[0]).toMatch(
      /^browser\s+suite\/case\s+adapter\s+size\s+base median ms\s+new median ms\s+measured\s+change\s+95% CI\s+verdict\s+would catch$/,
    );
    expect(lines[2]).toMatch(
      /^chromium\s+insert\/bulk\s+idb\s+100\s+10\.0 \(n=10\)\s+12\.0 \(n=10\)\s+\+20\.0%\s+\+20\.0%\s+\[\+\d+\.\d%, \+\d+\.\d%\]\s+SLOWER !!\s+-$/,
    );
    // The unsupported row is in neither side's results to compare: it is counted, not listed.
    expect(text).not.toMatch(/websql/);
  });

  const usage: [string, Record<string, unknown>, string[], RegExp][] = [
    ['one file', {}, ['base.json'], /give exactly two results files, BASE and NEW; got 1/],
    ['a missing file', {}, ['a.json', 'b.json'], /^compare: a\.json: no such file/],
    [
      'an unknown flag',
      {},
      ['a.json', 'b.json', '--treshold', '5'],
      /unknown flag --treshold \(did you mean --threshold\?\); allowed: --threshold, --min-compared, --detect, --fail-on-undecided, --fail-on-inconclusive, --help/,
    ],
    [
      'a bad threshold',
      {},
      ['a.json', 'b.json', '--threshold', 'lots'],
      /--threshold: "lots" is not a percentage/,
    ],
    [
      'a bad --min-compared',
      {},
      ['a.json', 'b.json', '--min-compared', 'most'],
      /--min-compared: "most" is neither/,
    ],
    [
      'hostile text instead of results',
      { 'a.json': '<script>alert(1)</script>', 'b.json': sampleResults() },
      ['a.json', 'b.json'],
      /^compare: a\.json: not JSON/,
    ],
    [
      'results of the wrong shape',
      { 'a.json': { schema: 'storebench/results@1' }, 'b.json': sampleResults() },
      ['a.json', 'b.json'],
      /^compare: a\.json: \$\.harness: expected an object/,
    ],
  ];
  for (const [what, files, args, message] of usage) {
    it(`exits 2 on ${what}, saying what is wrong`, () => {
      const r = cli(files, ...args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(message);
    });
  }
});
describe('compare - npm run compare', () => {
  it('exits 1, 0 and 2 as documented, with the verdict on the last line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'storebench-compare-'));
    const root = fileURLToPath(new URL('../../../..', import.meta.url));
    const npm = (...args: string[]) =>
      spawnSync('npm', ['run', '--silent', 'compare', '--', ...args], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      });
    try {
      const file = (name: string, data: unknown) => {
        const path = join(dir, name);
        writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
        return path;
      };
      const base = file('base.json', withSamples(BASE));
      const slow = npm(base, file('slow.json', [withSamples(slower(1.2))]));
      expect(slow.status, slow.stderr).toBe(1);
      expect(slow.stdout.trimEnd().split('\n').at(-1)).toMatch(/^FAIL: 1 row slower beyond 5%/);
      const same = npm(base, file('copy.json', withSamples(BASE)));
      expect(same.status, same.stderr).toBe(0);
      expect(same.stdout.trimEnd().split('\n').at(-1)).toMatch(/^PASS: no row slower beyond 5%/);
      const bad = npm(base, file('bad.json', '{"schema": 1}'));
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(
        /bad\.json: \$\.schema: expected "storebench\/results@1", got number 1/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
