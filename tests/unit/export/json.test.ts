import { describe, expect, it } from 'vitest';
import { toJson } from '../../../src/export/json.ts';
import { DEFAULT_PLAN } from '../../../src/core/plan/defaults.ts';
import type { ResultsFile } from '../../../src/core/results/results.ts';
import { parseResults } from '../../../src/core/results/recompute.ts';
import { resultsDocument } from '../../../src/core/results/document.ts';
import { parseResultsInput } from '../../../src/core/results/input.ts';
import { nodeEnvironment } from '../helpers/runner-doc.ts';

function tiny(browser = 'chromium'): ResultsFile {
  return resultsDocument({
    runId: 'r1',
    browser,
    plan: {
      ...DEFAULT_PLAN,
      suites: ['insert'],
      adapters: ['memory'],
      sizes: [100],
      iterations: 1,
      warmup: 0,
    },
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:00:01.000Z',
    environment: nodeEnvironment({
      browser: { name: 'Chromium', version: '156', engine: 'Blink' },
      userAgent: 'UA "quoted"',
      os: 'Linux',
      cores: null,
      deviceMemoryGb: null,
      crossOriginIsolated: true,
      timerStepMs: 0.005,
      storageEstimate: null,
      context: 'main',
      harness: { version: '0.1.0', commit: 'abc1234' },
    }),
    output: {
      cases: [
        {
          suite: 'insert',
          case: 'serial',
          title: 't',
          adapter: 'memory',
          size: 100,
          params: {},
          operations: 100,
          status: 'ok',
          reason: null,
          samples: [1.5],
          warmup: [],
          stats: {
            n: 1,
            min: 1.5,
            max: 1.5,
            mean: 1.5,
            median: 1.5,
            stddev: 0,
            ci95: null,
            medianCi: null,
          },
          precision: null,
          noise: null,
          outliers: { k: 3, indexes: [] },
          db: 'fresh',
          repeats: 1,
        },
      ],
      order: [{ suite: 'insert', case: 'serial', size: 100, rounds: [['memory']] }],
      cancelled: false,
    },
    harness: { version: '0.1.0', commit: 'abc1234' },
  });
}

describe('export json - exact output', () => {
  it('is the document pretty-printed with two spaces and a final newline', () => {
    const text = toJson(tiny());
    expect(text.endsWith('}\n')).toBe(true);
    expect(
      text.startsWith(
        '{\n  "schema": "storebench/results@1",\n  "harness": {\n    "name": "storebench",\n',
      ),
    ).toBe(true);
    expect(text).toContain('\n  "cases": [\n    {\n      "suite": "insert",\n');
    expect(text).toContain('"samples": [\n        1.5\n      ],');
    expect(text).toContain(
      '"ci95": null,\n        "medianCi": null\n      },\n      "precision": null,\n      "noise": null,\n      "outliers": {\n        "k": 3,\n        "indexes": []\n      },\n      "db": "fresh",\n      "repeats": 1\n    }',
    );
    expect(text).toContain('"userAgent": "UA \\"quoted\\""');
    expect(text).toBe(`${JSON.stringify(tiny(), null, 2)}\n`);
  });
});

describe('export json - round trip', () => {
  it('reads back through parseResults unchanged', () => {
    const original = tiny();
    expect(parseResults(toJson(original), 'tiny.json')).toEqual(original);
  });
});

describe('export json - several documents', () => {
  it('writes an array that parseResultsInput reads back as the same documents', () => {
    const a = tiny();
    // Built as firefox's, so that what it found is firefox's too: a reader recomputes that from the rows.
    const b = tiny('firefox');
    const text = toJson([a, b]);
    expect(text.startsWith('[\n  {\n    "schema": "storebench/results@1",')).toBe(true);
    expect(text.endsWith(']\n')).toBe(true);
    expect(parseResultsInput(text, 'merged.json')).toEqual([a, b]);
  });

  it('names the document and the field when one in an array is bad', () => {
    const bad = JSON.parse(toJson([tiny(), tiny()])) as Record<string, unknown>[];
    (bad[1] as { run: { cancelled: unknown } }).run.cancelled = 'no';
    expect(() => parseResultsInput(JSON.stringify(bad), 'merged.json')).toThrow(
      'merged.json [document 1]: $.run.cancelled: expected true or false, got "no"',
    );
    expect(() => parseResultsInput('[]', 'empty.json')).toThrow('empty.json: $: an empty array');
    expect(() => parseResultsInput('{"schema": 1', 'cut.json')).toThrow(/^cut\.json: not JSON/);
  });
});
