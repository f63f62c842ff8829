// One normalisation for every spec and number (src/core/plan/fields.ts and url.ts, percent.ts, variant.ts): a plan
// the sweep accepts is written into the page's URL and read back by the page as the same plan.
import { describe, expect, it } from 'vitest';
import { PlanError, type PlanVocabulary } from '../../../../src/core/plan/plan.ts';
import { parsePlan, type PlanFields } from '../../../../src/core/plan/fields.ts';
import {
  planFieldsFromQuery,
  planQueryProblem,
  planToQuery,
  readPlanFields,
} from '../../../../src/core/plan/url.ts';

const vocab: PlanVocabulary = {
  suites: ['insert'],
  adapters: ['memory', 'idb', 'pouchdb-idb', 'pouchdb-idb@7.3.1'],
  fixtures: ['person'],
  wraps: { idb: { packages: ['idb'] }, 'pouchdb-idb': { packages: ['pouchdb-browser'] } },
};

/** What users and probes typed: each field's odd but possibly legal values. */
const TRIES: PlanFields[] = [
  { adapters: 'idb,memory', ab: '0.0000001%' },
  { adapters: 'idb,memory', ab: '1e-7%' },
  { adapters: 'idb,memory', ab: '02.50%' },
  { adapters: 'idb,memory', ab: '99.99' },
  { adapters: 'idb,memory', ab: ' 5 % ' },
  { adapters: 'idb,memory', ab: '0.01%' },
  { adapters: 'idb,memory', ab: '5%', detect: '10%' },
  { adapters: 'idb,memory', ab: '5%', detect: '10%', auto: 'passes:36' },
  { adapters: 'idb@+5%,idb@+05%', ab: '5%' },
  { adapters: 'idb@+05.0%,memory', ab: '5%' },
  { adapters: 'idb@+100.0%,idb@+0.1%', ab: '5%' },
  { adapters: 'pouchdb-idb@7.3.1@+5%,pouchdb-idb', ab: '5%' },
  { adapters: 'idb@file:../a b/idb,idb', ab: '5%' },
  { adapters: 'idb@file:/tmp/ünï cödé/idb ,memory', ab: '5%' },
  { adapters: 'idb@file:/tmp/a&b=c?d#e%20f,memory' },
  { adapters: 'idb@8.0.4-beta.1,idb' },
  { params: 'n=99999999999999999999999' },
  { params: `n=${'9'.repeat(400)}` },
  { params: 'n=1,99999999999999999999' },
  { params: 'n=007;m=1,02' },
  { auto: 'ci:0.123456789%' },
  { auto: 'ci:1.25%,passes:3' },
  { auto: 'ci:0.10%' },
  { budget: '1.0005s' },
  { budget: '1m 30s' },
  { cpuThrottle: '4.0' },
  { shard: ' 02 / 04 ' },
  { sizes: '1_000,0100' },
];

describe('planToQuery, planFieldsFromQuery', () => {
  for (const fields of TRIES) {
    it(`${JSON.stringify(fields)}: accepted and read back the same, or refused`, () => {
      let plan;
      try {
        plan = parsePlan(fields, vocab);
      } catch (e) {
        expect(e).toBeInstanceOf(PlanError);
        return;
      }
      expect(planQueryProblem(plan, vocab)).toBeNull();
      expect(parsePlan(planFieldsFromQuery(planToQuery(plan)), vocab)).toEqual(plan);
      // As the page reads it: each field checked alone first, with what it depends on.
      expect(readPlanFields(planFieldsFromQuery(planToQuery(plan)), vocab)).toEqual({
        plan,
        errors: [],
      });
    });
  }

  it('refuses a threshold it cannot write back', () => {
    expect(() => parsePlan({ adapters: 'idb,memory', ab: '0.0000001%' }, vocab)).toThrow(
      'ab: "0.0000001%" is not a percentage from 0.01% to 99.99%, at most 2 decimals, e.g. 5%',
    );
  });

  it('refuses one store in two spellings as an A/B pair', () => {
    expect(() => parsePlan({ adapters: 'idb@+5%,idb@+05%', ab: '5%' }, vocab)).toThrow(
      'ab: compares two different stores, A then B; "idb@+5%" and "idb@+05%" are one store, "idb@+5%"',
    );
  });

  it('keeps a parameter too big to be exact as its text', () => {
    const plan = parsePlan({ params: `n=${'9'.repeat(400)};m=12` }, vocab);
    expect(plan.params).toEqual({ n: '9'.repeat(400), m: 12 });
  });

  it('reads --detect beside its --ab, and reports it alone without one, keeping the rest of the plan', () => {
    const alone = readPlanFields({ adapters: 'idb,memory', detect: '10%' }, vocab);
    expect(alone.errors).toEqual([
      "detect: the slowdown an A/B run must be able to catch; it needs ab (the sweep's --ab A,B)",
    ]);
    expect(alone.plan.adapters).toEqual(['idb', 'memory']);
    expect(
      readPlanFields({ adapters: 'idb,memory', ab: '5%', detect: '10%' }, vocab).plan.ab,
    ).toEqual({ thresholdPct: 5, detectPct: 10 });
  });
});
