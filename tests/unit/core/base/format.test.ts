import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatClock,
  formatDuration,
  formatMeasuredDuration,
  formatMs,
  formatRate,
  formatStep,
  oneLine,
} from '../../../../src/core/base/format.ts';

describe('formatMs', () => {
  it('keeps three significant figures', () => {
    expect(formatMs(1234.5)).toBe('1235');
    expect(formatMs(12.34)).toBe('12.3');
    expect(formatMs(4.2109)).toBe('4.21');
    expect(formatMs(0.412)).toBe('0.412');
    expect(formatMs(0.0412)).toBe('0.0412');
    expect(formatMs(0)).toBe('0.000');
  });

  it('shows a dash for a number that is missing or not finite', () => {
    expect(formatMs(null)).toBe('—');
    expect(formatMs(undefined)).toBe('—');
    expect(formatMs(Number.POSITIVE_INFINITY)).toBe('—');
  });
});

describe('formatDuration, formatClock, formatMeasuredDuration', () => {
  it('formatClock: a clock for elapsed time', () => {
    expect(formatClock(0)).toBe('0:00');
    expect(formatClock(7_400)).toBe('0:07');
    expect(formatClock(754_000)).toBe('12:34');
    expect(formatClock(3_723_000)).toBe('1:02:03');
  });

  it('formatDuration: a budget as the flag takes it', () => {
    expect(formatDuration(240_000)).toBe('4m');
    expect(formatDuration(3_690_000)).toBe('1h1m30s');
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(250)).toBe('250ms');
  });

  it('formatMeasuredDuration: the unit that keeps it readable', () => {
    expect(formatMeasuredDuration(41.52)).toBe('41.5 ms');
    expect(formatMeasuredDuration(0.0032)).toBe('3.2 µs');
    expect(formatMeasuredDuration(0.0000125)).toBe('12.5 ns');
    expect(formatMeasuredDuration(0)).toBe('0 ms');
    expect(formatMeasuredDuration(null)).toBe('—');
  });
});

describe('formatBytes, formatRate, formatStep, oneLine', () => {
  it('formatBytes: binary units', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(30 * 1024)).toBe('30 KiB');
    expect(formatBytes(3_600_000)).toBe('3.43 MiB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5 GiB');
    expect(formatBytes(null)).toBe('—');
  });

  it('formatRate, formatStep: three significant digits', () => {
    expect(formatRate(12_345)).toBe('12,300');
    expect(formatRate(Number.POSITIVE_INFINITY)).toBe('—');
    expect(formatStep(0.005000000001)).toBe('0.005 ms');
    expect(formatStep(0)).toBe('unknown');
  });

  it('oneLine: one line, cut with an ellipsis', () => {
    expect(oneLine('a\n  b\tc', 10)).toBe('a b c');
    expect(oneLine('abcdefghijk', 5)).toBe('abcd…');
  });
});
