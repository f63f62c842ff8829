// One grammar for percentages (src/core/base/percent.ts): what it writes, it reads back.
import { describe, expect, it } from 'vitest';
import { formatPercent, parsePercent } from '../../../../src/core/base/percent.ts';

describe('parsePercent, formatPercent', () => {
  const range = { min: 0.01, max: 99.99, decimals: 2 };
  it('reads what it writes, and nothing else', () => {
    for (let hundredths = 1; hundredths <= 9999; hundredths += 37) {
      const pct = hundredths / 100;
      expect(parsePercent(formatPercent(pct), range)).toBe(pct);
    }
    for (const bad of ['1e-7', '0.001', '100', '-1', '5%%', '', '%', '5.', '.5', '1,5', 'Infinity'])
      expect(parsePercent(bad, range), bad).toBeNull();
  });
});
