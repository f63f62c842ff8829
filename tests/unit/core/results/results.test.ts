import { describe, expect, it } from 'vitest';
import { ResultsError } from '../../../../src/core/results/results.ts';
import { parseResults, validateResults } from '../../../../src/core/results/recompute.ts';
import { sampleResults } from '../../../sample-results.ts';
import { medianPrecision, summarize } from '../../../../src/core/stats/stats.ts';

const mutate = (f: (r: any) => void) => {
  const r = structuredClone(sampleResults()) as any;
  f(r);
  return r;
};

describe('validateResults', () => {
  it('accepts a good file, from an object and from text', () => {
    expect(validateResults(sampleResults()).cases).toHaveLength(2);
    expect(parseResults(JSON.stringify(sampleResults()), 'good.json').run.browser).toBe('chromium');
  });

  const bad: [string, (r: any) => void, RegExp][] = [
    [
      'wrong schema',
      (r) => (r.schema = 'storebench/results@2'),
      /bad\.json: \$\.schema: expected "storebench\/results@1", got "storebench\/results@2"/,
    ],
    [
      'missing environment',
      (r) => delete r.environment,
      /\$\.environment: expected an object, got nothing/,
    ],
    [
      'a sample that is not a number',
      (r) => (r.cases[0].samples[1] = 'fast'),
      /\$\.cases\[0\]\.samples\[1\]: expected a finite number, got "fast"/,
    ],
    [
      'a negative sample',
      (r) => (r.cases[0].samples[0] = -1),
      /\$\.cases\[0\]\.samples\[0\]: expected a number >= 0/,
    ],
    [
      'an unknown status',
      (r) => (r.cases[1].status = 'skipped'),
      /\$\.cases\[1\]\.status: expected one of ok, unsupported, error, timeout, got "skipped"/,
    ],
    [
      'an unsupported row without a reason',
      (r) => (r.cases[1].reason = ''),
      /\$\.cases\[1\]\.reason: a unsupported case needs a reason/,
    ],
    [
      'an ok row with no samples',
      (r) => ((r.cases[0].samples = []), (r.cases[0].stats.n = 0)),
      /an ok case needs at least one sample/,
    ],
    [
      'a size of zero',
      (r) => (r.cases[0].size = 0),
      /\$\.cases\[0\]\.size: expected a whole number >= 1/,
    ],
    [
      'isolation not a boolean',
      (r) => (r.environment.crossOriginIsolated = 'yes'),
      /\$\.environment\.crossOriginIsolated: expected true or false/,
    ],
    ['cases not an array', (r) => (r.cases = {}), /\$\.cases: expected an array, got an object/],
    [
      'an unknown stop reason',
      (r) => (r.cases[0].stopped = 'bored'),
      /\$\.cases\[0\]\.stopped: expected one of iterations, ci-target, decided, time-cap, budget, cancelled, share, settled, got "bored"/,
    ],
    [
      'an unknown database mode',
      (r) => (r.cases[0].db = 'borrowed'),
      /\$\.cases\[0\]\.db: expected one of fresh, shared, got "borrowed"/,
    ],
    [
      'a repeat count of 0',
      (r) => (r.cases[0].repeats = 0),
      /\$\.cases\[0\]\.repeats: expected a whole number >= 1, got number 0/,
    ],
    [
      'a precision on an unsupported row',
      (r) => (r.cases[1].precision = 0.01),
      /\$\.cases\[1\]\.precision: only an ok row has precision/,
    ],
    [
      'outliers on an unsupported row',
      (r) => (r.cases[1].outliers = { k: 3, indexes: [] }),
      /\$\.cases\[1\]\.outliers: only an ok row has outliers/,
    ],
    [
      'a metric that does not line up with the samples',
      (r) => (r.cases[0].metrics = { longTasks: [0, 1] }),
      /\$\.cases\[0\]\.metrics\.longTasks: has 2 values but there are 3 samples/,
    ],
    [
      'passes whose samples do not add up',
      (r) => (r.cases[0].samplesPerPass = [2, 2]),
      /\$\.cases\[0\]\.samplesPerPass: adds up to 4 but there are 3 samples/,
    ],
    [
      'a pass count of 0',
      (r) => (r.run.plan.auto = { targetRelCi: 0.02, minN: 5, maxN: 10, maxMs: 1000, passes: 0 }),
      /\$\.run\.plan\.auto\.passes: expected a whole number >= 1, got number 0/,
    ],
    [
      'an auto target of 2 (200%)',
      (r) => (r.run.plan.auto = { targetRelCi: 2, minN: 5, maxN: 10, maxMs: 1000 }),
      /\$\.run\.plan\.auto\.targetRelCi: expected a fraction of the mean between 0 and 1/,
    ],
    [
      'a worker flag that is text',
      (r) => (r.run.plan.worker = 'yes'),
      /\$\.run\.plan\.worker: expected true or false/,
    ],
    [
      'a blocking value that is text',
      (r) => (r.cases[0].blocking = { maxFrameGapMs: '16.7' }),
      /\$\.cases\[0\]\.blocking\.maxFrameGapMs: expected a finite number, got "16\.7"/,
    ],
    [
      'blocking on an unsupported row',
      (r) => (r.cases[1].blocking = { longTasks: 0 }),
      /\$\.cases\[1\]\.blocking: only an ok row has blocking/,
    ],
    [
      'a metric note that is not text',
      (r) => (r.environment.metricNotes = { storageBytes: 5 }),
      /\$\.environment\.metricNotes\.storageBytes: expected a string/,
    ],
    [
      'nesting 5,000 levels deep',
      (r) => (r.cases[0].params = JSON.parse(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)),
      /\$\.cases\[0\]\.params(\.a)+: nested deeper than 32 levels/,
    ],
  ];
  for (const [what, change, message] of bad) {
    it(`rejects ${what}, naming the field`, () => {
      expect(() => validateResults(mutate(change), 'bad.json')).toThrow(ResultsError);
      expect(() => validateResults(mutate(change), 'bad.json')).toThrow(message);
    });
  }

  it('accepts the optional fields', () => {
    const r = mutate((x) => {
      x.run.plan.auto = { targetRelCi: 0.02, minN: 5, maxN: 200, maxMs: 30000 };
      x.run.plan.worker = true;
      x.run.plan.cases = ['bulk'];
      x.cases[0].stopped = 'ci-target';
      x.cases[0].outliers = { k: 3, indexes: [0, 2] };
      x.cases[0].metrics = { maxFrameGapMs: [16.7, 16.6, 120] }; // per sample, as files before the measurement pass had it
      x.cases[0].blocking = { maxFrameGapMs: 120.5, longTasks: 1, longTaskMs: 98 };
      x.cases[0].footprint = { storageBytes: 4096 };
      x.environment.metricNotes = { maxFrameGapMs: 'largest gap between animation frames' };
    });
    expect(validateResults(r).cases[0]).toMatchObject({
      stopped: 'ci-target',
      outliers: { k: 3, indexes: [] },
      blocking: { maxFrameGapMs: 120.5 },
      footprint: { storageBytes: 4096 },
    });
  });

  it('recomputes stats, precision and outliers from the samples', () => {
    const r = mutate((x) => {
      x.cases[0].samples = [517.9, 96.5, 300, 310, 305, 298];
      // What a hostile or broken file may claim: a median of 0.001, min above max, an upside-down interval.
      x.cases[0].stats = {
        n: 2,
        min: 999999,
        max: 0,
        mean: 1,
        median: 0.001,
        stddev: 0,
        ci95: 0,
        medianCi: { lo: 5, hi: 3 },
      };
      x.cases[0].precision = 0;
      x.cases[0].outliers = { k: 0, indexes: [9, 1] };
    });
    const row = validateResults(r).cases[0]!;
    if (row.status !== 'ok') throw new Error('row 0 is ok');
    expect(row.stats).toEqual(summarize([517.9, 96.5, 300, 310, 305, 298]));
    expect(row.stats).toMatchObject({ n: 6, min: 96.5, max: 517.9, median: 302.5 });
    expect(row.precision).toBe(medianPrecision(row.stats));
    expect(row.outliers).toEqual({ k: 3, indexes: [] });
  });

  it('leaves the document it was given as it was', () => {
    const r = mutate((x) => {
      x.cases[0].samples = [517.9, 96.5, 300, 310, 305, 298];
      // What a hostile or broken file may claim: a median of 0.001, min above max, an upside-down interval.
      x.cases[0].stats = {
        n: 2,
        min: 999999,
        max: 0,
        mean: 1,
        median: 0.001,
        stddev: 0,
        ci95: 0,
        medianCi: { lo: 5, hi: 3 },
      };
      x.cases[0].precision = 0;
      x.cases[0].outliers = { k: 0, indexes: [9, 1] };
    });
    validateResults(r);
    expect(r.cases[0].stats.median).toBe(0.001);
  });

  it('rejects text that is not JSON', () => {
    expect(() => parseResults('{"schema":', 'x.json')).toThrow(/x\.json: not JSON/);
  });

  it('rejects a file over the size cap', () => {
    expect(() => parseResults(' '.repeat(64 * 1024 * 1024 + 1), 'huge.json')).toThrow(
      /huge\.json: \d+ bytes is larger than/,
    );
  });

  it('keeps HTML and formulas as plain strings', () => {
    const r = mutate((x) => {
      x.cases[1].reason = '<img src=x onerror=alert(1)>';
      x.cases[0].title = '=HYPERLINK("http://evil")';
    });
    const ok = validateResults(r);
    expect(ok.cases[1]?.reason).toBe('<img src=x onerror=alert(1)>');
  });
});
