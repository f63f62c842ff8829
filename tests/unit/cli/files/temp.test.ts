import { spawn, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  deepestBytes,
  removeStaleTempFolders,
  SHORT_TMP,
  SOCKET_PATH_MAX,
  STALE_AFTER_MS,
  TEMP_KINDS,
  tempBase,
  TempPathError,
  tempProblem,
} from '../../../../src/cli/files/temp.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const TEMP_MODULE = join(ROOT, 'src', 'cli', 'files', 'temp.ts');

const root = mkdtempSync(join(tmpdir(), 'sb-temp-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
/** An existing folder whose path is `length` bytes long. */
function folderOf(length: number): string {
  const path = join(root, 'd').padEnd(length, 'd');
  mkdirSync(path, { recursive: true });
  return path;
}

describe('temp folders - short enough for a browser socket', () => {
  it("counts Chromium's socket below the folder the browser gets as TMPDIR", () => {
    const base = folderOf(30);
    expect(deepestBytes(base, 'browser')).toBe(
      `${base}/storebench-${process.pid}-browser-XXXXXX/.org.chromium.Chromium.XXXXXX/SingletonSocket`
        .length,
    );
    expect(deepestBytes(base, 'profile')).toBe(
      `${base}/storebench-${process.pid}-profile-XXXXXX/tmp/.org.chromium.Chromium.XXXXXX/SingletonSocket`
        .length,
    );
  });

  it('uses TMPDIR when the socket fits below it', () => {
    const fits = folderOf(SOCKET_PATH_MAX - (deepestBytes(root, 'browser') - root.length));
    expect(deepestBytes(fits, 'browser')).toBe(SOCKET_PATH_MAX);
    expect(tempBase('browser', fits, join(root, 'missing'))).toBe(fits);
    expect(() => tempBase('browser', folderOf(fits.length + 1), join(root, 'missing'))).toThrow(
      TempPathError,
    );
  });

  it('falls back to the short system folder when TMPDIR is too long', () => {
    const long = folderOf(60);
    expect(deepestBytes(long, 'profile')).toBeGreaterThan(SOCKET_PATH_MAX);
    expect(tempBase('profile', long)).toBe(SHORT_TMP);
    expect(tempBase('browser', long)).toBe(SHORT_TMP);
    expect(tempProblem(long)).toBeNull();
  });

  it('does not fall back to a folder that is itself too long', () => {
    expect(() => tempBase('profile', folderOf(60), folderOf(61))).toThrow(TempPathError);
  });

  it('says TMPDIR is too long, with its length and the limit, when there is no fallback', () => {
    const long = folderOf(60);
    expect(() => tempBase('profile', long, join(root, 'missing'))).toThrow(TempPathError);
    const problem = tempProblem(long, join(root, 'missing'));
    expect(problem).toMatch(
      new RegExp(
        `^TMPDIR is too long for a browser: ${long} is 60 bytes, and Chromium's socket below it would be \\d+ bytes, over the 107-byte limit of a Unix socket path; ${root}/missing is not a writable folder short enough to use instead\\. Set TMPDIR to a folder of at most \\d+ bytes$`,
      ),
    );
  });
});

/** A node process that makes one folder of each kind in `base` (its TMPDIR), prints them, and waits. */
function folderMaker(
  base: string,
  started: ChildProcess[],
): Promise<{ child: ChildProcess; folders: string[] }> {
  const code = `import(${JSON.stringify(TEMP_MODULE)}).then((m) => { console.log(JSON.stringify(m.TEMP_KINDS.map((k) => m.makeTempFolder(k)))); setInterval(() => {}, 1000); });`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, TMPDIR: base },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  started.push(child);
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) ok({ child, folders: JSON.parse(out) as string[] });
    });
    child.on('exit', (code) =>
      fail(new Error(`the child exited (${code}) before printing its folders`)),
    );
  });
}

/** Make `path` look untouched for two minutes. */
function age(path: string): void {
  const then = new Date(Date.now() - 2 * 60_000);
  lutimesSync(path, then, then);
}

describe('temp folders - named for their process, removed once it is gone', () => {
  const children: ChildProcess[] = [];
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));
  const killed = async (c: ChildProcess) => {
    c.kill('SIGKILL');
    if (c.exitCode === null && c.signalCode === null) await new Promise((ok) => c.once('exit', ok));
  };

  it('a sweep killed with SIGKILL leaves folders the next process removes, and nothing else', async () => {
    const base = mkdtempSync(join(tmpdir(), 'sbk-'));
    const made: string[] = [];
    try {
      const { child, folders } = await folderMaker(base, children);
      made.push(...folders);
      const pid = child.pid!;
      // Each kind in the base tempBase picks for it: browser folders go to a shorter one when this base is too long.
      expect(folders.map((f) => f.replace(/[A-Za-z0-9]{6}$/, 'XXXXXX'))).toEqual(
        TEMP_KINDS.map((k) => join(tempBase(k, base), `storebench-${pid}-${k}-XXXXXX`)),
      );
      await killed(child);
      for (const f of folders) expect(existsSync(f), f).toBe(true);

      // What must stay: a young folder of the dead process, a folder of a live process (this one),
      // the old unnumbered names, an unknown kind, a file and a symbolic link under the pattern.
      const keep = [
        `storebench-${pid}-page-young1`,
        `storebench-${process.pid}-page-alive1`,
        'storebench-page-abc123',
        `storebench-${pid}-other-abc123`,
        'unrelated',
      ];
      for (const name of keep) mkdirSync(join(base, name));
      const outside = mkdtempSync(join(root, 'target'));
      writeFileSync(join(outside, 'precious'), 'x');
      writeFileSync(join(base, `storebench-${pid}-page-file01`), 'x');
      symlinkSync(outside, join(base, `storebench-${pid}-page-link01`));
      for (const name of [
        ...keep.slice(1),
        `storebench-${pid}-page-file01`,
        `storebench-${pid}-page-link01`,
      ])
        age(join(base, name));
      for (const f of folders) age(f);
      const before = readdirSync(base); // the decoys, and whatever else is there (tsx's cache)
      expect(before).toEqual(
        expect.arrayContaining([
          ...keep,
          ...folders.filter((f) => dirname(f) === base).map((f) => basename(f)),
        ]),
      );

      // The next process's first folder cleans up, as a sweep or a study does when it starts.
      const next = await folderMaker(base, children);
      made.push(...next.folders);
      await killed(next.child);
      for (const f of folders) expect(existsSync(f), f).toBe(false);
      const stale = new Set(folders.map((f) => basename(f)));
      const added = next.folders.filter((f) => dirname(f) === base).map((f) => basename(f));
      expect(readdirSync(base).sort()).toEqual(
        [...before.filter((n) => !stale.has(n)), ...added].sort(),
      );
      expect(readdirSync(outside)).toEqual(['precious']);
    } finally {
      for (const f of [...made, base]) rmSync(f, { recursive: true, force: true });
    }
  }, 60_000);

  it('removes only what it names, and only once the process is gone and a minute has passed', () => {
    const base = mkdtempSync(join(root, 'c'));
    const dead = join(base, 'storebench-999999999-browser-abcdef');
    mkdirSync(dead);
    expect(removeStaleTempFolders([base])).toEqual([]); // changed just now
    expect(removeStaleTempFolders([base], Date.now() + STALE_AFTER_MS + 1000)).toEqual([dead]);
    expect(existsSync(dead)).toBe(false);
  });
});
