// The gate's rule over whole simulated --ab runs (tests/unit/helpers/simulated-ab.ts): rows
// sampled pass by pass, stopped at a planned look only when shown same or faster, judged over
// the family at the end. Seeded, so each figure is the same every run; docs/method.md quotes them
// ("The gate's error rates"). Slow: thousands of families of 25 rows.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../../fixtures/random.ts';
import { abDecision, type AbRow } from '../../../../src/core/verdicts/ab.ts';
import { pairedRatioAtEnd } from '../../../../src/core/stats/paired.ts';
import { detectableSlowdown } from '../../../../src/core/verdicts/change.ts';
import { studentTQuantile } from '../../../../src/core/stats/distributions.ts';
import {
  gauss,
  launchPassLogs,
  report,
  simulatedRun,
  type RunShape,
} from '../../helpers/simulated-ab.ts';

/**
 * Per-pass scatter of B/A on identical code here: a log-sd of 0.13 in Firefox's A/A at the
 * default budget, about 0.06 with the page on its own core (docs/figures.md, "A against B").
 */
const SHAPES: RunShape[] = [
  { rows: 25, passes: 12, thresholdPct: 5, sigma: 0.13, heavy: false },
  { rows: 25, passes: 12, thresholdPct: 5, sigma: 0.06, heavy: false },
  { rows: 25, passes: 12, thresholdPct: 5, sigma: 0.13, heavy: true },
];
const RUNS = 2000;
const name = (o: RunShape) => `σ ${o.sigma}${o.heavy ? ', t₄ tails' : ''}`;

describe('the A/B rule over simulated runs of 25 rows', () => {
  for (const shape of SHAPES) {
    it(`fails identical code in at most 5% of ${RUNS} runs (${name(shape)})`, () => {
      const rng = createRng(1000 + Math.round(shape.sigma * 100) + (shape.heavy ? 1 : 0));
      let fails = 0;
      for (let i = 0; i < RUNS; i++) if (simulatedRun(rng, shape).outcome === 'fail') fails++;
      report(`${name(shape)}: identical code failed ${fails} of ${RUNS} runs`);
      expect(fails / RUNS).toBeLessThanOrEqual(0.05);
    });

    it(`catches one row slowed by its detectable slowdown about 80% of the time (${name(shape)})`, () => {
      const rng = createRng(2000 + Math.round(shape.sigma * 100) + (shape.heavy ? 1 : 0));
      const se = shape.sigma / Math.sqrt(shape.passes);
      const rho = detectableSlowdown(
        { log: 0, se, df: shape.passes - 1, lo: 0, hi: 0 },
        shape.thresholdPct,
        shape.rows,
      );
      let caught = 0;
      for (let i = 0; i < RUNS; i++)
        if (simulatedRun(rng, shape, [Math.log(rho)]).rows[0]?.verdict === 'slower') caught++;
      report(`${name(shape)}: a row ×${rho.toFixed(3)} slower was caught in ${caught} of ${RUNS}`);
      // Exact for normal noise (change.ts powerAt): 80% within two binomial standard errors.
      expect(caught / RUNS).toBeGreaterThan(0.8 - 2 * Math.sqrt(0.16 / RUNS));
      expect(caught / RUNS).toBeLessThan(0.9);
    });
  }

  it('fails a run whose rows are all 10% slower in at least 95% of runs at σ 0.13', () => {
    const rng = createRng(3000);
    const shape = SHAPES[0] as RunShape;
    let fails = 0;
    for (let i = 0; i < 500; i++)
      if (simulatedRun(rng, shape, Array(25).fill(Math.log(1.1))).outcome === 'fail') fails++;
    report(`+10% on every row: failed ${fails} of 500 runs`);
    expect(fails / 500).toBeGreaterThanOrEqual(0.95);
  });

  it('fails identical code in at most 5% of runs whose launches carry shared, row and store effects and stalls', () => {
    const rng = createRng(3001);
    let fails = 0;
    for (let i = 0; i < 1000; i++) {
      const rows: AbRow[] = Array.from({ length: 25 }, (_, k) => ({
        browser: 'sim',
        suite: 's',
        case: `c${k}`,
        size: 1,
        params: {},
        a: 'A',
        b: 'B',
        ratio: pairedRatioAtEnd(launchPassLogs(rng, 0, 12)),
        verdict: 'undecided',
        pSlower: 1,
        detectable: null,
      }));
      if (abDecision(rows, 5).outcome === 'fail') fails++;
    }
    report(`launch effects and stalls: identical code failed ${fails} of 1000 runs`);
    expect(fails / 1000).toBeLessThanOrEqual(0.05);
  });

  it('catches its detectable slowdown 80% of the time in a million rows of normal noise, as its integral says', () => {
    // The rule on one row alone, without looks: the power the detectable slowdown is stated at.
    const rng = createRng(3002);
    const [sigma, n, family] = [0.13, 12, 25];
    const se = sigma / Math.sqrt(n);
    const rho = detectableSlowdown({ log: 0, se, df: n - 1, lo: 0, hi: 0 }, 5, family);
    const critical = studentTQuantile(1 - 0.05 / family, n - 1);
    const rows = 1_000_000;
    let caught = 0;
    for (let i = 0; i < rows; i++) {
      let sum = 0;
      let squares = 0;
      for (let k = 0; k < n; k++) {
        const x = Math.log(rho) + sigma * gauss(rng);
        sum += x;
        squares += x * x;
      }
      const mean = sum / n;
      const sd = Math.sqrt((squares - n * mean * mean) / (n - 1));
      if (mean > Math.log(1.05) && mean / (sd / Math.sqrt(n)) > critical) caught++;
    }
    report(`one row ×${rho.toFixed(4)} slower, alone: caught in ${caught} of ${rows}`);
    expect(Math.abs(caught / rows - 0.8)).toBeLessThan(0.002);
  });
});
