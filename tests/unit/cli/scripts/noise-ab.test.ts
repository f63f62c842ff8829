// The flags of npm run noise-ab (src/cli/scripts/noise-ab.ts).
import { describe, expect, it } from 'vitest';
import { parseNoiseAbArgs } from '../../../../src/cli/scripts/noise-ab.ts';

describe('noise-ab - flags', () => {
  it('takes the on arm cures and leaves --browsers and --out to itself', () => {
    expect(parseNoiseAbArgs(['--cures', 'gc', '--', '--budget', '60s']).cures).toEqual(['gc']);
    expect(() => parseNoiseAbArgs(['--', '--budget', '60s'])).toThrow(/name the cures/);
    expect(() => parseNoiseAbArgs(['--', '--cures', 'gc'])).toThrow(/before --/);
    expect(() => parseNoiseAbArgs(['--cures', 'none'])).toThrow(/at least one cure/);
  });
});
