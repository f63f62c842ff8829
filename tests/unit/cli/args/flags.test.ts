import { describe, expect, it } from 'vitest';
import { parseSweepArgs } from '../../../../src/cli/commands/sweep/args.ts';
import { parseOverheadArgs } from '../../../../src/cli/scripts/bench-overhead/main.ts';
import { parseExportArgs } from '../../../../src/cli/commands/export.ts';
import { ArgsError, scanFlags } from '../../../../src/cli/args/flags.ts';
import { parseMergeArgs } from '../../../../src/cli/commands/merge.ts';
import type { PlanVocabulary } from '../../../../src/core/plan/plan.ts';

const vocab: PlanVocabulary = {
  suites: ['insert'],
  adapters: ['memory'],
  fixtures: ['person'],
  cases: {},
  params: {},
} as unknown as PlanVocabulary;

/** Every command parses through scanFlags, so one mistake reads the same in each of them. */
const COMMANDS: [string, (argv: string[]) => unknown, string[]][] = [
  ['sweep', (argv) => parseSweepArgs(argv, vocab, ['chromium']), []],
  ['export', (argv) => parseExportArgs(argv), ['a.json']],
  ['merge', (argv) => parseMergeArgs(argv), ['a.json']],
  ['bench:overhead', (argv) => parseOverheadArgs(argv), []],
];

describe('cli flags - one scanner for every command', () => {
  it.each(COMMANDS)(
    '%s words a repeated, valueless or unknown flag the same way',
    (_name, parse, files) => {
      const error = (argv: string[]) => {
        try {
          parse([...files, ...argv]);
        } catch (e) {
          expect(e).toBeInstanceOf(ArgsError);
          return (e as Error).message;
        }
        return 'no error';
      };
      expect(error(['--out', 'a', '--out', 'b'])).toMatch(
        /^--out is given more than once; give it once/,
      );
      expect(error(['--out'])).toMatch(/^--out needs a value, e\.g\. --out \S+/);
      expect(error(['--out', '--help-me'])).toMatch(/^--out needs a value/);
      expect(error(['--ouy', 'x'])).toMatch(
        /^unknown flag --ouy \(did you mean --out\?\); allowed: .*--out.*--help$/,
      );
      expect(error(['-q'])).toMatch(/^unknown flag -q; allowed: /);
    },
  );

  it('lets --help win over any mistake, and -h mean --help', () => {
    for (const [, parse] of COMMANDS) {
      expect(parse(['--frob', '--help'])).toMatchObject({ help: true });
      expect(parse(['-h'])).toMatchObject({ help: true });
    }
  });

  it('keeps positionals only where the command takes them, and after -- as plain words', () => {
    expect(() => scanFlags(['x.json'], {})).toThrow(
      'unexpected argument "x.json"; flags start with --',
    );
    expect(
      scanFlags(['--', '--not-a-flag.json'], {}, { positionals: 'files' }).positionals,
    ).toEqual(['--not-a-flag.json']);
    expect(scanFlags(['--auto=ci:1%'], { auto: { kind: 'switch=' } }).values.get('auto')).toBe(
      'ci:1%',
    );
    expect(scanFlags(['--auto'], { auto: { kind: 'switch=' } }).values.get('auto')).toBe(true);
    expect(() => scanFlags(['--bom=yes'], { bom: { kind: 'switch' } })).toThrow(
      '--bom takes no value, got "yes"',
    );
  });
});
