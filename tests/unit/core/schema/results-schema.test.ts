/**
 * The published JSON Schema (results/schema.json): it is exactly what the one
 * definition generates, it accepts every committed results file when read back from disk, the
 * readers' checker agrees with TypeBox's own on it, and each fault is one line with its JSON path.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { validateResults } from '../../../../src/core/results/recompute.ts';
import {
  publishedSchemaText,
  RESULTS_SCHEMA_PATH,
  ResultsFileSchema,
} from '../../../../src/core/schema/results-schema.ts';
import { conforms, KEYWORDS, type SchemaNode } from '../../../../src/core/schema/check.ts';
import { sampleResults } from '../../../sample-results.ts';
import { listResultsFiles } from '../../../../src/cli/server/results-index.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const PUBLISHED = readFileSync(join(ROOT, RESULTS_SCHEMA_PATH), 'utf8');
const COMMITTED = listResultsFiles(join(ROOT, 'results'));

type Json = Record<string, unknown>;
const each = (o: unknown, f: (n: Json) => TSchema) =>
  Object.fromEntries(Object.entries(o as Json).map(([k, v]) => [k, f(v as Json)]));

/**
 * TypeBox 0.34 checks a node by its Kind, a symbol that JSON cannot carry: put it back from each
 * node's keywords alone, so what is checked is the file on disk, not the TypeScript that wrote it.
 * A keyword this does not know fails the test instead of being skipped.
 */
function revive(node: Json): TSchema {
  const known = new Set([
    '$schema',
    '$id',
    'title',
    'description',
    'type',
    'required',
    'properties',
    'patternProperties',
    'items',
    'additionalItems',
    'anyOf',
    'not',
    'const',
    'minimum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'minLength',
    'minItems',
    'maxItems',
    'pattern',
  ]);
  const unknown = Object.keys(node).filter((k) => !known.has(k));
  if (unknown.length > 0)
    throw new Error(
      `the published schema uses ${unknown.join(', ')}, which this test does not revive`,
    );
  const out: Json = { ...node };
  if (node.properties) out.properties = each(node.properties, revive);
  if (node.patternProperties) out.patternProperties = each(node.patternProperties, revive);
  if (Array.isArray(node.items)) out.items = node.items.map((n) => revive(n as Json));
  else if (node.items) out.items = revive(node.items as Json);
  if (node.anyOf) out.anyOf = (node.anyOf as Json[]).map(revive);
  const kind = node.anyOf
    ? 'Union'
    : node.not
      ? 'Never'
      : node.const !== undefined
        ? 'Literal'
        : node.patternProperties
          ? 'Record'
          : Array.isArray(node.items)
            ? 'Tuple'
            : node.type;
  const KINDS: Record<string, string> = {
    object: 'Object',
    array: 'Array',
    string: 'String',
    number: 'Number',
    integer: 'Integer',
    boolean: 'Boolean',
    null: 'Null',
  };
  return Object.assign(out, {
    [Kind]: KINDS[kind as string] ?? (kind === undefined ? 'Unknown' : kind),
  }) as unknown as TSchema;
}

const published = revive(JSON.parse(PUBLISHED) as Json);

describe('results schema - the published file', () => {
  // After a change to src/core/schema/results-schema.ts, npm run schema writes the file again.
  it(`${RESULTS_SCHEMA_PATH} is what results-schema.ts generates`, () => {
    expect(PUBLISHED).toBe(publishedSchemaText());
  });

  it('says what it is: draft-07, $id, title, description', () => {
    expect(JSON.parse(PUBLISHED)).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'urn:storebench:results@1',
      title: 'storebench/results@1',
      description: expect.stringMatching(/one row per suite × case × adapter × size/),
    });
  });

  it('accepts every committed results file', () => {
    expect(COMMITTED.length).toBeGreaterThanOrEqual(30);
    for (const name of COMMITTED) {
      const data = JSON.parse(readFileSync(join(ROOT, 'results', name), 'utf8')) as unknown;
      for (const doc of Array.isArray(data) ? data : [data]) {
        expect([
          name,
          Value.Check(published, doc),
          conforms(JSON.parse(PUBLISHED) as SchemaNode, doc),
        ]).toEqual([name, true, true]);
      }
    }
  });

  it("uses only keywords the readers' checker knows", () => {
    const used = new Set<string>();
    const walk = (node: Json): void => {
      Object.keys(node).forEach((k) => used.add(k));
      for (const k of ['properties', 'patternProperties'] as const)
        if (node[k]) Object.values(node[k] as Json).forEach((n) => walk(n as Json));
      for (const k of ['items', 'anyOf'] as const)
        [node[k]].flat().forEach((n) => n && walk(n as Json));
      if (node.not) walk(node.not as Json);
    };
    walk(JSON.parse(PUBLISHED) as Json);
    expect([...used].filter((k) => !KEYWORDS.includes(k))).toEqual([]);
    expect(used.size).toBeGreaterThan(15);
  });

  const ok = (d: any) => d.cases.find((c: any) => c.status === 'ok');
  const other = (d: any) => d.cases.find((c: any) => c.status !== 'ok');
  const refused: [string, (d: any) => void][] = [
    ['a sample that is text', (d) => (ok(d).samples[0] = 'fast')],
    ['an unknown status', (d) => (other(d).status = 'skipped')],
    ['a precision on a row that is not ok', (d) => (other(d).precision = 0.01)],
    ['an ok row without stats', (d) => delete ok(d).stats],
    ['a study tag with spaces', (d) => (d.run.plan.study = 'my study')],
    [
      'a point of three values',
      (d) => (ok(d).series = { x: 'n', y: 'ms', samples: [[[1, 2, 3]]] }),
    ],
    ['a size of zero', (d) => (ok(d).size = 0)],
    ['a size of 1.5', (d) => (ok(d).size = 1.5)],
    ['an empty reason', (d) => (other(d).reason = '')],
    ['an ok row with a reason', (d) => (ok(d).reason = 'slow')],
    ['an ok row with no samples', (d) => ((ok(d).samples = []), delete ok(d).samplesPerPass)],
    [
      'an auto target of 1',
      (d) => (d.run.plan.auto = { targetRelCi: 1, minN: 6, maxN: 10, maxMs: 100 }),
    ],
    ['a throttle rate below 1', (d) => (d.run.plan.cpuThrottle = 0.5)],
    ['a missing environment', (d) => delete d.environment],
    ['a cores count of null text', (d) => (d.environment.cores = 'null')],
    ['a metric note that is a number', (d) => (d.environment.metricNotes = { x: 1 })],
    ['a harness of another name', (d) => (d.harness.name = 'otherbench')],
    ['a stop reason of "bored"', (d) => (ok(d).stopped = 'bored')],
  ];
  for (const [what, change] of refused) {
    it(`refuses ${what}: the file on disk, TypeBox's own schema and the readers' checker agree`, () => {
      const doc = JSON.parse(
        readFileSync(
          join(
            ROOT,
            'results',
            COMMITTED.find((f) => f.endsWith('-chromium.json'))!,
          ),
          'utf8',
        ),
      );
      const verdicts = () => [
        Value.Check(published, doc),
        Value.Check(ResultsFileSchema, doc),
        conforms(JSON.parse(PUBLISHED) as SchemaNode, doc),
      ];
      expect(verdicts()).toEqual([true, true, true]);
      change(doc);
      expect(verdicts()).toEqual([false, false, false]);
    });
  }
});

describe('conforms', () => {
  const fault = (change: (r: any) => void) => {
    const r = structuredClone(sampleResults()) as any;
    change(r);
    try {
      validateResults(r, 'x.json');
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };

  it('looks inside a field that may be null', () => {
    expect(fault((r) => (r.environment.cores = 0))).toBe(
      'x.json: $.environment.cores: expected a whole number >= 1, got number 0',
    );
    expect(fault((r) => (r.environment.storageEstimate = { quota: -1, usage: 0 }))).toBe(
      'x.json: $.environment.storageEstimate.quota: expected a number >= 0, got number -1',
    );
    expect(fault((r) => (r.environment.cores = 'two'))).toBe(
      'x.json: $.environment.cores: expected a whole number >= 1 or null, got "two"',
    );
  });

  it("names a number's bounds", () => {
    expect(
      fault((r) => {
        r.run.plan.adapters = ['a', 'b'];
        r.run.plan.ab = { thresholdPct: 0 };
      }),
    ).toBe(
      'x.json: $.run.plan.ab.thresholdPct: expected a number above 0 and below 100, got number 0',
    );
  });

  it("picks a row's kind by its status", () => {
    expect(fault((r) => (r.cases[0].reason = 'slow'))).toBe(
      'x.json: $.cases[0].reason: expected null for an ok case, got "slow"',
    );
    expect(fault((r) => (r.cases[1].stopped = 'budget'))).toBe(
      'x.json: $.cases[1].stopped: only an ok row has stopped; this one is unsupported',
    );
    expect(fault((r) => delete r.cases[1].status)).toBe(
      'x.json: $.cases[1].status: expected one of ok, unsupported, error, timeout, got nothing (the field is missing)',
    );
    expect(fault((r) => (r.cases[1] = 5))).toBe(
      'x.json: $.cases[1]: expected an object, got number 5',
    );
  });

  it('says what a point, a shard and an adaptive plan must be', () => {
    expect(
      fault((r) => (r.cases[0].series = { x: 'n', y: 'ms', samples: [[[1, 2]], [[1, 2, 3]]] })),
    ).toBe('x.json: $.cases[0].series.samples[1][0]: expected an [x, y] pair, got 3 values');
    expect(fault((r) => (r.run.plan.shard = { index: 3, count: 2 }))).toBe(
      'x.json: $.run.plan.shard.index: is 3, beyond the shard count 2',
    );
    expect(
      fault((r) => (r.run.plan.auto = { targetRelCi: 0.02, minN: 6, maxN: 5, maxMs: 100 })),
    ).toBe('x.json: $.run.plan.auto.maxN: is below minN 6');
    expect(fault((r) => (r.run.plan.study = 'My Study'))).toBe(
      'x.json: $.run.plan.study: expected a study part such as pouchdb-2.2/paging, got "My Study"',
    );
    expect(fault((r) => (r.run.plan.cpuThrottle = 0.5))).toBe(
      'x.json: $.run.plan.cpuThrottle: expected a rate of at least 1, got number 0.5',
    );
  });

  it("lets an ok row's recomputed fields be anything", () => {
    expect(
      fault(
        (r) => (
          (r.cases[0].stats = 'lies'),
          (r.cases[0].precision = 'x'),
          (r.cases[0].outliers = [])
        ),
      ),
    ).toBe('accepted');
    expect(fault((r) => (r.cases[1].stats = { n: 0 }))).toBe('accepted');
  });

  it('walks a million samples without recursing', () => {
    const message = fault((r) => {
      r.cases[0].samples = new Array(1_000_000).fill(1.5);
      r.cases[0].samples[999_999] = -1;
    });
    expect(message).toBe(
      'x.json: $.cases[0].samples[999999]: expected a number >= 0, got number -1',
    );
  }, 30_000);
});
