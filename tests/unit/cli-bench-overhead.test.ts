import { describe, expect, it } from 'vitest';
import { OVERHEAD_USAGE, parseOverheadArgs } from '../../src/cli/bench-overhead.ts';

describe('bench:overhead flags', () => {
  it('defaults to 100 alternating rounds of 4 samples (+1 warm-up) of 10,000 documents, built fresh, no split', () => {
    expect(parseOverheadArgs([])).toEqual({ help: false, rounds: 100, samples: 4, warmup: 1, size: 10_000, build: true, split: false });
  });

  it('takes every flag the usage names', () => {
    const args = parseOverheadArgs(['--rounds', '7', '--samples', '3', '--warmup', '0', '--size', '500', '--split', '--out', 'o.json', '--no-build']);
    expect(args).toEqual({ help: false, rounds: 7, samples: 3, warmup: 0, size: 500, build: false, split: true, out: 'o.json' });
    for (const flag of ['--rounds', '--samples', '--warmup', '--size', '--split', '--out', '--no-build']) expect(OVERHEAD_USAGE).toContain(flag);
  });

  it('refuses a bad number with its allowed range, and an unknown flag with the allowed ones', () => {
    expect(() => parseOverheadArgs(['--rounds', '0'])).toThrow('--rounds: "0" is not a whole number from 1 to 1000');
    expect(() => parseOverheadArgs(['--size', '1e4'])).toThrow('--size: "1e4" is not a whole number from 1 to 1000000');
    expect(() => parseOverheadArgs(['--samples'])).toThrow('--samples needs a value, e.g. --samples 4');
    expect(() => parseOverheadArgs(['--out'])).toThrow('--out needs a value, e.g. --out overhead.json');
    expect(() => parseOverheadArgs(['--out', '--split'])).toThrow('--out needs a value, e.g. --out overhead.json');
    expect(() => parseOverheadArgs(['--fast'])).toThrow('unknown flag --fast; allowed: --rounds, --samples, --warmup, --size, --out, --split, --no-build, --help');
  });
});
