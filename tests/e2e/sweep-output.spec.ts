/**
 * An --out that cannot take the results: checked before the first sample, and when it fails
 * anyway at the end (a disk that fills up), the rows go to a fallback folder the sweep names.
 * Real file systems: tmpfs mounts, read-only or small, which only root can make.
 */
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseResults } from '../../src/core/results/recompute.ts';
import { sweep } from './sweep-process.ts';

test.describe.configure({ mode: 'serial' });

const root = process.getuid?.() === 0;

/** A tmpfs of `size` at a new folder, read-only with `ro`; unmounted and removed by the returned function. */
function mountTmpfs(size: string, ro = false): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'storebench-mnt-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}${ro ? ',ro' : ''}`, 'tmpfs', dir]);
  return {
    dir,
    remove: () => {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('sweep - a read-only --out stops the sweep with exit 2 before the page is built or a browser starts', async () => {
  test.skip(!root, 'mounting a read-only tmpfs needs root');
  const mnt = mountTmpfs('1m', true);
  try {
    const t0 = Date.now();
    const run = await sweep(
      [
        '--browsers',
        'chromium',
        '--suites',
        'insert',
        '--adapters',
        'idb,memory',
        '--budget',
        '20s',
        '--out',
        mnt.dir,
      ],
      60_000,
    );
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(2);
    expect(run.stderr).toContain(
      `--out ${mnt.dir}: cannot write there: the file system is read-only`,
    );
    expect(run.stdout).not.toContain('building the page');
    expect(run.stdout).not.toContain('starting the browser');
    // Seconds, not a sweep: only the plan check (a child process that loads the registries) runs first.
    expect(Date.now() - t0).toBeLessThan(45_000);
  } finally {
    mnt.remove();
  }
});

test('sweep - an --out too small for the results keeps every row in a fallback folder the sweep names, and exits 1', async () => {
  test.skip(!root, 'mounting a small tmpfs needs root');
  test.setTimeout(240_000);
  // Room for the rows' least (3 KiB each) but not for 300 samples of each in the results file beside its partial file.
  const mnt = mountTmpfs('16k');
  let rescued: string | undefined;
  try {
    const run = await sweep(
      [
        '--browsers',
        'chromium',
        '--suites',
        'insert',
        '--cases',
        'bulk,serial',
        '--adapters',
        'memory',
        '--sizes',
        '20',
        '--iterations',
        '300',
        '--out',
        mnt.dir,
      ],
      200_000,
    );
    const log = `${run.stdout}\n${run.stderr}`;
    expect(run.code, log).toBe(1);
    const said =
      /--out could not take them \(cannot write \S+: the disk is full\): they are in (\S+),/.exec(
        run.stdout,
      );
    expect(said, log).not.toBeNull();
    const fallback = (said as RegExpExecArray)[1] as string;
    rescued = fallback;
    expect(run.stdout).toContain('FAILED: the results could not all be written to --out');
    const name = readdirSync(fallback).find((f) => f.endsWith('-chromium.json'));
    expect(name, readdirSync(fallback).join(', ')).toBeDefined();
    const results = parseResults(readFileSync(join(fallback, name as string), 'utf8'), name);
    expect(results.cases.map((c) => [c.case, c.status, c.samples.length]).sort()).toEqual([
      ['bulk', 'ok', 300],
      ['serial', 'ok', 300],
    ]);
    // No half-written temporary file is left in --out.
    expect(readdirSync(mnt.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  } finally {
    mnt.remove();
    if (rescued) rmSync(rescued, { recursive: true, force: true });
  }
});
