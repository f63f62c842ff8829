/**
 * The files a sweep writes, and their names. Every write goes to a temporary file first and is
 * renamed into place, so a crash or Ctrl-C never leaves half a JSON document behind.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Plan } from '../core/plan.ts';
import type { CaseResult, ResultsFile } from '../core/results.ts';

/** Sortable and safe in file names on every OS: 2026-11-20T22-40-05Z-ab12. */
export function makeRunId(date = new Date(), random = randomBytes(2).toString('hex')): string {
  return `${date.toISOString().slice(0, 19).replace(/:/g, '-')}Z-${random}`;
}

export const PARTIAL_SCHEMA = 'storebench/partial@1';

/**
 * Rows of a browser run that has not finished (yet). Not a results file: the environment is
 * only known at the end. It stays behind when the run fails, so completed rows are not lost.
 */
export interface PartialFile {
  schema: typeof PARTIAL_SCHEMA;
  note: string;
  run: { id: string; browser: string; startedAt: string; plan: Plan };
  userAgent: string | null;
  cases: CaseResult[];
}

export class OutputDir {
  readonly written: string[] = [];
  constructor(
    readonly dir: string,
    readonly runId: string,
  ) {
    OutputDir.prepare(dir);
  }

  /** Make the folder if need be; an OutputError says why it cannot be one (a file, a FIFO, a path through a file). */
  static prepare(dir: string): void {
    let stat;
    try {
      stat = statSync(dir);
    } catch {
      stat = undefined;
    }
    if (stat && !stat.isDirectory()) throw new OutputError(`--out ${dir} is ${stat.isFIFO() ? 'a named pipe (FIFO)' : stat.isFile() ? 'a file' : 'not a folder'}; give a folder for the results, e.g. --out out`);
    try {
      makeFolders(dir);
    } catch (e) {
      throw new OutputError(outputFailure(dir, e).replace(/^cannot write /, `--out: cannot make the folder `));
    }
  }

  resultsPath(browser: string): string {
    return join(this.dir, `${this.runId}-${browser}.json`);
  }

  partialPath(browser: string): string {
    return join(this.dir, `${this.runId}-${browser}.partial.json`);
  }

  csvPath(): string {
    return join(this.dir, `${this.runId}.csv`);
  }

  writePartial(browser: string, partial: PartialFile): void {
    writeAtomically(this.partialPath(browser), `${JSON.stringify(partial, null, 1)}\n`);
  }

  /** The validated results of a finished browser; the partial file has served its purpose. */
  writeResults(browser: string, results: ResultsFile): string {
    const path = this.resultsPath(browser);
    writeAtomically(path, `${JSON.stringify(results, null, 2)}\n`);
    rmSync(this.partialPath(browser), { force: true });
    this.written.push(path);
    return path;
  }

  /** Record a partial file that stays (its run did not finish). */
  keepPartial(browser: string): string {
    const path = this.partialPath(browser);
    this.written.push(path);
    return path;
  }

  writeCsv(text: string): string {
    const path = this.csvPath();
    writeAtomically(path, text);
    this.written.push(path);
    return path;
  }
}

/**
 * mkdir -p, one level at a time: Node's `mkdirSync(…, { recursive: true })` never returns on a
 * file system that refuses the folder with ENOENT although its parent exists (/proc, seen on
 * Node 20), so the levels are made here and the first refusal is thrown.
 */
function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      if (statSync(at).isDirectory()) break;
      throw Object.assign(new Error(`${at} is not a folder`), { code: 'ENOTDIR' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const level of missing) mkdirSync(level);
}

/** A path the tool will not write to, with the reason. */
export class OutputError extends Error {
  override readonly name = 'OutputError';
}

/**
 * Refuse to replace anything but a regular file: renaming over a symbolic link would replace the
 * link (not what it points to), and over a FIFO or a device would swap out something a user set up.
 */
export function checkWritableTarget(path: string): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return; // nothing there yet: fine
  }
  const kind = stat.isSymbolicLink() ? 'a symbolic link' : stat.isDirectory() ? 'a directory' : stat.isFIFO() ? 'a named pipe (FIFO)' : !stat.isFile() ? 'not a regular file' : null;
  if (kind) throw new OutputError(`${path} is ${kind}; give the path of a regular file, or of one that does not exist yet`);
}

/** Why writing `path` failed, in one line. */
export function outputFailure(path: string, e: unknown): string {
  if (e instanceof OutputError) return `cannot write ${e.message}`;
  const code = (e as NodeJS.ErrnoException).code;
  const why: Record<string, string> = {
    ENOENT: 'its folder does not exist',
    ENOTDIR: 'a part of the path is not a folder',
    EACCES: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOSPC: 'the disk is full',
    EFBIG: "the file is larger than this process may write (its file-size limit, ulimit -f)",
    EISDIR: 'it is a directory',
  };
  return `cannot write ${path}: ${(code && why[code]) ?? (e as Error).message}`;
}

/**
 * Write through a temporary file beside `path`, renamed into place, so a failed or interrupted
 * write never leaves half a file at `path`; the temporary file is removed if the write or the
 * rename fails. Refuses a target that is not a regular file (checkWritableTarget).
 */
export function writeAtomically(path: string, data: string | Uint8Array, random: () => string = () => randomBytes(8).toString('hex')): void {
  checkWritableTarget(path);
  const { tmp, fd } = openTemporary(path, random);
  try {
    try {
      writeFileSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Tries before giving up on a temporary name: only a name someone planted is taken. */
const TEMPORARY_TRIES = 5;

/**
 * A new temporary file beside `path`, under a name no one can predict, created exclusively
 * ('wx' is O_CREAT|O_EXCL): a file or a symbolic link planted under that name is refused, never
 * followed or replaced, and another name is tried.
 */
function openTemporary(path: string, random: () => string): { tmp: string; fd: number } {
  for (let attempt = 1; ; attempt++) {
    const tmp = join(dirname(path), `.${basename(path)}.${random()}.tmp`);
    try {
      return { tmp, fd: openSync(tmp, 'wx') };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === TEMPORARY_TRIES) throw e;
    }
  }
}

/** A path as a user can type it: relative to the working directory when inside it, else absolute. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
