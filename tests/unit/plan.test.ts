import { describe, expect, it } from 'vitest';
import { DEFAULT_PLAN, parsePlan, PlanError, planFieldsFromQuery, planToQuery } from '../../src/core/plan.ts';

const vocab = { suites: ['insert', 'read'], adapters: ['idb', 'memory', 'pouchdb-idb'], fixtures: ['person', 'nested'] };

describe('plan - parsing', () => {
  it('fills defaults: every suite and adapter, default sizes', () => {
    const plan = parsePlan({}, vocab);
    expect(plan).toEqual({ ...DEFAULT_PLAN, suites: ['insert', 'read'], adapters: ['idb', 'memory', 'pouchdb-idb'] });
  });

  it('parses every field and survives a URL round trip', () => {
    const plan = parsePlan({ suites: 'insert', adapters: 'idb, memory', sizes: '100,1_000', iterations: '7', warmup: '0', seed: '9', timeoutMs: '5000', fixture: 'nested', params: 'chunkSizes=1,10;pageSize=10;order=random' }, vocab);
    expect(plan).toEqual({ suites: ['insert'], adapters: ['idb', 'memory'], sizes: [100, 1000], iterations: 7, warmup: 0, seed: 9, timeoutMs: 5000, fixture: 'nested', params: { chunkSizes: [1, 10], pageSize: 10, order: 'random' } });
    const query = planToQuery(plan);
    expect(parsePlan(planFieldsFromQuery(new URLSearchParams(query.toString())), vocab)).toEqual(plan);
  });

  const bad: [string, Parameters<typeof parsePlan>[0], RegExp][] = [
    ['an unknown adapter', { adapters: 'idb,nope' }, /adapters: unknown "nope"; allowed: idb, memory, pouchdb-idb/],
    ['an unknown suite', { suites: 'inserts' }, /suites: unknown "inserts"; allowed: insert, read/],
    ['a zero size', { sizes: '0' }, /sizes: 0 is out of range; allowed: 1 to 10000000/],
    ['a size that is not a number', { sizes: '100,lots' }, /sizes: "lots" is not a whole number/],
    ['a negative iteration count', { iterations: '-3' }, /iterations: "-3" is not a whole number; allowed: 1 to 10000/],
    ['a fractional timeout', { timeoutMs: '1.5' }, /timeout-ms: "1.5" is not a whole number/],
    ['an empty adapter list', { adapters: ' , ' }, /adapters: none given; allowed:/],
    ['two fixtures', { fixture: 'person,nested' }, /fixture: give exactly 1/],
    ['malformed params', { params: 'chunkSizes' }, /params: "chunkSizes" is not name=value/],
  ];
  for (const [what, fields, message] of bad) {
    it(`rejects ${what} with what is allowed`, () => {
      expect(() => parsePlan(fields, vocab)).toThrow(PlanError);
      expect(() => parsePlan(fields, vocab)).toThrow(message);
    });
  }
});
