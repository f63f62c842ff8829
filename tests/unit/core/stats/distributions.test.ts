// Student's t distribution function, against values from closed forms and tables.
import { describe, expect, it } from 'vitest';
import { regularizedBeta, studentTCdf } from '../../../../src/core/stats/distributions.ts';
import { tQuantile95 } from '../../../../src/core/stats/stats.ts';

describe('distributions', () => {
  it("Student's t matches its closed forms", () => {
    for (const t of [-4, -1.5, -0.2, 0, 0.7, 2, 9]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 12);
      const th = Math.atan(t / Math.sqrt(3));
      expect(studentTCdf(t, 3)).toBeCloseTo(0.5 + (th + Math.sin(th) * Math.cos(th)) / Math.PI, 12);
    }
  });

  it('puts 97.5% below the tabled 95% quantile', () => {
    for (const df of [1, 2, 3, 5, 6, 11, 29, 30, 60, 200])
      expect(studentTCdf(tQuantile95(df), df)).toBeCloseTo(0.975, 6);
  });

  it('regularizedBeta is I_x(a, b)', () => {
    expect(regularizedBeta(0.3, 2, 5)).toBeCloseTo(1 - regularizedBeta(0.7, 5, 2), 12);
    expect(regularizedBeta(0.4, 3, 1)).toBeCloseTo(0.4 ** 3, 12);
    expect(regularizedBeta(0, 2, 2)).toBe(0);
    expect(regularizedBeta(1, 2, 2)).toBe(1);
  });
});
