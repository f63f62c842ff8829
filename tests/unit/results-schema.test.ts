/**
 * The published JSON Schema (results/schema/results.schema.json): it is exactly what the one
 * definition generates, and it accepts every committed results file when read back from disk.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { publishedSchemaText, RESULTS_SCHEMA_PATH, ResultsFileSchema } from '../../src/core/results-schema.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PUBLISHED = readFileSync(join(ROOT, RESULTS_SCHEMA_PATH), 'utf8');
const COMMITTED = readdirSync(join(ROOT, 'results')).filter((f) => f.endsWith('.json'));

type Json = Record<string, unknown>;
const each = (o: unknown, f: (n: Json) => TSchema) => Object.fromEntries(Object.entries(o as Json).map(([k, v]) => [k, f(v as Json)]));

/**
 * TypeBox 0.34 checks a node by its Kind, a symbol that JSON cannot carry: put it back from each
 * node's keywords alone, so what is checked is the file on disk, not the TypeScript that wrote it.
 * A keyword this does not know fails the test instead of being skipped.
 */
function revive(node: Json): TSchema {
  const known = new Set(['$schema', '$id', 'title', 'description', 'type', 'required', 'properties', 'patternProperties', 'items', 'additionalItems', 'anyOf', 'not', 'const', 'minimum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'minItems', 'maxItems', 'pattern']);
  const unknown = Object.keys(node).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new Error(`the published schema uses ${unknown.join(', ')}, which this test does not revive`);
  const out: Json = { ...node };
  if (node.properties) out.properties = each(node.properties, revive);
  if (node.patternProperties) out.patternProperties = each(node.patternProperties, revive);
  if (Array.isArray(node.items)) out.items = node.items.map((n) => revive(n as Json));
  else if (node.items) out.items = revive(node.items as Json);
  if (node.anyOf) out.anyOf = (node.anyOf as Json[]).map(revive);
  const kind = node.anyOf ? 'Union' : node.not ? 'Never' : node.const !== undefined ? 'Literal' : node.patternProperties ? 'Record' : Array.isArray(node.items) ? 'Tuple' : node.type;
  const KINDS: Record<string, string> = { object: 'Object', array: 'Array', string: 'String', number: 'Number', integer: 'Integer', boolean: 'Boolean', null: 'Null' };
  return Object.assign(out, { [Kind]: KINDS[kind as string] ?? (kind === undefined ? 'Unknown' : kind) }) as unknown as TSchema;
}

const published = revive(JSON.parse(PUBLISHED) as Json);

describe('results schema - the published file', () => {
  it(`${RESULTS_SCHEMA_PATH} is what src/core/results-schema.ts generates (after a change there, run npm run schema)`, () => {
    expect(PUBLISHED).toBe(publishedSchemaText());
  });

  it('says what it is: JSON Schema draft-07, with an $id, a title and a description', () => {
    expect(JSON.parse(PUBLISHED)).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'urn:storebench:results@1',
      title: 'storebench/results@1',
      description: expect.stringMatching(/one row per suite × case × adapter × size/),
    });
  });

  it('accepts every committed results file, read back from disk', () => {
    expect(COMMITTED.length).toBeGreaterThanOrEqual(30);
    for (const name of COMMITTED) {
      const data = JSON.parse(readFileSync(join(ROOT, 'results', name), 'utf8')) as unknown;
      for (const doc of Array.isArray(data) ? data : [data]) expect([name, Value.Check(published, doc)]).toEqual([name, true]);
    }
  });

  const ok = (d: any) => d.cases.find((c: any) => c.status === 'ok');
  const other = (d: any) => d.cases.find((c: any) => c.status !== 'ok');
  const refused: [string, (d: any) => void][] = [
    ['a sample that is text', (d) => (ok(d).samples[0] = 'fast')],
    ['an unknown status', (d) => (other(d).status = 'skipped')],
    ['a precision on a row that is not ok', (d) => (other(d).precision = 0.01)],
    ['an ok row without stats', (d) => delete ok(d).stats],
    ['a study tag with spaces', (d) => (d.run.plan.study = 'my study')],
    ['a point of three values', (d) => (ok(d).series = { x: 'n', y: 'ms', samples: [[[1, 2, 3]]] })],
    ['a size of zero', (d) => (ok(d).size = 0)],
    ['a size of 1.5', (d) => (ok(d).size = 1.5)],
    ['an empty reason', (d) => (other(d).reason = '')],
    ['an ok row with a reason', (d) => (ok(d).reason = 'slow')],
    ['an ok row with no samples', (d) => ((ok(d).samples = []), delete ok(d).samplesPerPass)],
    ['an auto target of 1', (d) => (d.run.plan.auto = { targetRelCi: 1, minN: 6, maxN: 10, maxMs: 100 })],
    ['a throttle rate below 1', (d) => (d.run.plan.cpuThrottle = 0.5)],
    ['a missing environment', (d) => delete d.environment],
    ['a cores count of null text', (d) => (d.environment.cores = 'null')],
    ['a metric note that is a number', (d) => (d.environment.metricNotes = { x: 1 })],
    ['a harness of another name', (d) => (d.harness.name = 'otherbench')],
    ['a stop reason of "bored"', (d) => (ok(d).stopped = 'bored')],
  ];
  for (const [what, change] of refused) {
    it(`refuses ${what}: the file on disk and TypeBox's own schema agree`, () => {
      const doc = JSON.parse(readFileSync(join(ROOT, 'results', COMMITTED.find((f) => f.endsWith('-chromium.json'))!), 'utf8'));
      const verdicts = () => [Value.Check(published, doc), Value.Check(ResultsFileSchema, doc)];
      expect(verdicts()).toEqual([true, true]);
      change(doc);
      expect(verdicts()).toEqual([false, false]);
    });
  }
});
