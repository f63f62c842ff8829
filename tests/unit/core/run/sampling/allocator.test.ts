import { describe, expect, it } from 'vitest';
import {
  passShareUsed,
  pickRound,
  stopReason,
  type RowGauge,
} from '../../../../../src/core/run/sampling/allocator.ts';

const gauge = (over: Partial<RowGauge>): RowGauge => ({
  n: 10,
  precision: 0.05,
  costMs: 10,
  spentMs: 100,
  ...over,
});
const auto = { targetRelCi: 0.02, minN: 6, maxN: 100, maxMs: 1000 };

describe('pickRound', () => {
  it('samples the widest row first when samples cost the same', () => {
    const rows = [
      gauge({ precision: 0.03 }),
      gauge({ precision: 0.09 }),
      gauge({ precision: 0.05 }),
    ];
    expect(pickRound(rows)[0]).toBe(rows[1]);
  });

  it('weighs width by cost: a cheap, narrower row goes first', () => {
    const wideButDear = gauge({ precision: 0.1, costMs: 1000 });
    const cheap = gauge({ precision: 0.04, costMs: 10 });
    expect(pickRound([wideButDear, cheap])[0]).toBe(cheap);
  });

  it('gives a tie to the row with fewer samples', () => {
    const a = gauge({ n: 20 });
    const b = gauge({ n: 12 });
    expect(pickRound([a, b])[0]).toBe(b);
  });

  it('picks no row from none', () => {
    expect(pickRound([])[0]).toBeUndefined();
  });

  it('gives a round to every row half as needy as the neediest', () => {
    const rows = [
      gauge({ precision: 0.04 }),
      gauge({ precision: 0.1 }),
      gauge({ precision: 0.06 }),
      gauge({ precision: 0.05 }),
    ];
    expect(pickRound(rows).map((r) => r.precision)).toEqual([0.1, 0.06, 0.05]);
    // Rows without an interval yet go before, and without, any row that has one.
    const fresh = [gauge({ n: 4, precision: null }), gauge({ n: 3, precision: null })];
    expect(pickRound([...rows, ...fresh])).toEqual([fresh[1], fresh[0]]);
    expect(pickRound([])).toEqual([]);
  });

  it('takes a row past its share of the pass last', () => {
    const hadShare = gauge({ precision: 0.3, passShareUsed: true });
    const other = gauge({ precision: 0.03 });
    expect(pickRound([hadShare, other])).toEqual([other]);
    expect(pickRound([hadShare])).toEqual([hadShare]);
  });
});

describe('stopReason, passShareUsed', () => {
  it('stops at the target only once the row has its minimum', () => {
    expect(stopReason(gauge({ n: 6, precision: 0.019 }), auto)).toBe('ci-target');
    expect(stopReason(gauge({ n: 5, precision: 0.019 }), { ...auto, minN: 8 })).toBeUndefined();
    expect(stopReason(gauge({ n: 6, precision: 0.03 }), auto)).toBeUndefined();
  });

  it('stops against a baseline once the change is decided', () => {
    expect(stopReason(gauge({ n: 6, precision: 0.019, decided: false }), auto)).toBeUndefined();
    expect(stopReason(gauge({ n: 6, precision: 0.3, decided: true }), auto)).toBe('decided');
    expect(
      stopReason(gauge({ n: 5, precision: 0.3, decided: true }), { ...auto, minN: 8 }),
    ).toBeUndefined();
  });

  it('stops at max N', () => {
    expect(stopReason(gauge({ n: 100 }), auto)).toBe('iterations');
  });

  it('stops before a sample that would pass the time cap, never below 2 samples', () => {
    expect(stopReason(gauge({ spentMs: 995, costMs: 10 }), auto)).toBe('time-cap');
    expect(stopReason(gauge({ n: 1, precision: null, spentMs: 5000 }), auto)).toBeUndefined();
  });

  it('gives a row whose passes disagree its largest earlier pass', () => {
    expect(passShareUsed([40, 12, 40], true)).toBe(true);
    expect(passShareUsed([40, 12, 39], true)).toBe(false);
    expect(passShareUsed([40, 12, 400], false)).toBe(false);
    // In the first pass there is nothing to disagree with.
    expect(passShareUsed([40], true)).toBe(false);
  });

  it('gives any row its share of a pass at its share of maxN', () => {
    // Whatever its passes do, a row has its share once it has maxN·pass/passes samples (1000 over 12 passes: 83 a pass).
    expect(passShareUsed([84], false, 1000, 12)).toBe(true);
    expect(passShareUsed([82], false, 1000, 12)).toBe(false);
    expect(passShareUsed([900, 70], false, 1000, 12)).toBe(true);
    expect(passShareUsed([90, 70], false, 1000, 12)).toBe(false);
  });

  it('does not stop a row at its share: its target and its caps do', () => {
    expect(stopReason(gauge({ n: 92, precision: 0.2, passShareUsed: true }), auto)).toBeUndefined();
    expect(stopReason(gauge({ n: 92, precision: 0.01, passShareUsed: true }), auto)).toBe(
      'ci-target',
    );
  });
});
