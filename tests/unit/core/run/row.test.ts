// One row of a run (src/core/run/row.ts): how a row cut short ends.
import { describe, expect, it } from 'vitest';
import { cutShort } from '../../../../src/core/run/row.ts';

describe('cutShort', () => {
  it('stops as cancelled, unless failed or capped; none below 2 samples', () => {
    const two = [1, 2];
    expect(cutShort({ state: { kind: 'sampling' }, samples: two })).toEqual({
      kind: 'stopped',
      why: 'cancelled',
    });
    expect(cutShort({ state: { kind: 'stopped', why: 'budget' }, samples: two })).toEqual({
      kind: 'stopped',
      why: 'cancelled',
    });
    expect(cutShort({ state: { kind: 'stopped', why: 'time-cap' }, samples: two })).toEqual({
      kind: 'stopped',
      why: 'time-cap',
    });
    expect(
      cutShort({ state: { kind: 'failed', status: 'timeout', reason: 'hung' }, samples: [] }),
    ).toEqual({ kind: 'failed', status: 'timeout', reason: 'hung' });
    expect(cutShort({ state: { kind: 'sampling' }, samples: [1] })).toBeNull();
  });
});
