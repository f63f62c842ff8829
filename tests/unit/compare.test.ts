import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compareResults, parseThreshold } from '../../src/core/compare.ts';
import { parseResultsInput } from '../../src/core/results-input.ts';
import type { ResultsFile } from '../../src/core/results.ts';
import { summarize } from '../../src/core/stats.ts';
import { formatComparison, runCompare } from '../../src/cli/compare.ts';
import { sampleResults } from '../sample-results.ts';

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

const BASE = [10, 11, 9, 10, 10];
const slower = (factor: number) => BASE.map((x) => x * factor);

/** runCompare over in-memory files, as the CLI would read them from disk. */
function cli(files: Record<string, unknown>, ...args: string[]) {
  return runCompare(args, (path) => {
    if (!(path in files)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    const v = files[path];
    return typeof v === 'string' ? v : JSON.stringify(v);
  });
}

describe('compare - per case', () => {
  it('samples 20% slower are a regression, with the Welch interval computed by hand', () => {
    const c = compareResults([withSamples(BASE)], [withSamples(slower(1.2))], 5);
    const row = c.rows.find((r) => r.adapter === 'idb')!;
    // base: mean 10, var 0.5; new: mean 12, var 0.72. se² = 0.1 + 0.144 = 0.244;
    // df = 0.244² / (0.1²/4 + 0.144²/4) = 7.748..., rounded down to 7: t = 2.364624.
    const half = 2.364624 * Math.sqrt(0.244);
    expect(row.change!.pct).toBeCloseTo(20, 10);
    expect(row.change!.low).toBeCloseTo(((2 - half) / 10) * 100, 5);
    expect(row.change!.high).toBeCloseTo(((2 + half) / 10) * 100, 5);
    expect(row.verdict).toBe('regression');
    expect(c.failed).toBe(true);
  });

  it('a significant slowdown within the threshold is marked but does not fail', () => {
    const c = compareResults([withSamples(BASE)], [withSamples(slower(1.2))], 25);
    expect(c.rows[0]!.verdict).toBe('slower');
    expect(c.failed).toBe(false);
  });

  it('identical files: every case the same, nothing fails', () => {
    const c = compareResults([withSamples(BASE)], [withSamples(BASE)]);
    expect(c.rows[0]).toMatchObject({ verdict: 'same', change: { pct: 0 } });
    expect(c.rows[1]).toMatchObject({ adapter: 'websql', verdict: 'not comparable', note: null });
    expect(c.failed).toBe(false);
  });

  it('noise is not a change: overlapping samples with a higher mean are the same', () => {
    const c = compareResults([withSamples([10, 14, 9, 12, 8])], [withSamples([10, 15, 9, 12, 8])]);
    expect(c.rows[0]!.verdict).toBe('same');
  });

  it('a change beyond the threshold that noise could explain is inconclusive, and does not fail', () => {
    // 20% slower, but with a spread of ±30% over 5 samples the interval spans 0.
    const noisy = [7, 13, 10, 8, 12];
    const c = compareResults([withSamples(noisy)], [withSamples(noisy.map((x) => x * 1.2))]);
    expect(c.rows[0]).toMatchObject({ verdict: 'inconclusive', note: expect.stringMatching(/too wide to tell .*take more samples/) });
    expect(c.rows[0]!.change!.pct).toBeCloseTo(20, 10);
    expect(c.rows[0]!.change!.low).toBeLessThan(0);
    expect(c.failed).toBe(false);
  });

  it('faster, broke, and rows on one side only', () => {
    const fast = compareResults([withSamples(BASE)], [withSamples(slower(0.5))]);
    expect(fast.rows[0]!.verdict).toBe('faster');
    expect(fast.failed).toBe(false);

    const broken = withSamples(BASE, (r) => {
      r.cases[0] = { ...r.cases[0]!, status: 'timeout', reason: 'cut off at the 100 ms time limit' } as ResultsFile['cases'][number];
    });
    const c = compareResults([withSamples(BASE)], [broken]);
    expect(c.rows[0]).toMatchObject({ verdict: 'broke', note: 'ok → timeout: cut off at the 100 ms time limit' });
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

  it('does not compare rows run with different parameters, or with too few samples', () => {
    const p = compareResults([withSamples(BASE)], [withSamples(BASE, (r) => (r.cases[0]!.params = { chunkSize: 10 }))]);
    expect(p.rows[0]).toMatchObject({ verdict: 'not comparable', note: 'parameters differ: {} → {"chunkSize":10}' });
    const one = compareResults([withSamples([10])], [withSamples([12])]);
    expect(one.rows[0]).toMatchObject({ verdict: 'not comparable', note: 'needs 2 or more samples on each side for an interval' });
  });

  it('pools a case run in several files of one side, and notes environment differences', () => {
    const a = withSamples([10, 11]);
    const b = withSamples([9, 10, 10], (r) => (r.environment.browser.version = '157.0'));
    const c = compareResults([a, withSamples([10, 11, 9])], [b]);
    expect(c.rows[0]!.base).toMatchObject({ n: 5, files: 2 });
    expect(c.rows[0]!.note).toMatch(/samples pooled from 2 base and 1 new results$/);
    expect(c.notes).toEqual(['chromium: version 156.0 → 157.0']);
  });
});

describe('compare - input', () => {
  it('reads one results document or an array of them', () => {
    expect(parseResultsInput(JSON.stringify(sampleResults()), 'one.json')).toHaveLength(1);
    expect(parseResultsInput(JSON.stringify([sampleResults(), sampleResults()]), 'two.json')).toHaveLength(2);
  });

  const bad: [string, string, RegExp][] = [
    ['text that is not JSON', '{"schema":', /^x\.json: not JSON/],
    ['an empty array', '[]', /^x\.json: .*an empty array/],
    ['a wrong schema in an array element', JSON.stringify([sampleResults(), { ...sampleResults(), schema: 'other' }]), /^x\.json.*1.*: \$\.schema: expected "storebench\/results@1", got "other"/],
    ['a file over the size cap', ' '.repeat(64 * 1024 * 1024 + 1), /^x\.json: \d+ bytes is larger than the/],
  ];
  for (const [what, text, message] of bad) {
    it(`refuses ${what}, naming the file and where`, () => {
      expect(() => parseResultsInput(text, 'x.json')).toThrow(message);
    });
  }

  it('thresholds are percentages, with or without the sign', () => {
    expect(parseThreshold('5%')).toBe(5);
    expect(parseThreshold('2.5')).toBe(2.5);
    expect(() => parseThreshold('-1%')).toThrow('threshold: "-1%" is not a percentage from 0% to 1000%');
    expect(() => parseThreshold('five')).toThrow(RangeError);
  });
});

describe('compare - command line', () => {
  it('exits 1 on a case made 20% slower and 0 on identical files, with a verdict last', () => {
    const slow = cli({ 'base.json': withSamples(BASE), 'new.json': withSamples(slower(1.2)) }, 'base.json', 'new.json');
    expect(slow.code).toBe(1);
    expect(slow.stdout.trimEnd().split('\n').at(-1)).toMatch(/^FAILED: 1 case significantly slower beyond 5% or broken \(chromium insert\/bulk idb 100 \+20\.0%\)/);
    const same = cli({ 'base.json': withSamples(BASE), 'copy.json': withSamples(BASE) }, 'base.json', 'copy.json');
    expect(same.code).toBe(0);
    expect(same.stdout.trimEnd().split('\n').at(-1)).toBe('OK: no case significantly slower beyond 5%. 0 regression, 0 broke, 0 slower within the threshold, 0 faster, 1 same, 0 inconclusive, 1 not compared.');
    expect(cli({ 'base.json': withSamples(BASE), 'new.json': withSamples(slower(1.2)) }, 'base.json', 'new.json', '--threshold', '30%').code).toBe(0);
  });

  it('prints a table with the change and its interval', () => {
    const text = formatComparison(compareResults([withSamples(BASE)], [withSamples(slower(1.2))]));
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^browser\s+suite\/case\s+adapter\s+size\s+base mean ms\s+new mean ms\s+change\s+95% CI\s+verdict$/);
    expect(lines[2]).toMatch(/^chromium\s+insert\/bulk\s+idb\s+100\s+10\.0 \(n=5\)\s+12\.0 \(n=5\)\s+\+20\.0%\s+\[\+8\.3%, \+31\.7%\]\s+REGRESSION !!$/);
    expect(lines[3]).toMatch(/^chromium\s+insert\/bulk\s+websql\s+100\s+unsupported\s+unsupported\s+-\s+not comparable$/);
  });

  const usage: [string, Record<string, unknown>, string[], RegExp][] = [
    ['one file', {}, ['base.json'], /give exactly two results files, BASE and NEW; got 1/],
    ['a missing file', {}, ['a.json', 'b.json'], /^compare: a\.json: no such file/],
    ['an unknown flag', {}, ['a.json', 'b.json', '--treshold', '5'], /unknown flag --treshold; allowed: --threshold, --help/],
    ['a bad threshold', {}, ['a.json', 'b.json', '--threshold', 'lots'], /--threshold: "lots" is not a percentage/],
    ['hostile text instead of results', { 'a.json': '<script>alert(1)</script>', 'b.json': sampleResults() }, ['a.json', 'b.json'], /^compare: a\.json: not JSON/],
    ['results of the wrong shape', { 'a.json': { schema: 'storebench/results@1' }, 'b.json': sampleResults() }, ['a.json', 'b.json'], /^compare: a\.json: \$\.harness: expected an object/],
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
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const npm = (...args: string[]) => spawnSync('npm', ['run', '--silent', 'compare', '--', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    try {
      const file = (name: string, data: unknown) => {
        const path = join(dir, name);
        writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
        return path;
      };
      const base = file('base.json', withSamples(BASE));
      const slow = npm(base, file('slow.json', [withSamples(slower(1.2))]));
      expect(slow.status, slow.stderr).toBe(1);
      expect(slow.stdout.trimEnd().split('\n').at(-1)).toMatch(/^FAILED: 1 case significantly slower beyond 5%/);
      const same = npm(base, file('copy.json', withSamples(BASE)));
      expect(same.status, same.stderr).toBe(0);
      expect(same.stdout.trimEnd().split('\n').at(-1)).toMatch(/^OK: no case significantly slower beyond 5%/);
      const bad = npm(base, file('bad.json', '{"schema": 1}'));
      expect(bad.status).toBe(2);
      expect(bad.stderr).toMatch(/bad\.json: \$\.schema: expected "storebench\/results@1", got number 1/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
