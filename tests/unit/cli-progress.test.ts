import { describe, expect, it } from 'vitest';
import { makeRunId } from '../../src/cli/output.ts';
import { formatDuration, progressLine, ProgressView } from '../../src/cli/progress.ts';
import type { SessionProgress } from '../../src/cli/session.ts';

const fresh: SessionProgress = { userAgent: null, startedAt: null, rows: null, rowsDone: 0, samples: null, samplesDone: 0, current: null };

describe('cli progress - line', () => {
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(7_400)).toBe('0:07');
    expect(formatDuration(754_000)).toBe('12:34');
    expect(formatDuration(3_723_000)).toBe('1:02:03');
  });

  it('says what it waits for before the run starts', () => {
    expect(progressLine('chromium', fresh, 0)).toBe('chromium  starting the browser and loading the page…');
    expect(progressLine('firefox', { ...fresh, userAgent: 'UA' }, 0)).toBe('firefox   page loaded, checking which stores it supports…');
  });

  it('shows samples, rows, elapsed, remaining and the case in flight', () => {
    const p: SessionProgress = {
      userAgent: 'UA',
      startedAt: 1_000,
      rows: 10,
      rowsDone: 3,
      samples: 40,
      samplesDone: 10,
      current: { suite: 'insert', case: 'bulk', size: 100, adapter: 'idb', warmup: false, index: 2, of: 3 },
    };
    // 10 of 40 samples in 12 s: 30 more take about 36 s.
    expect(progressLine('webkit', p, 13_000)).toBe('webkit    samples 10/40 | rows 3/10 | 0:12 elapsed | ~0:36 left | insert/bulk size 100 idb sample 2/3');
    expect(progressLine('webkit', { ...p, samplesDone: 0 }, 13_000)).toContain('| ? left |');
    expect(progressLine('webkit', { ...p, samplesDone: 40 }, 13_000)).toContain('| finishing |');
  });
});

describe('cli progress - view', () => {
  const sink = (isTTY: boolean, columns?: number) => {
    const written: string[] = [];
    return { stream: { isTTY, columns, write: (t: string) => written.push(t) }, written };
  };

  it('rewrites one line in place on a terminal, cut to its width', () => {
    const { stream, written } = sink(true, 20);
    const view = new ProgressView(stream);
    view.update('chromium  samples 1/2 | rows 0/1');
    view.note('chromium: warning: x');
    view.finish('chromium  done');
        // 19 columns: one is kept free so the cursor never wraps.
    expect(written).toEqual(['\rchromium  samples …\x1b[K', '\r\x1b[Kchromium: warning: x\n', 'chromium  samples …', '\r\x1b[Kchromium  done\n']);
  });

  it('prints plain lines at most every interval when not a terminal', () => {
    const { stream, written } = sink(false);
    let now = 0;
    const view = new ProgressView(stream, 10_000, () => now);
    view.update('a');
    now = 5_000;
    view.update('b');
    now = 10_000;
    view.update('c');
    view.finish('done');
    expect(written).toEqual(['a\n', 'c\n', 'done\n']);
  });
});

describe('cli output - run id', () => {
  it('is sortable and safe in file names', () => {
    expect(makeRunId(new Date('2026-11-20T22:40:05.123Z'), 'ab12')).toBe('2026-11-20T22-40-05Z-ab12');
    expect(makeRunId()).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[0-9a-f]{4}$/);
  });
});
