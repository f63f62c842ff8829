/**
 * Files a command writes into a user's project (init's config and adapter), checked before any is
 * written: each must be a regular file or nothing yet, in real folders of the project that take
 * new files. A symbolic link (dangling or not), a folder, a FIFO or a device where a file goes,
 * or a link or a file where a folder goes, is said as what it is, so a refusal leaves the project
 * as it was and nothing is written through a link to outside it. Nothing here follows a link or
 * opens a path that is there: lstat, and a new file created beside it.
 */
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { clipped } from '../../core/base/shown.ts';
import { codeWords, notRegularFile, tryCreatingIn } from './output.ts';

/** Why a system call failed, in words with its code: "the file system is read-only (EROFS)". */
export function systemReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  // /proc answers a new file with ENOENT although the folder is there.
  const words =
    codeWords(e, { ENOENT: 'no file can be made there' }) ??
    (e instanceof Error ? e.message : String(e));
  return code ? `${words} (${code})` : words;
}

/** What is at `path`, when it is a symbolic link, with where it leads. */
function linkWords(path: string): string {
  try {
    return `a symbolic link (to ${clipped(readlinkSync(path), 100)})`;
  } catch {
    return 'a symbolic link';
  }
}

/** A folder on the way to a file: nothing yet (it will be made), or a real folder that takes new files. */
function folderProblem(dir: string, folder: string, file: string): string | null {
  const path = join(dir, folder);
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return null;
  }
  if (stat.isSymbolicLink())
    return `${folder} is ${linkWords(path)}, where a folder of the project holds ${file}: files are written inside the project, never through a link; move it away, or run in another folder`;
  if (!stat.isDirectory())
    return `${folder} is ${notRegularFile(path) ?? 'a regular file'}, where a folder holds ${file}; move it away, or run in another folder`;
  try {
    tryCreatingIn(path);
  } catch (e) {
    return `cannot create files in ${folder}${sep}: ${systemReason(e)}; run in a folder you can write`;
  }
  return null;
}

/** The folders between `dir` and the file `name` (relative to it), outermost first. */
function foldersOf(name: string): string[] {
  const folders: string[] = [];
  for (let at = dirname(name); at !== '.' && at !== dirname(at); at = dirname(at))
    folders.unshift(at);
  return folders;
}

/**
 * Whether `names` (paths relative to `dir`) can be written into `dir` as regular files of the
 * project: a problem in one line, or the names that are regular files there already (a caller
 * replaces them only when asked).
 */
export function projectFilesProblem(
  dir: string,
  names: readonly string[],
): { problem: string } | { there: string[] } {
  try {
    tryCreatingIn(dir);
  } catch (e) {
    return {
      problem: `cannot create files in ${dir}: ${systemReason(e)}; run in a folder you can write`,
    };
  }
  const there: string[] = [];
  for (const name of names) {
    for (const folder of foldersOf(name)) {
      const problem = folderProblem(dir, folder, name);
      if (problem !== null) return { problem };
    }
    const path = join(dir, name);
    const kind = lstatSync(path, { throwIfNoEntry: false });
    if (kind === undefined) continue;
    if (kind.isFile()) there.push(name);
    else
      return {
        problem: `${name} is ${kind.isSymbolicLink() ? linkWords(path) : notRegularFile(path)}: only a regular file there is replaced, never a link, a folder, a FIFO or a device; move it away, or run in another folder`,
      };
  }
  return { there };
}
