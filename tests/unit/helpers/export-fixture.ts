/**
 * Results documents with rows written out by hand for the exporter tests, so the expected text in
 * the tests does not depend on stats.ts; the document around them comes from resultsDocument(),
 * as a run's does. Not a test file itself.
 */
import { DEFAULT_PLAN } from '../../../src/core/plan/defaults.ts';
import { resultsDocument } from '../../../src/core/results/document.ts';
import type { CaseResult, ResultsFile } from '../../../src/core/results/results.ts';
import { nodeEnvironment } from './runner-doc.ts';

/** Stats are written out by hand so the expected text below does not depend on stats.ts. */
export function handBuilt(): ResultsFile {
  const cases: CaseResult[] = [
    {
      suite: 'insert',
      case: 'serial',
      title: 'insert one at a time (await each)',
      adapter: 'memory',
      size: 100,
      params: {},
      operations: 100,
      status: 'ok',
      reason: null,
      samples: [2, 4, 6],
      warmup: [9],
      stats: {
        n: 3,
        min: 2,
        max: 6,
        mean: 4,
        median: 4,
        stddev: 2,
        ci95: 4.968275,
        medianCi: null,
      },
      outliers: { k: 3, indexes: [2] },
      stopped: 'iterations',
      precision: null,
      db: 'fresh',
      repeats: 1,
    },
    // As in a file from before the median's interval, precision, db and repeats were recorded.
    {
      suite: 'insert',
      case: 'bulk',
      title: 'insert all in one bulk write',
      adapter: 'memory',
      size: 10000,
      params: { chunkSize: 1000 },
      operations: 10000,
      status: 'ok',
      reason: null,
      samples: [0.001],
      warmup: [],
      stats: { n: 1, min: 0.001, max: 0.001, mean: 0.001, median: 0.001, stddev: 0, ci95: null },
    },
    {
      suite: 'insert',
      case: 'bulk',
      title: 'insert all in one bulk write',
      adapter: 'idb',
      size: 100,
      params: {},
      operations: 100,
      status: 'unsupported',
      reason: 'needs bulkWrite (write many documents in one call), which "idb" does not declare',
      samples: [],
      warmup: [],
    },
    {
      suite: 'insert',
      case: 'serial',
      title: '=1+2',
      adapter: '@evil',
      size: 100,
      params: { note: 'a,b' },
      operations: 100,
      status: 'error',
      reason: '=HYPERLINK("http://evil")\nsecond line',
      samples: [],
      warmup: [],
    },
    {
      suite: 'insert',
      case: 'serial',
      title: 'insert one at a time (await each)',
      adapter: 'slow',
      size: 100,
      params: {},
      operations: 100,
      status: 'timeout',
      reason: 'cut off at the 100 ms time limit after 2 of 3 samples',
      samples: [5, 7],
      warmup: [],
      db: 'fresh',
      repeats: 1,
    },
  ];
  return resultsDocument({
    runId: '2026-11-20T10-00-00Z-ab12',
    browser: 'chromium',
    plan: { ...DEFAULT_PLAN, suites: ['insert'], adapters: ['memory', 'idb'], sizes: [100] },
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:01:00.000Z',
    environment: nodeEnvironment({
      browser: { name: 'Chromium', version: '156.0.1', engine: 'Blink' },
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
      os: 'Linux',
      cores: 4,
      deviceMemoryGb: 8,
      crossOriginIsolated: true,
      timerStepMs: 0.005,
      storageEstimate: null,
      context: 'main',
      harness: { version: '0.1.0', commit: 'abc1234' },
    }),
    output: { cases, order: [], cancelled: false },
    harness: { version: '0.1.0', commit: 'abc1234' },
  });
}
