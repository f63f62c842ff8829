/**
 * `storebench export --format bmf`: Bencher Metric Format, checked against the schema Bencher
 * publishes (tests/schemas/bmf.schema.json, from https://bencher.dev/bmf.json) with Ajv: one
 * benchmark per row with a median, its `latency` the median in nanoseconds with its 95% interval.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parseResults } from '../../../src/core/results/recompute.ts';
import { bmfText, nanoseconds, toBmf } from '../../../src/export/bmf.ts';
import { abRows } from '../../../src/core/verdicts/ab.ts';
import { sampleResults } from '../../sample-results.ts';

const schema = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../schemas/bmf.schema.json', import.meta.url)), 'utf8'),
) as object;
const validate = new Ajv({ strict: false }).compile(schema);
const AB = fileURLToPath(new URL('../../e2e/fixtures/ab-chromium.json', import.meta.url));

describe('export - bmf', () => {
  it("validates against Bencher's schema, which refuses what is not BMF", () => {
    const doc = parseResults(readFileSync(AB, 'utf8'), AB);
    const bmf = JSON.parse(bmfText([doc, sampleResults()])) as unknown;
    expect(validate(bmf), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ 'insert/bulk': { latency: { lower_value: 1 } } })).toBe(false);
    expect(validate({ 'insert/bulk': { latency: { value: '1' } } })).toBe(false);
  });

  it('one benchmark per row with a median: the median and its 95% interval in nanoseconds', () => {
    const doc = sampleResults();
    const ok = doc.cases.filter((c) => c.status === 'ok');
    const bmf = toBmf([doc]);
    expect(Object.keys(bmf)).toHaveLength(ok.length);
    for (const c of ok) {
      const metric = bmf[`${c.suite}/${c.case}/${c.size}/${c.adapter}/chromium`]?.latency;
      // Within 1e-6 ns of the median, and exactly its value to 12 digits, with no binary noise.
      expect(metric?.value).toBeCloseTo((c.stats?.median ?? NaN) * 1e6, 6);
      expect(metric?.value).toBe(nanoseconds(c.stats?.median ?? NaN));
      if (c.stats?.medianCi) {
        expect(metric?.lower_value).toBeCloseTo(c.stats.medianCi.lo * 1e6, 6);
        expect(metric?.upper_value).toBeCloseTo(c.stats.medianCi.hi * 1e6, 6);
      } else expect(metric).toEqual({ value: metric?.value });
    }
    // An unsupported row has no median: no benchmark.
    expect(Object.keys(bmf).some((k) => k.includes('/websql/'))).toBe(false);
  });

  it('a value carries no binary noise: 0.1 + 0.2 ms is 300000 ns', () => {
    expect((0.1 + 0.2) * 1e6).not.toBe(300000);
    expect(nanoseconds(0.1 + 0.2)).toBe(300000);
    expect(nanoseconds(0.005)).toBe(5000);
  });

  it('names a row by its parameters as name=value, never as JSON', () => {
    const doc = sampleResults();
    const c = doc.cases.find((x) => x.status === 'ok') as (typeof doc.cases)[number];
    const withParams = { ...doc, cases: [{ ...c, params: { size: 3, chunkSize: 1 } }] };
    expect(Object.keys(toBmf([withParams]))).toEqual([
      `${c.suite}/${c.case}/${c.size}/${c.adapter}/chromium/chunkSize=1,size=3`,
    ]);
  });

  it("an A/B file's BMF has each row's B/A with its 95% interval", () => {
    const doc = parseResults(readFileSync(AB, 'utf8'), AB);
    const bmf = toBmf([doc]);
    const rows = abRows(doc).filter((r) => r.ratio);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const name = `${r.suite}/${r.case}/${r.size}/${r.b} over ${r.a}/${doc.run.browser}`;
      expect(bmf[name]?.['b-over-a']).toEqual({
        value: r.ratio?.ratio,
        lower_value: r.ratio?.lo,
        upper_value: r.ratio?.hi,
      });
    }
  });
});
