import { describe, expect, it } from 'vitest';
import { PlanError } from '../../../../src/core/plan/plan.ts';
import {
  DEFAULT_AUTO,
  DEFAULT_BUDGET_MS,
  DEFAULT_CASES,
  DEFAULT_PLAN,
  DEFAULT_SUITES,
} from '../../../../src/core/plan/defaults.ts';
import { parseDuration, parsePlan, planToFields } from '../../../../src/core/plan/fields.ts';
import { planFieldsFromQuery, planToQuery } from '../../../../src/core/plan/url.ts';
import { formatDuration } from '../../../../src/core/base/format.ts';

const vocab = {
  suites: ['insert', 'read'],
  adapters: ['idb', 'memory', 'pouchdb-idb'],
  fixtures: ['person', 'nested'],
};

describe('parsePlan', () => {
  it('fills the defaults', () => {
    const plan = parsePlan({}, vocab);
    expect(plan).toEqual({
      ...DEFAULT_PLAN,
      suites: ['insert', 'read'],
      adapters: ['idb', 'memory', 'pouchdb-idb'],
      auto: DEFAULT_AUTO,
      budgetMs: DEFAULT_BUDGET_MS,
    });
  });

  it('runs the default suites and cases unless either is named', () => {
    const full = { ...vocab, suites: [...DEFAULT_SUITES, 'update'] };
    expect(parsePlan({}, full)).toMatchObject({ suites: DEFAULT_SUITES, cases: DEFAULT_CASES });
    expect(parsePlan({ suites: 'insert' }, full)).not.toHaveProperty('cases');
    expect(parsePlan({ cases: 'bulk' }, full)).toMatchObject({
      suites: full.suites,
      cases: ['bulk'],
    });
  });

  it('leaves older versions of a store (ids with an @) out unless named', () => {
    const withOld = { ...vocab, adapters: [...vocab.adapters, 'pouchdb-idb@7.3.1'] };
    expect(parsePlan({}, withOld).adapters).toEqual(['idb', 'memory', 'pouchdb-idb']);
    expect(parsePlan({ adapters: 'pouchdb-idb,pouchdb-idb@7.3.1' }, withOld).adapters).toEqual([
      'pouchdb-idb',
      'pouchdb-idb@7.3.1',
    ]);
  });

  it('carries a study tag through the URL, and refuses one that is not a part', () => {
    const tagged = parsePlan({ study: 'pouchdb-2.2/paging', iterations: '3' }, vocab);
    expect(tagged.study).toBe('pouchdb-2.2/paging');
    expect(parsePlan(planFieldsFromQuery(planToQuery(tagged)), vocab)).toEqual(tagged);
    expect(() => parsePlan({ study: 'pouchdb-2.2' }, vocab)).toThrow(
      'study: "pouchdb-2.2" is not a study part such as pouchdb-2.2/paging',
    );
    expect(() => parsePlan({ study: '../x/y' }, vocab)).toThrow(PlanError);
  });

  it('cpu-throttle: 1 to 20 in tenths, through the URL', () => {
    const plan = parsePlan({ cpuThrottle: '4', iterations: '2' }, vocab);
    expect(plan.cpuThrottle).toBe(4);
    expect(parsePlan(planFieldsFromQuery(planToQuery(plan)), vocab)).toEqual(plan);
    expect(parsePlan({ cpuThrottle: '2.5' }, vocab).cpuThrottle).toBe(2.5);
    expect(parsePlan({ cpuThrottle: '1' }, vocab).cpuThrottle).toBeUndefined();
    for (const bad of ['0', '21', 'fast', '2.25'])
      expect(() => parsePlan({ cpuThrottle: bad }, vocab), bad).toThrow(
        `cpu-throttle: "${bad}" is not a rate; allowed: 1 to 20`,
      );
  });

  it('budget: durations in h, m, s and ms, shortest form back', () => {
    expect(parseDuration('budget', '10m', 1000, 3_600_000)).toBe(600_000);
    expect(parseDuration('budget', '1m30s', 1000, 3_600_000)).toBe(90_000);
    expect(parseDuration('budget', '1.5h', 1000, 24 * 3_600_000)).toBe(5_400_000);
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(1500)).toBe('1500ms');
    expect(parsePlan({ budget: '90s' }, vocab).budgetMs).toBe(90_000);
    expect(() => parsePlan({ budget: '10' }, vocab)).toThrow(
      /budget: "10" is not a duration; allowed: 1s to 24h, written like 10m, 90s, 1m30s or 1h/,
    );
    expect(() => parsePlan({ budget: '500ms' }, vocab)).toThrow(
      /budget: 500ms is out of range; allowed: 1s to 24h/,
    );
    expect(() => parsePlan({ iterations: '5', budget: '1m' }, vocab)).toThrow(
      /budget: applies to adaptive sampling, and this plan takes a fixed count/,
    );
  });

  it('parses every field and survives a URL round trip', () => {
    const plan = parsePlan(
      {
        suites: 'insert',
        adapters: 'idb, memory',
        sizes: '100,1_000',
        iterations: '7',
        warmup: '0',
        seed: '9',
        timeoutMs: '5000',
        fixture: 'nested',
        params: 'chunkSizes=1,10;pageSize=10;order=random',
      },
      vocab,
    );
    expect(plan).toEqual({
      suites: ['insert'],
      adapters: ['idb', 'memory'],
      sizes: [100, 1000],
      iterations: 7,
      warmup: 0,
      seed: 9,
      timeoutMs: 5000,
      fixture: 'nested',
      params: { chunkSizes: [1, 10], pageSize: 10, order: 'random' },
    });
    const query = planToQuery(plan);
    expect(parsePlan(planFieldsFromQuery(new URLSearchParams(query.toString())), vocab)).toEqual(
      plan,
    );
  });

  it('auto: on and absent are the defaults, off is off', () => {
    expect(parsePlan({ auto: 'on' }, vocab).auto).toEqual(DEFAULT_AUTO);
    expect(parsePlan({ auto: '' }, vocab).auto).toEqual(DEFAULT_AUTO); // a bare ?auto in a URL
    expect(parsePlan({}, vocab).auto).toEqual(DEFAULT_AUTO);
    expect(parsePlan({ auto: 'off' }, vocab)).not.toHaveProperty('auto');
    expect(parsePlan({ auto: 'off' }, vocab)).not.toHaveProperty('budgetMs');
    expect(parsePlan({ iterations: '5' }, vocab)).not.toHaveProperty('auto');
    const plan = parsePlan(
      { auto: 'ci:1.5%, max-ms:60000', budget: '2m', worker: '1', cases: 'bulk,serial' },
      vocab,
    );
    expect(plan.auto).toEqual({
      targetRelCi: 0.015,
      minN: 6,
      maxN: 1000,
      maxMs: 60000,
      passes: 12,
      looks: 4,
    });
    expect(plan.budgetMs).toBe(120_000);
    expect(plan.worker).toBe(true);
    expect(plan.cases).toEqual(['bulk', 'serial']);
    expect(planToFields(plan)).toMatchObject({
      auto: 'ci:1.5%,min-n:6,max-n:1000,max-ms:60000,passes:12,looks:4',
      budget: '2m',
      worker: '1',
      cases: 'bulk,serial',
    });
    const query = planToQuery(plan);
    expect(parsePlan(planFieldsFromQuery(new URLSearchParams(query.toString())), vocab)).toEqual(
      plan,
    );
  });

  it("keeps a fixed-count plan's old link", () => {
    const plan = parsePlan({ suites: 'insert', iterations: '5', worker: 'off' }, vocab);
    expect(plan).not.toHaveProperty('worker');
    expect([...planToQuery(plan).keys()]).toEqual([
      'suites',
      'adapters',
      'sizes',
      'iterations',
      'warmup',
      'seed',
      'timeout-ms',
      'fixture',
    ]);
  });

  const bad: [string, Parameters<typeof parsePlan>[0], RegExp][] = [
    [
      'an unknown adapter',
      { adapters: 'idb,nope' },
      /adapters: unknown "nope"; allowed: idb, memory, pouchdb-idb/,
    ],
    ['an unknown suite', { suites: 'inserts' }, /suites: unknown "inserts"; allowed: insert, read/],
    ['a zero size', { sizes: '0' }, /sizes: 0 is out of range; allowed: 1 to 10000000/],
    ['a size that is not a number', { sizes: '100,lots' }, /sizes: "lots" is not a whole number/],
    [
      'a negative iteration count',
      { iterations: '-3' },
      /iterations: "-3" is not a whole number; allowed: 1 to 10000/,
    ],
    ['a fractional timeout', { timeoutMs: '1.5' }, /timeout-ms: "1.5" is not a whole number/],
    ['an empty adapter list', { adapters: ' , ' }, /adapters: none given; allowed:/],
    ['two fixtures', { fixture: 'person,nested' }, /fixture: give exactly 1/],
    ['malformed params', { params: 'chunkSizes' }, /params: "chunkSizes" is not name=value/],
    [
      'an auto key that does not exist',
      { auto: 'ci:2%,fast:1' },
      /auto: "fast:1" is not key:value with a key of ci, min-n, max-n, max-ms, passes/,
    ],
    [
      'an auto target of 0',
      { auto: 'ci:0%' },
      /auto: ci "0%" is not a percentage of the median from 0.1% to 50%/,
    ],
    [
      'an auto target that is not a number',
      { auto: 'ci:tight' },
      /auto: ci "tight" is not a percentage/,
    ],
    [
      'an auto min N of 1',
      { auto: 'min-n:1' },
      /auto: min-n: 1 is out of range; allowed: 2 to 10000/,
    ],
    ['51 passes', { auto: 'passes:51' }, /auto: passes: 51 is out of range; allowed: 1 to 50/],
    ['an auto max N below min N', { auto: 'min-n:10,max-n:5' }, /auto: max-n 5 is below min-n 10/],
    [
      'a worker switch that is neither on nor off',
      { worker: 'maybe' },
      /worker: "maybe" is not on or off; allowed: 1, on, true, yes, 0, off, false, no/,
    ],
    ['an empty case list', { cases: ',' }, /cases: none given/],
    ['a case id with markup', { cases: 'bulk,<b>' }, /cases: "<b>" is not a case id/],
  ];
  for (const [what, fields, message] of bad) {
    it(`rejects ${what} with what is allowed`, () => {
      expect(() => parsePlan(fields, vocab)).toThrow(PlanError);
      expect(() => parsePlan(fields, vocab)).toThrow(message);
    });
  }
});

describe('parsePlan - sizes by default', () => {
  it('1,000 documents for the default plan, 100 for one that names suites', async () => {
    const { DEFAULT_PLAN_SIZES } = await import('../../../../src/core/plan/defaults.ts');
    const vocab = { suites: [...DEFAULT_SUITES], adapters: ['idb'], fixtures: ['person'] };
    expect(DEFAULT_PLAN_SIZES).toEqual([1000]);
    expect(parsePlan({}, vocab).sizes).toEqual([1000]);
    expect(parsePlan({}, vocab).params).toEqual({ queries: 3 });
    expect(parsePlan({ suites: 'insert' }, vocab).sizes).toEqual([100]);
    expect(parsePlan({ suites: 'insert' }, vocab).params).toEqual({});
    expect(parsePlan({ cases: 'bulk' }, vocab).sizes).toEqual([100]);
    expect(parsePlan({ sizes: '50' }, vocab).sizes).toEqual([50]);
  });
});

describe('parsePlan - long values', () => {
  it('says a 100 kB spec once, cut', () => {
    const spec = `idb@${'v'.repeat(100_000)}`;
    try {
      parsePlan({ adapters: spec }, vocab);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(PlanError);
      const message = (e as Error).message;
      expect(message.length).toBeLessThan(1200);
      expect(message).toContain('(100004 characters)');
    }
  });
});
