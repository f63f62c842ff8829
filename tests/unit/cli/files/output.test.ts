/**
 * writeAtomically's temporary file: created exclusively under a name no one can predict, so a
 * symbolic link planted beside the target is never followed; and removed when the write fails.
 */
import { spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeAtomically } from '../../../../src/cli/files/output.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'storebench-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A file the attacker wants overwritten, and a symbolic link to it at `name` beside the target. */
function plant(name: string): string {
  const victim = join(dir, 'victim.txt');
  writeFileSync(victim, 'precious');
  symlinkSync(victim, join(dir, name));
  return victim;
}

describe('writeAtomically - temporary files', () => {
  it('does not follow a symbolic link planted at the old predictable name (.NAME.PID.tmp)', () => {
    const target = join(dir, 'out.csv');
    const victim = plant(`.out.csv.${process.pid}.tmp`);
    writeAtomically(target, 'data');
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(target).isFile()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('data');
  });

  it('refuses a name that is taken (O_EXCL), leaves what is there alone and takes another name', () => {
    const target = join(dir, 'out.csv');
    const victim = plant('.out.csv.guessed.tmp');
    const names = ['guessed', 'fresh'];
    writeAtomically(target, 'data', () => names.shift() as string);
    expect(names).toEqual([]);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readlinkSync(join(dir, '.out.csv.guessed.tmp'))).toBe(victim);
    expect(readFileSync(target, 'utf8')).toBe('data');
    expect(readdirSync(dir).sort()).toEqual(['.out.csv.guessed.tmp', 'out.csv', 'victim.txt']);
  });

  it('leaves no temporary file when the write fails (a file-size limit, as a full disk would)', () => {
    const source = join(
      ROOT,
      'results',
      readdirSync(join(ROOT, 'results')).find((f) => f.endsWith('-chromium.json'))!,
    );
    const out = join(dir, 'samples.csv');
    // ulimit -f holds for root too, where a read-only folder would not stop the write.
    const r = spawnSync(
      'sh',
      [
        '-c',
        'ulimit -f 8 && exec "$@"',
        'sh',
        process.execPath,
        '--import',
        'tsx',
        join(ROOT, 'src/cli/commands/export.ts'),
        source,
        '--format',
        'csv',
        '--samples',
        '--out',
        out,
      ],
      { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(r.status, r.stderr).toBe(2);
    expect(readdirSync(dir)).toEqual([]);
    expect(r.stderr.trimEnd()).toBe(
      `export: cannot write ${out}: the file is larger than this process may write (its file-size limit, ulimit -f)`,
    );
  });
});
