import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BrowserSession,
  otherRunReason,
  type SessionLimits,
} from '../../../../src/cli/server/session.ts';
import type { CollectorMessage } from '../../../../src/core/run/collector.ts';
import type { CaseResult, ResultsFile } from '../../../../src/core/results/results.ts';

const limits: SessionLimits = {
  startupMs: 1_000,
  idleMs: 5_000,
  caseTimeoutMs: 2_000,
  samplingMs: 0,
  deadlineSlackMs: 1_000,
  cleanupPerSampleMs: 100,
};
const T = 'token';
const msg = (m: Record<string, unknown>): CollectorMessage =>
  ({ token: T, browser: 'chromium', ...m }) as CollectorMessage;
const row = {
  suite: 'insert',
  case: 'bulk',
  adapter: 'memory',
  size: 10,
  status: 'ok',
  samples: [1],
  stats: { median: 1 },
} as unknown as CaseResult;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('cli session - progress', () => {
  it('follows the runner events and keeps each finished row', async () => {
    const rows: CaseResult[] = [];
    const s = new BrowserSession('chromium', limits, { onCase: (r) => rows.push(r) });
    s.accept(msg({ type: 'hello', userAgent: 'UA' }));
    s.accept(msg({ type: 'progress', event: { type: 'run-start', rows: 2, samples: 6 } }));
    s.accept(
      msg({
        type: 'progress',
        event: {
          type: 'group-start',
          suite: 'insert',
          case: 'bulk',
          title: 't',
          size: 10,
          adapters: ['memory'],
        },
      }),
    );
    s.accept(
      msg({
        type: 'progress',
        event: {
          type: 'sample',
          suite: 'insert',
          case: 'bulk',
          adapter: 'memory',
          size: 10,
          warmup: false,
          index: 2,
          of: 3,
          ms: 1,
          samplesDone: 4,
          samplesTotal: 6,
        },
      }),
    );
    // An older sample that overtook on the wire does not move progress back.
    s.accept(
      msg({
        type: 'progress',
        event: {
          type: 'sample',
          suite: 'insert',
          case: 'bulk',
          adapter: 'memory',
          size: 10,
          warmup: false,
          index: 1,
          of: 3,
          ms: 1,
          samplesDone: 3,
          samplesTotal: 6,
        },
      }),
    );
    s.accept(msg({ type: 'case', result: row, rowsDone: 1, rows: 2 }));
    s.accept(msg({ type: 'case', result: row, rowsDone: 1, rows: 2, browser: 'firefox' }));
    expect(s.progress).toMatchObject({
      userAgent: 'UA',
      rows: 2,
      rowsDone: 1,
      samples: 6,
      samplesDone: 4,
    });
    expect(s.progress.current).toMatchObject({ adapter: 'memory', index: 1 });
    expect(rows).toHaveLength(1);
    expect(s.cases).toHaveLength(1);
    const results = { cases: [row, row], run: {} } as unknown as ResultsFile;
    s.accept(msg({ type: 'done', results }));
    await expect(s.ended).resolves.toEqual({ kind: 'done', results });
    expect(s.isOver).toBe(true);
  });

  it('ends on fatal, and on a refused done', async () => {
    const a = new BrowserSession('chromium', limits);
    a.accept(msg({ type: 'fatal', message: 'no IndexedDB' }));
    await expect(a.ended).resolves.toEqual({
      kind: 'fatal',
      message: 'the page could not run the plan: no IndexedDB',
    });
    const warnings: string[] = [];
    const b = new BrowserSession('chromium', limits, { onWarning: (w) => warnings.push(w) });
    b.reject({
      status: 422,
      reason: 'done: results: $.cases: expected an array',
      type: 'done',
      browser: 'chromium',
    });
    await expect(b.ended).resolves.toEqual({
      kind: 'rejected',
      message: "the page's results were refused: done: results: $.cases: expected an array",
    });
    expect(warnings).toEqual([
      "the collector refused a 'done' message (HTTP 422): done: results: $.cases: expected an array",
    ]);
  });

  it("a 'done' refused as another run's or another launch's (409) does not end the run in flight", () => {
    const s = new BrowserSession('chromium', limits, {}, 2);
    s.reject({
      status: 409,
      reason: 'these results are of run other; this sweep records run r1 only',
      type: 'done',
      browser: 'chromium',
    });
    const ofLaunch1 = msg({ type: 'done', launch: 1, results: { cases: [], run: {} } });
    expect(s.conflict(ofLaunch1, false)).toBe(
      'this done is of launch 1 of the browser; the sweep is in launch 2',
    );
    expect(s.conflict(msg({ type: 'done', results: { cases: [], run: {} } }), false)).toMatch(
      /of launch 1 of the browser/,
    );
    expect(
      s.conflict(msg({ type: 'done', launch: 2, results: { cases: [], run: {} } }), false),
    ).toBeNull();
    expect(s.isOver).toBe(false);
  });

  it("keeps the newest pass's rows, whatever order they arrive in", () => {
    let passes = 0;
    const s = new BrowserSession('chromium', limits, { onPass: () => passes++ });
    const carry = (passesDone: number) => ({
      schema: 'storebench/carry@1',
      runId: 'r1',
      passesDone,
      rows: [],
      order: [],
    });
    s.accept(msg({ type: 'pass', launch: 1, carry: carry(2) }));
    s.accept(msg({ type: 'pass', launch: 1, carry: carry(1) }));
    expect(s.lastPass?.passesDone).toBe(2);
    expect(passes).toBe(1);
    expect(otherRunReason(msg({ type: 'pass', carry: { ...carry(3), runId: 'r0' } }), 'r1')).toBe(
      'these results are of run r0; this sweep records run r1 only',
    );
  });

  it('keeps the first end', async () => {
    const s = new BrowserSession('chromium', limits);
    s.end({ kind: 'crashed', message: 'gone' });
    s.end({ kind: 'cancelled', message: 'late' });
    s.accept(msg({ type: 'fatal', message: 'later still' }));
    await expect(s.ended).resolves.toEqual({ kind: 'crashed', message: 'gone' });
  });
});

describe('cli session - time limits', () => {
  it('stalls when the page never says hello', async () => {
    const s = new BrowserSession('chromium', limits);
    vi.advanceTimersByTime(1_000);
    await expect(s.ended).resolves.toEqual({
      kind: 'stalled',
      message: 'the page did not say hello within 1 s of starting the browser',
    });
  });

  it("a grid's queue does not count against the browser's start: the clock starts again at the slot", async () => {
    const s = new BrowserSession('chromium', limits);
    s.holdStartup();
    vi.advanceTimersByTime(10 * limits.startupMs);
    expect(s.isOver).toBe(false);
    s.resumeStartup();
    vi.advanceTimersByTime(limits.startupMs - 1);
    expect(s.isOver).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(s.ended).resolves.toEqual({
      kind: 'stalled',
      message: 'the page did not say hello within 1 s of starting the browser',
    });
  });

  it('stalls when the page goes quiet, naming where it was', async () => {
    const s = new BrowserSession('chromium', limits);
    s.accept(msg({ type: 'hello', userAgent: 'UA' }));
    vi.advanceTimersByTime(4_000);
    s.accept(
      msg({
        type: 'progress',
        event: {
          type: 'group-start',
          suite: 'read',
          case: 'get',
          title: 't',
          size: 10,
          adapters: ['idb'],
        },
      }),
    );
    vi.advanceTimersByTime(4_999);
    expect(s.isOver).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(s.ended).resolves.toEqual({
      kind: 'stalled',
      message: 'no word from the page for 5 s; last seen in read/get size 10',
    });
  });

  it('stops at the overall deadline even when the page keeps talking', async () => {
    const s = new BrowserSession('chromium', limits);
    s.accept(msg({ type: 'hello', userAgent: 'UA' }));
    // 2 rows × 2000 ms + 10 samples × 100 ms + 1000 ms slack = 6000 ms.
    s.accept(msg({ type: 'progress', event: { type: 'run-start', rows: 2, samples: 10 } }));
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(1_000);
      s.accept(msg({ type: 'progress', event: { type: 'warning', message: 'still here' } }));
    }
    vi.advanceTimersByTime(999);
    expect(s.isOver).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(s.ended).resolves.toEqual({
      kind: 'stalled',
      message: 'the run went past its overall deadline of 6 s',
    });
  });
});

describe('cli session - manual (label adopted from the page)', () => {
  it('takes the label of the first page to say hello, and ignores other labels after it', () => {
    const s = new BrowserSession(null, limits);
    expect(s.browser).toBeNull();
    s.accept(msg({ type: 'case', result: row, rowsDone: 1, rows: 1 }));
    expect(s.cases).toHaveLength(0); // nothing counts before a hello
    s.accept(msg({ type: 'hello', userAgent: 'UA', browser: 'firefox' }));
    expect(s.browser).toBe('firefox');
    s.accept(msg({ type: 'case', result: row, rowsDone: 1, rows: 1 }));
    s.accept(msg({ type: 'case', result: row, rowsDone: 1, rows: 1, browser: 'firefox' }));
    expect(s.cases).toHaveLength(1);
  });

  it('tells a second browser that it is not recorded, and never conflicts when the driver set the label', () => {
    const manual = new BrowserSession(null, limits);
    const hello = msg({ type: 'hello', userAgent: 'UA', browser: 'firefox' });
    expect(manual.conflict(hello, true)).toBeNull();
    manual.accept(hello);
    expect(
      manual.conflict(
        msg({ type: 'case', result: row, rowsDone: 1, rows: 1, browser: 'firefox' }),
        true,
      ),
    ).toBeNull();
    expect(
      manual.conflict(msg({ type: 'hello', userAgent: 'UA2', browser: 'chromium' }), true),
    ).toMatch(/already records the browser that opened its URL first \(firefox\)/);
    expect(
      manual.conflict(msg({ type: 'hello', userAgent: 'UA2', browser: 'firefox' }), true),
    ).toMatch(/open the URL in one browser only$/);
    const driven = new BrowserSession('chromium', limits);
    driven.accept(msg({ type: 'hello', userAgent: 'UA' }));
    expect(
      driven.conflict(msg({ type: 'hello', userAgent: 'UA', browser: 'firefox' }), false),
    ).toBeNull();
  });

  it('says how long it waited for a browser when none came', async () => {
    const s = new BrowserSession(null, limits);
    vi.advanceTimersByTime(limits.startupMs + 1);
    await expect(s.ended).resolves.toEqual({
      kind: 'stalled',
      message: 'the page did not say hello within 1 s of printing the URL',
    });
  });
});

describe('cli session - another run', () => {
  it("refuses a results document of another run (an old tab, another sweep's page), and nothing else", () => {
    const done = (id: string) => msg({ type: 'done', results: { run: { id }, cases: [] } });
    expect(otherRunReason(done('run-b'), 'run-a')).toBe(
      'these results are of run run-b; this sweep records run run-a only',
    );
    expect(otherRunReason(done('run-a'), 'run-a')).toBeNull();
    expect(otherRunReason(msg({ type: 'hello', userAgent: 'UA' }), 'run-a')).toBeNull();
  });
});
