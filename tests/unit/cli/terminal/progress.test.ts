import { describe, expect, it } from 'vitest';
import { makeRunId } from '../../../../src/cli/files/output.ts';
import {
  acrossLaunches,
  progressLine,
  ProgressView,
  type LaunchProgress,
} from '../../../../src/cli/terminal/progress.ts';
import type { SessionProgress } from '../../../../src/cli/server/session.ts';
import { Budget } from '../../../../src/core/plan/budget.ts';
import { DEFAULT_AUTO } from '../../../../src/core/plan/defaults.ts';

/** A browser's budget of `ms`, as --budget gives it. */
const budgetOf = (ms: number) => new Budget({ auto: DEFAULT_AUTO, budgetMs: ms });

const fresh: SessionProgress = {
  userAgent: null,
  startedAt: null,
  rows: null,
  rowsDone: 0,
  samples: null,
  samplesDone: 0,
  current: null,
};

describe('cli progress - line', () => {
  it('says what it waits for before the run starts', () => {
    expect(progressLine('chromium', fresh, 0)).toBe(
      'chromium  starting the browser and loading the page…',
    );
    expect(progressLine('firefox', { ...fresh, userAgent: 'UA' }, 0)).toBe(
      'firefox   page loaded, checking which stores it supports…',
    );
  });

  it('shows samples, rows, elapsed, remaining and the case in flight', () => {
    const p: SessionProgress = {
      userAgent: 'UA',
      startedAt: 1_000,
      rows: 10,
      rowsDone: 3,
      samples: 40,
      samplesDone: 10,
      current: {
        suite: 'insert',
        case: 'bulk',
        size: 100,
        adapter: 'idb',
        warmup: false,
        index: 2,
        of: 3,
      },
    };
    // 10 of 40 samples in 12 s: 30 more take about 36 s.
    expect(progressLine('webkit', p, 13_000)).toBe(
      'webkit    samples 10/40 | rows 3/10 | 0:12 elapsed | ~0:36 left | insert/bulk size 100 idb sample 2/3',
    );
    expect(progressLine('webkit', { ...p, samplesDone: 0 }, 13_000)).toContain('| ? left |');
    expect(progressLine('webkit', { ...p, samplesDone: 40 }, 13_000)).toContain('| finishing |');
    const warm = (index: number, of: number) =>
      progressLine('webkit', { ...p, current: { ...p.current!, warmup: true, index, of } }, 13_000);
    expect(warm(1, 2)).toMatch(/ idb warm-up 1\/2$/);
    // A later pass's warm-up comes on top of the plan's count: no "6/1".
    expect(warm(6, 1)).toMatch(/ idb warm-up$/);
    expect(progressLine('webkit', { ...p, fraction: 0.5 }, 13_000)).toMatch(/ idb sample 2$/);
  });
});

describe('cli progress - across launches', () => {
  /** A launch's page in flight, with what each test sets. */
  const inPage = (set: Partial<SessionProgress>): SessionProgress => ({
    userAgent: 'UA',
    startedAt: 70_000,
    rows: 10,
    rowsDone: 0,
    samples: 50,
    samplesDone: 20,
    fraction: 0.5,
    current: null,
    pass: null,
    ...set,
  });
  /** Where the browser's launches stand, with what each test sets. */
  const launches = (set: Partial<LaunchProgress>): LaunchProgress => ({
    launch: 1,
    of: 12,
    startedAt: 10_000,
    samplesBefore: 0,
    rowsBefore: 0,
    budgetUsedMs: 0,
    launchBudgetMs: 20_000,
    ...set,
  });

  it('counts the clock from the first launch, the samples of all, and the share of the whole budget', () => {
    const p = inPage({ pass: { pass: 3, of: 4 } });
    // Launch 2 of 2: the first ran 40 s of a 100 s budget; this one has 60 s and is half done, 30 s in.
    const a = launches({
      launch: 2,
      of: 2,
      samplesBefore: 300,
      budgetUsedMs: 40_000,
      launchBudgetMs: 60_000,
    });
    const budget = budgetOf(100_000);
    const shown = acrossLaunches(p, a, budget, 100_000);
    expect(shown).toMatchObject({
      startedAt: 10_000,
      samplesDone: 320,
      samples: 350,
      fraction: 0.7,
      launch: { launch: 2, of: 2 },
    });
    expect(progressLine('firefox', shown, 100_000)).toBe(
      'firefox   70% | samples 320 | rows 0/10 | pass 3/4 | launch 2/2 | 1:30 elapsed | ~0:39 left',
    );
    // Before its page says hello, a launch shows only which one it is.
    expect(
      acrossLaunches({ ...p, userAgent: null, startedAt: null }, a, budget, 80_000).launch,
    ).toEqual({
      launch: 2,
      of: 2,
    });
  });

  it('reckons the launches to come at the time those before took, where each ends before its share', () => {
    // A sized A/B: 12 launches with shares of 20 s, each done in 10 s, its rows sampled; launch 8
    // is half through. Against the shares it read 33% here (75 s of a 240-s budget) and ended in 45 s.
    const p = inPage({ startedAt: 95_000, pass: { pass: 8, of: 12 } });
    const a = launches({ launch: 8, startedAt: 0, budgetUsedMs: 70_000 });
    const shown = acrossLaunches(p, a, budgetOf(240_000), 100_000);
    expect(shown.fraction).toBeCloseTo(75 / 120, 10);
    expect(progressLine('chromium', shown, 100_000)).toMatch(/^chromium {2}62% .* ~1:00 left$/);
  });

  it('does not count down the rows with nothing to sample, which each launch finishes again', () => {
    const p = inPage({ rows: 144, rowsDone: 2, fraction: 0.1, pass: { pass: 5, of: 12 } });
    const a = launches({ launch: 5, samplesBefore: 300, rowsBefore: 50, budgetUsedMs: 40_000 });
    const budget = budgetOf(300_000);
    expect(acrossLaunches(p, a, budget, 80_000).rowsDone).toBe(50);
    expect(acrossLaunches({ ...p, rowsDone: 60 }, a, budget, 80_000).rowsDone).toBe(60);
  });

  it('says the budget left while under a tenth of it is spent, where scaling the first seconds up says nonsense', () => {
    // 20 s after the first launch started, 1% of a 5-minute budget is done: at that pace, 33 minutes.
    const p = inPage({
      rows: 156,
      rowsDone: 2,
      samples: 3,
      samplesDone: 3,
      fraction: 0.12,
      pass: { pass: 1, of: 12 },
    });
    const a = launches({ startedAt: 60_000, launchBudgetMs: 25_000 });
    const budget = budgetOf(300_000);
    expect(progressLine('chromium', acrossLaunches(p, a, budget, 80_000), 80_000)).toMatch(
      / 0:20 elapsed \| ~4:57 left$/,
    );
    // Past a tenth, the pace so far: two launches took 5 s each, the third is done after 5 s, and
    // nine are to come; 40 s since the first started for a quarter, 2:00 more.
    const later = acrossLaunches(
      { ...p, startedAt: 95_000, fraction: 1 },
      { ...a, launch: 3, budgetUsedMs: 10_000 },
      budget,
      100_000,
    );
    expect(later.fraction).toBeCloseTo(15 / 60, 10);
    expect(progressLine('chromium', later, 100_000)).toMatch(/ 0:40 elapsed \| ~2:00 left$/);
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
    expect(written).toEqual([
      '\rchromium  samples …\x1b[K',
      '\r\x1b[Kchromium: warning: x\n',
      'chromium  samples …',
      '\r\x1b[Kchromium  done\n',
    ]);
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
    expect(makeRunId(new Date('2026-11-20T22:40:05.123Z'), 'ab12')).toBe(
      '2026-11-20T22-40-05Z-ab12',
    );
    expect(makeRunId()).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ-[0-9a-f]{4}$/);
  });
});
