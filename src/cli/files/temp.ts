/**
 * The temporary folders of a sweep or a study: one name for them all, which carries the owning
 * process id (`storebench-<pid>-<kind>-XXXXXX`); a folder short enough for a browser's Unix socket
 * whatever TMPDIR is; and the removal of the folders that a killed process (kill -9, a crash)
 * left behind, which no one else would ever remove.
 */
import {
  accessSync,
  constants,
  lstatSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const TEMP_KINDS = ['page', 'browser', 'profile', 'xvfb', 'study-page', 'worktree'] as const;
export type TempKind = (typeof TEMP_KINDS)[number];

/** Inside a `profile` folder, the folder the browser gets as its TMPDIR. */
export const PROFILE_TMP = 'tmp';

/** The folders a browser runs in, and how deep below them it makes its socket. */
const BROWSER_TMPDIR: Partial<Record<TempKind, string>> = { browser: '', profile: PROFILE_TMP };

// Chromium's ProcessSingleton binds $TMPDIR/.org.chromium.Chromium.XXXXXX/SingletonSocket (chrome/browser/
// process_singleton_posix.cc; the folder from base::CreateNewTempDirectory, base/files/file_util_posix.cc;
// Chromium 156 drops the dot), the deepest path a browser makes below its TMPDIR; it does not start when that is too long.
const CHROMIUM_SOCKET = join('.org.chromium.Chromium.XXXXXX', 'SingletonSocket');
// sun_path is 108 bytes on Linux with its closing NUL (unix(7)); macOS's 104 and Chromium's own 253 there are both roomier for this path.
export const SOCKET_PATH_MAX = 107;
/** Where browser folders go when TMPDIR is too long (macOS's is, by default). */
export const SHORT_TMP = '/tmp';
/** A folder of a dead process is left alone this long: it may be from a process in another PID namespace that shares /tmp. */
export const STALE_AFTER_MS = 60_000;

const NAME = new RegExp(`^storebench-(\\d+)-(${TEMP_KINDS.join('|')})-[A-Za-z0-9]{6}$`);

/** TMPDIR is too long for a browser's socket and there is no short folder to use instead. */
export class TempPathError extends Error {
  override readonly name = 'TempPathError';
}

function prefix(kind: TempKind, pid = process.pid): string {
  return `storebench-${pid}-${kind}-`;
}

/** The longest path a browser makes under a folder of `kind` in `base`, in bytes. */
export function deepestBytes(base: string, kind: TempKind): number {
  const below = BROWSER_TMPDIR[kind];
  if (below === undefined) return Buffer.byteLength(base);
  return Buffer.byteLength(join(base, `${prefix(kind)}XXXXXX`, below, CHROMIUM_SOCKET));
}

/**
 * The folder to make a folder of `kind` in: `tmp` (TMPDIR) when the browser's socket below it
 * fits, else `fallback` when that is a writable folder where it fits. Throws TempPathError.
 */
export function tempBase(kind: TempKind, tmp = tmpdir(), fallback = SHORT_TMP): string {
  if (process.platform === 'win32' || deepestBytes(tmp, kind) <= SOCKET_PATH_MAX) return tmp;
  if (deepestBytes(fallback, kind) <= SOCKET_PATH_MAX && writableFolder(fallback)) return fallback;
  const room = SOCKET_PATH_MAX - (deepestBytes(tmp, kind) - Buffer.byteLength(tmp));
  throw new TempPathError(
    `TMPDIR is too long for a browser: ${tmp} is ${Buffer.byteLength(tmp)} bytes, and Chromium's socket below it would be ${deepestBytes(tmp, kind)} bytes, over the ${SOCKET_PATH_MAX}-byte limit of a Unix socket path; ${fallback} is not a writable folder short enough to use instead. Set TMPDIR to a folder of at most ${room} bytes`,
  );
}

/** Why this machine's TMPDIR cannot hold the browsers' folders, or null: for a sweep's input check. */
export function tempProblem(tmp = tmpdir(), fallback = SHORT_TMP): string | null {
  try {
    for (const kind of ['browser', 'profile'] as const) tempBase(kind, tmp, fallback);
    return null;
  } catch (e) {
    if (!(e instanceof TempPathError)) throw e;
    return e.message;
  }
}

function writableFolder(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

let cleaned = false;

/**
 * A new folder `storebench-<pid>-<kind>-XXXXXX`, in a base short enough for a browser. The first
 * one a process makes also removes the folders that dead processes left (removeStaleTempFolders),
 * so every sweep and study starts by cleaning up after the ones killed before it.
 */
export function makeTempFolder(kind: TempKind): string {
  const base = tempBase(kind);
  if (!cleaned) {
    cleaned = true;
    removeStaleTempFolders();
  }
  return mkdtempSync(join(base, prefix(kind)));
}

/**
 * Remove the folders named `storebench-<pid>-<kind>-XXXXXX` in `bases` whose process is gone and
 * that have not changed for STALE_AFTER_MS. Anything else is left alone: other names, files,
 * symbolic links, other users' folders. Returns the folders removed.
 */
export function removeStaleTempFolders(
  bases: readonly string[] = [tmpdir(), SHORT_TMP],
  now = Date.now(),
): string[] {
  const removed: string[] = [];
  for (const base of new Set(bases)) {
    let names: string[];
    try {
      names = readdirSync(base);
    } catch {
      continue; // no such base here
    }
    for (const name of names) {
      const pid = Number(NAME.exec(name)?.[1] ?? NaN);
      if (!Number.isSafeInteger(pid) || pid === process.pid || alive(pid)) continue;
      const path = join(base, name);
      try {
        const stat = lstatSync(path);
        if (
          !stat.isDirectory() ||
          (process.getuid && stat.uid !== process.getuid()) ||
          now - stat.mtimeMs < STALE_AFTER_MS
        )
          continue;
        rmSync(path, { recursive: true, force: true });
        removed.push(path);
      } catch {
        // Gone already, or not ours to remove.
      }
    }
  }
  return removed;
}

/** Signal 0 checks without signalling: ESRCH is a process that does not exist; EPERM is another user's live one. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
