import { describe, expect, it } from 'vitest';
import {
  OVERHEAD_USAGE,
  parseOverheadArgs,
} from '../../../../src/cli/scripts/bench-overhead/main.ts';
import {
  OVERHEAD_CASE_IDS,
  OVERHEAD_CASES,
} from '../../../../src/cli/scripts/bench-overhead/cases.ts';
import {
  badness,
  meetsTarget,
  summarizeRounds,
  verdict,
  type Round,
} from '../../../../src/cli/scripts/bench-overhead/summary.ts';

describe('bench:overhead flags', () => {
  it('defaults to 20 alternating rounds of 4 samples (+1 warm-up) of every case in Chromium and Firefox, each case at its own size, built fresh, no split', () => {
    expect(parseOverheadArgs([])).toEqual({
      help: false,
      rounds: 20,
      samples: 4,
      warmup: 1,
      build: true,
      split: false,
      browsers: ['chromium', 'firefox'],
      cases: OVERHEAD_CASE_IDS,
    });
  });

  it('takes every flag the usage names', () => {
    const args = parseOverheadArgs([
      '--rounds',
      '7',
      '--samples',
      '3',
      '--warmup',
      '0',
      '--size',
      '500',
      '--split',
      '--out',
      'o.json',
      '--no-build',
      '--browsers',
      'firefox',
      '--cases',
      'serial-idb,bulk',
    ]);
    expect(args).toEqual({
      help: false,
      rounds: 7,
      samples: 3,
      warmup: 0,
      size: 500,
      build: false,
      split: true,
      out: 'o.json',
      browsers: ['firefox'],
      cases: ['serial-idb', 'bulk'],
    });
    for (const flag of [
      '--rounds',
      '--samples',
      '--warmup',
      '--size',
      '--split',
      '--out',
      '--no-build',
      '--browsers',
      '--cases',
    ])
      expect(OVERHEAD_USAGE).toContain(flag);
  });

  it('refuses a bad number with its allowed range, and an unknown flag with the allowed ones', () => {
    expect(() => parseOverheadArgs(['--rounds', '0'])).toThrow(
      '--rounds: "0" is not a whole number from 1 to 1000',
    );
    expect(() => parseOverheadArgs(['--size', '1e4'])).toThrow(
      '--size: "1e4" is not a whole number from 1 to 1000000',
    );
    expect(() => parseOverheadArgs(['--samples'])).toThrow(
      '--samples needs a value, e.g. --samples 4',
    );
    expect(() => parseOverheadArgs(['--out'])).toThrow(
      '--out needs a value, e.g. --out overhead.json',
    );
    expect(() => parseOverheadArgs(['--out', '--split'])).toThrow(
      '--out needs a value, e.g. --out overhead.json',
    );
    expect(() => parseOverheadArgs(['--fast'])).toThrow(
      'unknown flag --fast; allowed: --browsers, --cases, --rounds, --samples, --warmup, --size, --out, --split, --no-build, --help',
    );
  });

  it('refuses a browser or case it does not know, naming the allowed ones', () => {
    expect(() => parseOverheadArgs(['--browsers', 'chromium,webkit'])).toThrow(
      '--browsers: unknown "webkit"; allowed: chromium, firefox',
    );
    expect(() => parseOverheadArgs(['--cases', 'serial'])).toThrow(
      `--cases: unknown "serial"; allowed: ${OVERHEAD_CASE_IDS.join(', ')}`,
    );
    expect(() => parseOverheadArgs(['--cases', 'bulk,'])).toThrow(
      '--cases: "bulk," names none between two commas or at an end; allowed:',
    );
  });

  it('covers the cases that await many times, each with a bare page', () => {
    const keys = OVERHEAD_CASES.map((c) => `${c.suite}/${c.case} ${c.adapter}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        'insert/bulk idb',
        'insert/serial idb',
        'insert/serial indexeddb-raw',
        'paginate/walk-startkey pouchdb-idb',
        'paginate/ref-startkey idb',
      ]),
    );
    for (const c of OVERHEAD_CASES) expect(c.bare).toMatch(/\.html$/);
  });
});

describe('bench:overhead summary', () => {
  const round = (h: number[], b: number[]): Round => ({ harness: h, bare: b });

  it('gives the ratio of the pooled medians, and an interval over rounds that holds it', () => {
    const rounds = [
      round([110, 112], [100, 101]),
      round([108, 111], [99, 100]),
      round([109, 113], [100, 102]),
      round([111, 110], [101, 100]),
    ];
    const s = summarizeRounds(rounds);
    expect(s).not.toBeNull();
    expect(s?.ratio).toBeCloseTo(110.5 / 100, 10);
    expect(s?.lo).toBeLessThanOrEqual(s?.ratio ?? 0);
    expect(s?.hi).toBeGreaterThanOrEqual(s?.ratio ?? 0);
    expect(s?.lo).toBeGreaterThan(1.05);
    expect(summarizeRounds(rounds)).toEqual(s);
  });

  it('widens the interval when the rounds disagree', () => {
    const steady = summarizeRounds([
      round([100], [100]),
      round([101], [100]),
      round([99], [100]),
      round([100], [101]),
      round([100], [99]),
    ]);
    const noisy = summarizeRounds([
      round([80], [100]),
      round([125], [100]),
      round([100], [70]),
      round([100], [130]),
      round([100], [100]),
    ]);
    expect((noisy?.hi ?? 0) - (noisy?.lo ?? 0)).toBeGreaterThan(
      5 * ((steady?.hi ?? 0) - (steady?.lo ?? 0)),
    );
  });

  it('needs two rounds with samples on both sides', () => {
    expect(summarizeRounds([round([1], [1])])).toBeNull();
    expect(summarizeRounds([round([1], [1]), round([], [1])])).toBeNull();
  });

  it('is ok only with an interval inside ±3% that holds 1 or a ratio within 2%; outside when the interval is wholly beyond 2%; else undecided', () => {
    expect(verdict({ ratio: 1.019, lo: 1.01, hi: 1.03 })).toBe('ok');
    expect(verdict({ ratio: 0.975, lo: 0.971, hi: 1.001 })).toBe('ok');
    expect(verdict({ ratio: 0.975, lo: 0.965, hi: 1.001 })).toBe('undecided');
    expect(verdict({ ratio: 1.025, lo: 1.005, hi: 1.029 })).toBe('undecided');
    // A ratio within 2% says nothing with an interval of ±30%.
    expect(verdict({ ratio: 1.013, lo: 0.62, hi: 1.17 })).toBe('undecided');
    expect(verdict({ ratio: 1.15, lo: 0.9, hi: 1.4 })).toBe('undecided');
    expect(verdict({ ratio: 1.15, lo: 1.1, hi: 1.2 })).toBe('outside');
    expect(verdict({ ratio: 0.95, lo: 0.93, hi: 0.975 })).toBe('outside');
    expect(meetsTarget({ ratio: 1.019, lo: 1.01, hi: 1.03 })).toBe(true);
    expect(meetsTarget({ ratio: 1.013, lo: 0.62, hi: 1.17 })).toBe(false);
  });

  it('orders ok before undecided before outside, each by distance from 1 on the log scale', () => {
    const ok = { ratio: 0.99, lo: 0.98, hi: 1.0 };
    const undecided = { ratio: 1.0, lo: 0.8, hi: 1.2 };
    const nearMiss = { ratio: 1.025, lo: 1.021, hi: 1.029 };
    const farMiss = { ratio: 0.85, lo: 0.8, hi: 0.9 };
    expect(badness(ok)).toBeLessThan(badness(undecided));
    expect(badness(undecided)).toBeLessThan(badness(nearMiss));
    expect(badness(nearMiss)).toBeLessThan(badness(farMiss));
    expect(badness({ ratio: 0.9, lo: 0.85, hi: 0.95 })).toBeGreaterThan(
      badness({ ratio: 1.1, lo: 1.05, hi: 1.15 }) - 0.01,
    );
  });
});
