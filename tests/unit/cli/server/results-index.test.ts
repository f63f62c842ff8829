import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listResultsFiles, readResultsIndex } from '../../../../src/cli/server/results-index.ts';
import { validateResultsIndex } from '../../../../src/core/results/input.ts';
import { toJson } from '../../../../src/export/json.ts';
import { handBuilt } from '../../helpers/export-fixture.ts';

const dir = mkdtempSync(join(tmpdir(), 'storebench-results-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('results index - the results/ folder for the page', () => {
  writeFileSync(join(dir, 'b-run-chromium.json'), toJson(handBuilt()));
  writeFileSync(
    join(dir, 'a-merged.json'),
    toJson([handBuilt(), { ...handBuilt(), run: { ...handBuilt().run, browser: 'firefox' } }]),
  );
  writeFileSync(join(dir, 'c-bad.json'), '{"schema": "storebench/results@0"}');
  writeFileSync(join(dir, 'x-chromium.partial.json'), '{}');
  writeFileSync(join(dir, 'index.json'), '{}');
  writeFileSync(join(dir, 'run.csv'), 'a,b\r\n');
  writeFileSync(join(dir, 'has space.json'), '{}');
  // The published JSON Schema lives in a folder of its own, so results/*.json is only results.
  mkdirSync(join(dir, 'schema'));
  writeFileSync(join(dir, 'schema', 'results.schema.json'), '{}');

  it('lists plain .json names only: no index, no partial files, no CSV, nothing in a folder', () => {
    expect(listResultsFiles(dir)).toEqual(['a-merged.json', 'b-run-chromium.json', 'c-bad.json']);
    expect(listResultsFiles(join(dir, 'missing'))).toEqual([]);
  });

  it('describes each file, or says why it is not valid results, in a listing the page accepts', () => {
    const index = readResultsIndex(dir);
    expect(validateResultsIndex(JSON.parse(JSON.stringify(index)), 'index.json')).toEqual(index);
    expect(index.files.map((f) => [f.name, f.documents?.map((d) => d.browser) ?? null])).toEqual([
      ['a-merged.json', ['chromium', 'firefox']],
      ['b-run-chromium.json', ['chromium']],
      ['c-bad.json', null],
    ]);
    expect(index.files[1]?.documents?.[0]).toEqual({
      runId: '2026-11-20T10-00-00Z-ab12',
      browser: 'chromium',
      browserVersion: 'Chromium 156.0.1',
      startedAt: '2026-11-20T10:00:00.000Z',
      suites: ['insert'],
      rows: 5,
    });
    expect(index.files[2]?.error).toMatch(
      /^c-bad\.json: \$\.schema: expected "storebench\/results@1"/,
    );
  });

  it('refuses a listing that names a file outside results/', () => {
    const bad = {
      schema: 'storebench/results-index@1',
      files: [{ name: '../secret.json', bytes: 1 }],
    };
    expect(() => validateResultsIndex(bad, 'index.json')).toThrow(
      'index.json: $.files[0].name: expected a plain .json file name',
    );
  });
});
