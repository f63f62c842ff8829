/**
 * Every output a command writes is checked before any work, by the one shared check
 * (files/output.ts checkOutputs), so no command runs its whole work and then fails to write, as
 * check once ran the whole contract and exited 0 with a --summary it could not write. This walks every flag a command or script declares as
 * an output (FlagSpec.output) and gives it a path that cannot be written: a file in a folder that
 * does not exist, a folder below a regular file. Each must refuse with exit 2 and one line naming
 * the path, print nothing on stdout (the commands that build a page or start a browser say so
 * there first) and make nothing.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CommandIo } from '../../../../src/cli/args/command-io.ts';
import type { FlagSpec } from '../../../../src/cli/args/flags.ts';
import { SWEEP_FLAGS } from '../../../../src/cli/args/sweep-flags.ts';
import { CALIBRATE_FLAGS, calibrateCommand } from '../../../../src/cli/commands/calibrate.ts';
import { CHECK_FLAGS, checkCommand } from '../../../../src/cli/commands/check/main.ts';
import { EXPORT_FLAGS, exportCommand } from '../../../../src/cli/commands/export.ts';
import { MERGE_FLAGS, mergeCommand } from '../../../../src/cli/commands/merge.ts';
import { SITE_FLAGS, siteCommand } from '../../../../src/cli/commands/site.ts';
import { STUDY_FLAGS, studyCommand } from '../../../../src/cli/commands/study/main.ts';
import { sweepCommand } from '../../../../src/cli/commands/sweep/main.ts';
import { benchOverhead, OVERHEAD_FLAGS } from '../../../../src/cli/scripts/bench-overhead/main.ts';
import { NOISE_AB_FLAGS, noiseAbCommand } from '../../../../src/cli/scripts/noise-ab.ts';
import { STUDY_IDS } from '../../../../src/studies/index.ts';

const SRC = fileURLToPath(new URL('../../../../src/cli/', import.meta.url));
const RUN = fileURLToPath(
  new URL('../../../../results/2026-11-25T05-53-44Z-0e33-chromium.json', import.meta.url),
);
const dir = mkdtempSync(join(tmpdir(), 'storebench-outputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** bench:overhead prints to the process's streams, not through a CommandIo: caught here. */
async function onProcessStreams(run: () => Promise<number>, io: CommandIo): Promise<number> {
  const out = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((t) => (io.stdout(String(t)), true));
  const err = vi
    .spyOn(process.stderr, 'write')
    .mockImplementation((t) => (io.stderr(String(t)), true));
  try {
    return await run();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

interface Writer {
  /** The name its lines start with. */
  name: string;
  flags: Readonly<Record<string, FlagSpec>>;
  /** Everything but the output flag (which goes first: calibrate passes what follows -- to its sweeps). */
  argv: string[];
  run: (argv: string[], io: CommandIo) => Promise<number> | number;
}

/** Every command and script that takes an output flag. */
const WRITERS: Writer[] = [
  {
    name: 'sweep',
    flags: SWEEP_FLAGS,
    argv: ['--browsers', 'chromium', '--suites', 'insert', '--adapters', 'memory'],
    run: sweepCommand,
  },
  {
    name: 'check',
    flags: CHECK_FLAGS,
    argv: ['memory', '--browsers', 'chromium'],
    run: checkCommand,
  },
  { name: 'study', flags: STUDY_FLAGS, argv: [STUDY_IDS[0] as string], run: studyCommand },
  {
    name: 'calibrate',
    flags: CALIBRATE_FLAGS,
    argv: ['--runs', '1', '--', '--ab', 'idb,idb'],
    run: calibrateCommand,
  },
  { name: 'merge', flags: MERGE_FLAGS, argv: [RUN], run: mergeCommand },
  { name: 'export', flags: EXPORT_FLAGS, argv: [RUN, '--format', 'csv'], run: exportCommand },
  { name: 'site', flags: SITE_FLAGS, argv: [RUN], run: siteCommand },
  {
    name: 'noise-ab',
    flags: NOISE_AB_FLAGS,
    argv: ['--runs', '1', '--cures', 'gc', '--', '--suites', 'insert'],
    run: noiseAbCommand,
  },
  {
    name: 'bench:overhead',
    flags: OVERHEAD_FLAGS,
    argv: ['--browsers', 'chromium', '--rounds', '1'],
    run: (argv, io) => onProcessStreams(() => benchOverhead(argv), io),
  },
];

/**
 * The commands that write no file a flag names: they print, or serve; init writes its two files
 * into the working directory, which init.test.ts checks in the same way.
 */
const WRITE_NO_OUTPUT_FLAG = ['browsers', 'compare', 'history', 'init', 'serve'];

/** A regular file, below which no folder can be made. */
const aFile = join(dir, 'a-file');
writeFileSync(aFile, 'mine');

describe('outputs - every command checks them before any work', () => {
  it('knows every command: each writes through an output flag, or writes none', () => {
    const commands = readdirSync(join(SRC, 'commands')).map((n) => n.replace(/\.ts$/, ''));
    const known = [...WRITERS.map((w) => w.name), ...WRITE_NO_OUTPUT_FLAG];
    expect(commands.filter((c) => !known.includes(c))).toEqual([]);
    // A command without an output flag writes no file of its own choosing (init's are fixed).
    for (const name of WRITE_NO_OUTPUT_FLAG.filter((n) => n !== 'init')) {
      const source = readFileSync(join(SRC, 'commands', `${name}.ts`), 'utf8');
      expect(source, name).not.toMatch(/writeAtomically|writeFileSync|createWriteStream/);
    }
  });

  for (const writer of WRITERS) {
    const outputs = Object.entries(writer.flags).filter(([, spec]) => spec.output !== undefined);
    it(`${writer.name} declares its output flags`, () => {
      expect(outputs.length).toBeGreaterThan(0);
    });
    for (const [flag, spec] of outputs) {
      it(`${writer.name} --${flag} (a ${spec.output}) that cannot be written: exit 2, one line, nothing run or made`, async () => {
        const bad =
          spec.output === 'file'
            ? join(dir, 'no-such-folder', `${writer.name}-${flag}.out`)
            : join(aFile, `${writer.name}-${flag}`);
        const before = readdirSync(dir).sort();
        const said = { stdout: '', stderr: '' };
        const code = await writer.run([`--${flag}`, bad, ...writer.argv], {
          stdout: (t) => (said.stdout += t),
          stderr: (t) => (said.stderr += t),
        });
        expect(code, said.stderr).toBe(2);
        expect(said.stdout).toBe('');
        expect(said.stderr).toMatch(new RegExp(`^${writer.name}: [^\\n]+\\n$`));
        expect(said.stderr).toContain(bad);
        expect(said.stderr).toMatch(
          spec.output === 'file' ? /its folder does not exist/ : /not a folder|is a file/,
        );
        // site names the folder, not the flag: its own message for its own rules (build/site.ts).
        if (writer.name !== 'site') expect(said.stderr).toContain(`--${flag}`);
        expect(readdirSync(dir).sort()).toEqual(before);
        expect(readFileSync(aFile, 'utf8')).toBe('mine');
      });
    }
  }
});
