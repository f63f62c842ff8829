/**
 * The page's factor cells (src/ui/results/table-factors.ts) and the sweep's closing table
 * (src/cli/terminal/table.ts) read one results file: for every row, they show the same factor to
 * the fastest store, with the same rounding and the same interval.
 */
import { describe, expect, it } from 'vitest';
import { resultsTable } from '../../../../src/cli/terminal/table.ts';
import { DEFAULT_AUTO, DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import { plannedLooksOf } from '../../../../src/core/plan/plan.ts';
import { resultsDocument } from '../../../../src/core/results/document.ts';
import { validateResults } from '../../../../src/core/results/recompute.ts';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import { summarize } from '../../../../src/core/stats/stats.ts';
import { groupFactorCells, meanLines } from '../../../../src/ui/results/table-factors.ts';
import { nodeEnvironment } from '../../helpers/runner-doc.ts';

const PASSES = 6;

/** An ok row of 3 samples in each of `passes` passes, about `ms` each, wobbling pass by pass. */
function row(kase: string, adapter: string, ms: number, passes = PASSES): CaseResult {
  const samples = Array.from({ length: passes * 3 }, (_, i) => {
    const pass = Math.floor(i / 3);
    return ms * (1 + 0.04 * Math.sin(pass * 1.7 + adapter.length) + 0.01 * (i % 3));
  });
  return {
    suite: 'insert',
    case: kase,
    title: kase,
    adapter,
    size: 100,
    params: {},
    operations: 100,
    status: 'ok',
    reason: null,
    samples,
    samplesPerPass: Array.from({ length: passes }, () => 3),
    warmup: [],
    stats: summarize(samples),
  };
}

/** One results file as the sweep writes it and every reader reads it (validateResults). */
function oneFile() {
  const cases = [
    row('bulk', 'memory', 1.2),
    row('bulk', 'idb', 4.1),
    row('bulk', 'dexie', 15.3),
    row('serial', 'memory', 8),
    row('serial', 'idb', 130),
    // Two passes only: too few to pair, so a ratio of medians with each median's interval.
    row('serial', 'dexie', 1200, 2),
  ];
  const plan = {
    ...DEFAULT_PLAN,
    suites: ['insert'],
    cases: ['bulk', 'serial'],
    adapters: ['memory', 'idb', 'dexie'],
    sizes: [100],
    auto: { ...DEFAULT_AUTO, passes: PASSES },
  };
  const doc = resultsDocument({
    runId: 'factors',
    browser: 'chromium',
    plan,
    startedAt: '2026-11-20T10:00:00.000Z',
    finishedAt: '2026-11-20T10:01:00.000Z',
    environment: nodeEnvironment(),
    output: { cases, order: [], cancelled: false },
    harness: { version: 'test', commit: 'test' },
  });
  return validateResults(JSON.parse(JSON.stringify(doc)), 'factors.json');
}

/** The factor in the terminal's cell of this case and store: `×3.42 [3.10, 3.80]` or `×1.00`. */
function terminalFactor(text: string, kase: string, adapter: string): string {
  const line = text.split('\n').find((l) => new RegExp(`^insert +${kase} +${adapter} `).test(l));
  return /×\S+(?: \[[^\]]+\])?/.exec(line ?? '')?.[0] ?? `no row for ${kase} ${adapter}`;
}

describe('table factors - the page and the terminal', () => {
  const file = oneFile();
  const looks = plannedLooksOf(file.run.plan.auto);
  const text = resultsTable(
    [{ browser: 'chromium', cases: file.cases, looks }],
    file.run.plan.adapters,
  );
  const ok = file.cases.filter((c): c is Extract<CaseResult, { status: 'ok' }> => c.status === 'ok');

  it.each(ok.map((r) => [r.case, r.adapter] as const))(
    'show one factor for %s on %s',
    (kase, adapter) => {
      const page = groupFactorCells(
        ok.filter((r) => r.case === kase),
        looks,
      ).get(adapter)?.text;
      expect(page).toBe(terminalFactor(text, kase, adapter));
    },
  );

  it('cover the three ways a factor is reached: the fastest, paired by pass, and from two medians', () => {
    const serial = groupFactorCells(
      ok.filter((r) => r.case === 'serial'),
      looks,
    );
    expect(serial.get('memory')?.text).toBe('×1.00');
    expect(serial.get('idb')?.title).toMatch(/^paired by pass over 6 passes/);
    expect(serial.get('dexie')?.title).toMatch(/^the ratio of the two medians, with its 95%/);
    expect(serial.get('idb')?.text).toMatch(/^×\d+\.\d \[\d+\.\d, \d+\.\d\]$/);
    expect(serial.get('dexie')?.text).toMatch(/^×\d+ \[\d+, \d+\]$/);
  });

  it('list the geometric means of the factors over the cases each store ran', () => {
    const medians = new Map([
      ['bulk', new Map(ok.filter((r) => r.case === 'bulk').map((r) => [r.adapter, r.stats.median]))],
    ]);
    expect(meanLines(medians)).toEqual([
      expect.stringMatching(
        /^Geometric mean of each store’s factor to the fastest, over the cases it ran: memory ×1\.00 \(1\), idb ×3\.\d\d \(1\), dexie ×1\d\.\d \(1\)\.$/,
      ),
    ]);
  });
});
