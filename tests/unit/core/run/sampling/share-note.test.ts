// "Costly rows": the note counts the passes a row sampled in, not its samples. A row with 13
// samples in a 12-pass plan read "one in each of 13 passes".
import { describe, expect, it } from 'vitest';
import { shareNote } from '../../../../../src/core/run/sampling/share.ts';

describe('share - a costly row in words', () => {
  const share = { sampleMs: 1500, shareMs: 2400 };
  it('13 samples over 12 passes are 13 samples in 12 passes', () => {
    const perPass = [2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    expect(shareNote(share, 13, perPass)).toContain('13 samples in 12 passes');
    expect(shareNote(share, 13, perPass)).not.toContain('each of 13');
  });
  it('one sample in each pass it sampled in, passes it skipped not counted', () => {
    expect(shareNote(share, 4, [1, 0, 1, 0, 1, 0, 1, 0])).toContain('one in each of 4 passes');
  });
});
