import { DEFAULT_PLAN } from '../src/core/plan/defaults.ts';
import { resultsDocument } from '../src/core/results/document.ts';
import type { ResultsFile } from '../src/core/results/results.ts';
import { summarize } from '../src/core/stats/stats.ts';
import { nodeEnvironment } from './unit/helpers/runner-doc.ts';

/** A small, valid results document for tests of readers and exporters: one ok row, one unsupported. */
export function sampleResults(): ResultsFile {
  return resultsDocument({
    runId: '2026-11-20T10-00-00Z-test',
    browser: 'chromium',
    plan: { ...DEFAULT_PLAN, suites: ['insert'], adapters: ['idb', 'websql'], sizes: [100] },
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:01:00.000Z',
    environment: nodeEnvironment({
      browser: { name: 'Chromium', version: '156.0', engine: 'Blink' },
      userAgent: 'Mozilla/5.0',
      os: 'Linux',
      cores: 2,
      deviceMemoryGb: 8,
      crossOriginIsolated: true,
      timerStepMs: 0.005,
      storageEstimate: { quota: 1e9, usage: 0 },
      context: 'main',
      harness: { version: '0.1.0', commit: 'abc1234' },
    }),
    output: {
      cases: [
        {
          suite: 'insert',
          case: 'bulk',
          title: 'bulk',
          adapter: 'idb',
          size: 100,
          params: {},
          operations: 100,
          status: 'ok',
          reason: null,
          samples: [3, 4, 5],
          warmup: [6],
          stats: summarize([3, 4, 5]),
        },
        {
          suite: 'insert',
          case: 'bulk',
          title: 'bulk',
          adapter: 'websql',
          size: 100,
          params: {},
          operations: 100,
          status: 'unsupported',
          reason: 'no openDatabase',
          samples: [],
          warmup: [],
        },
      ],
      order: [{ suite: 'insert', case: 'bulk', size: 100, rounds: [['idb']] }],
      cancelled: false,
    },
    harness: { version: '0.1.0', commit: 'abc1234' },
  });
}
