import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deepestBytes, SHORT_TMP, SOCKET_PATH_MAX, tempBase, TempPathError, tempProblem } from '../../src/cli/temp.ts';

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
    expect(deepestBytes(base, 'browser')).toBe(`${base}/storebench-browser-XXXXXX/.org.chromium.Chromium.XXXXXX/SingletonSocket`.length);
    expect(deepestBytes(base, 'profile')).toBe(`${base}/storebench-profile-XXXXXX/tmp/.org.chromium.Chromium.XXXXXX/SingletonSocket`.length);
  });

  it('uses TMPDIR when the socket fits below it', () => {
    const fits = folderOf(SOCKET_PATH_MAX - (deepestBytes(root, 'browser') - root.length));
    expect(deepestBytes(fits, 'browser')).toBe(SOCKET_PATH_MAX);
    expect(tempBase('browser', fits, join(root, 'missing'))).toBe(fits);
    expect(() => tempBase('browser', folderOf(fits.length + 1), join(root, 'missing'))).toThrow(TempPathError);
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
    expect(problem).toMatch(new RegExp(`^TMPDIR is too long for a browser: ${long} is 60 bytes, and Chromium's socket below it would be \\d+ bytes, over the 107-byte limit of a Unix socket path; ${root}/missing is not a writable folder short enough to use instead\\. Set TMPDIR to a folder of at most \\d+ bytes$`));
  });
});
