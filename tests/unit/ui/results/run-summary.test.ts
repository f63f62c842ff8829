import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTO } from '../../../../src/core/plan/defaults.ts';
import type { CaseResult } from '../../../../src/core/results/results.ts';
import { timeLeftText } from '../../../../src/ui/status/progress.ts';
import { formatElapsed, runSummaryText } from '../../../../src/ui/results/run-summary.ts';
import { summarize } from '../../../../src/core/stats/stats.ts';
import { sampleResults } from '../../../sample-results.ts';

type OkRow = Extract<CaseResult, { status: 'ok' }>;

describe('run summary', () => {
  it('gives the time the run took and the precision of its medians against the fixed-sampling bar of 2%', () => {
    // sampleResults' one ok row has 3 samples: too few for an interval of the median.
    expect(runSummaryText(sampleResults(), 4210)).toBe(
      'Took 4.2 s. Precision: the median row has no interval (fewer than 6 samples); 0 of 1 ok rows within ±2%; 0 within ±5%; 1 with too few samples for an interval. Noise: within-pass log-sd 0.256 at the median row (of 1): about ±29.2% per sample.',
    );
  });

  it("counts against the plan's target, names the budget, and says when the run was cancelled", () => {
    const r = sampleResults();
    r.run.plan = { ...r.run.plan, auto: { ...DEFAULT_AUTO, targetRelCi: 0.01 }, budgetMs: 240_000 };
    r.run.cancelled = true;
    (r.cases[0] as OkRow).precision = 0.008;
    expect(runSummaryText(r, 232_400)).toBe(
      'Cancelled after 3m52s (sampling budget 4m). Precision: median row ±0.8% (95% interval of the median); 1 of 1 ok rows within ±1%; 1 within ±5%. Noise: within-pass log-sd 0.256 at the median row (of 1): about ±29.2% per sample.',
    );
  });

  it('says how far the passes differ when the rows have passes', () => {
    const r = sampleResults();
    const samples = [10, 10.1, 10.2, 9.9, 11, 11.1, 11.2, 10.9];
    r.cases[0] = {
      ...(r.cases[0] as OkRow),
      samples,
      samplesPerPass: [4, 4],
      stats: summarize(samples),
    };
    expect(runSummaryText(r, 4210)).toMatch(
      /within ±5%\. The passes differ by τ \d+(\.\d)?% \(median over rows, a standard deviation\): ±\d+(\.\d)?% of an interval, which only more passes narrow\. Noise: within-pass log-sd 0\.0\d\d at the median row \(of 1\): about ±\d(\.\d)?% per sample\.$/,
    );
  });

  it('writes short runs to a tenth of a second and long ones to the second', () => {
    expect(formatElapsed(950)).toBe('0.9 s');
    expect(formatElapsed(59_940)).toBe('59.9 s');
    expect(formatElapsed(3_723_400)).toBe('1h2m3s');
  });
});

describe('page progress - time left', () => {
  it('extrapolates the pace so far, once there is enough of the run to tell', () => {
    expect(timeLeftText(60_000, 0.25)).toBe('~3m left');
    expect(timeLeftText(10_000, 0.5)).toBe('~10s left');
    expect(timeLeftText(1000, 0.5)).toBe('estimating time left…');
    expect(timeLeftText(60_000, 0.01)).toBe('estimating time left…');
    expect(timeLeftText(60_000, 1)).toBe('');
  });
});
