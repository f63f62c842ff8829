/**
 * The files a sweep writes, and their names. Every write goes to a temporary file first and is
 * renamed into place, so a crash or Ctrl-C never leaves half a JSON document behind.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { formatBytes } from '../../core/base/format.ts';
import type { Plan } from '../../core/plan/plan.ts';
import type { CaseResult, ResultsFile } from '../../core/results/results.ts';
import type { DriverInfo } from '../../core/schema/results-schema.ts';
import type { PARTIAL_SCHEMA } from '../../core/schema/vocabulary.ts';

/** Sortable and safe in file names on every OS: YYYY-MM-DDTHH-MM-SSZ-ab12. */
export function makeRunId(date = new Date(), random = randomBytes(2).toString('hex')): string {
  return `${date.toISOString().slice(0, 19).replace(/:/g, '-')}Z-${random}`;
}

/**
 * Rows of a browser run that has not finished (yet). Not a results file: the environment is
 * only known at the end. It stays behind when the run fails, so completed rows are not lost.
 */
export interface PartialFile {
  schema: typeof PARTIAL_SCHEMA;
  note: string;
  run: { id: string; browser: string; startedAt: string; plan: Plan };
  userAgent: string | null;
  /** Where the browser ran (the results' environment.driver). */
  driver?: DriverInfo;
  cases: CaseResult[];
  /** How the run ended, once it failed: the rows above are what it kept. */
  ended?: PartialEnd;
}

/** A failed run's end: why, and the pass whose samples it lost. */
export interface PartialEnd {
  kind: string;
  message: string;
  /** The pass in flight when the run ended, of the plan's passes: its samples are not in the rows. */
  pass: number;
  passes: number;
  /** The browser launch in flight, of the launches the passes were spread over. */
  launch: number;
  launches: number;
  /** The case group the page last said it was in (it may have finished it since); null before the first. */
  lastSeen: { suite: string; case: string; size: number; adapter: string | null } | null;
}

/**
 * The least room a row's files take, in bytes: a row's names and statistics with few samples, in
 * its results file, its partial file, and the temporary copy each write makes before its rename.
 * A floor, not a forecast (samples take more): the check refuses an --out that cannot hold even
 * that, and a write that fails later anyway goes to a fallback folder (OutputDir.rescued).
 */
const MIN_BYTES_PER_ROW = 3 * 1024;

/** Where a write that could not go to --out went instead, and why it could not. */
export interface Rescue {
  /** Why --out refused it, in one line. */
  why: string;
  /** The folder the files went to instead. */
  dir: string;
}

export class OutputDir {
  readonly written: string[] = [];
  /** Set when a write to `dir` failed: every file from then on goes to the fallback folder. */
  rescued: Rescue | null = null;
  constructor(
    readonly dir: string,
    readonly runId: string,
  ) {
    OutputDir.prepare(dir);
  }

  /**
   * Before the first sample: the folder exists or can be made, a new file can be created in it,
   * and it has room for `rows` rows at the least (MIN_BYTES_PER_ROW). An OutputError names --out
   * and what is wrong, so a sweep never samples for minutes and then loses its rows.
   */
  static check(dir: string, rows: number): void {
    OutputDir.prepare(dir);
    const probe = join(dir, `.storebench-write-check-${randomBytes(6).toString('hex')}`);
    try {
      const fd = openSync(probe, 'wx');
      try {
        writeSync(fd, 'x');
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      throw new OutputError(
        `--out ${dir}: ${outputFailure(dir, e).replace(/^cannot write [^:]*: /, 'cannot write there: ')}`,
      );
    } finally {
      rmSync(probe, { force: true });
    }
    const need = rows * MIN_BYTES_PER_ROW;
    const free = freeBytes(dir);
    if (free !== null && free < need) {
      throw new OutputError(
        `--out ${dir}: ${formatBytes(free)} free, and the plan's ${rows} rows need ${formatBytes(need)} at the least; free some room or choose another folder`,
      );
    }
  }

  /** Make the folder if need be; an OutputError says why it cannot be one (a file, a FIFO, a path through a file). */
  static prepare(dir: string): void {
    let stat;
    try {
      stat = statSync(dir);
    } catch {
      stat = undefined;
    }
    if (stat && !stat.isDirectory())
      throw new OutputError(
        `--out ${dir} is ${stat.isFIFO() ? 'a named pipe (FIFO)' : stat.isFile() ? 'a file' : 'not a folder'}; give a folder for the results, e.g. --out out`,
      );
    try {
      makeFolders(dir);
    } catch (e) {
      throw new OutputError(
        outputFailure(dir, e).replace(/^cannot write /, `--out: cannot make the folder `),
      );
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
    this.write(this.partialPath(browser), `${JSON.stringify(partial, null, 1)}\n`);
  }

  /** The validated results of a finished browser; the partial file has served its purpose. */
  writeResults(browser: string, results: ResultsFile): string {
    const path = this.write(this.resultsPath(browser), `${JSON.stringify(results, null, 2)}\n`);
    for (const partial of this.placesOf(this.partialPath(browser)))
      rmSync(partial, { force: true });
    this.written.push(path);
    return path;
  }

  /** Record a partial file that stays (its run did not finish): the newest copy, in the fallback folder once there is one. */
  keepPartial(browser: string): string {
    const path = this.placesOf(this.partialPath(browser)).at(-1) as string;
    this.written.push(path);
    return path;
  }

  writeCsv(text: string): string {
    const path = this.write(this.csvPath(), text);
    this.written.push(path);
    return path;
  }

  /** The path in --out, and after a failed write also in the fallback folder. */
  private placesOf(path: string): string[] {
    return this.rescued ? [path, join(this.rescued.dir, basename(path))] : [path];
  }

  /**
   * Write to --out; once a write there failed, to the fallback folder (created then, under the
   * system's temporary folder), so rows sampled for minutes are never lost to a full or read-only
   * disk. Throws only when the fallback fails too. The path written.
   */
  private write(path: string, data: string): string {
    if (!this.rescued) {
      try {
        writeAtomically(path, data);
        return path;
      } catch (e) {
        const dir = mkdtempSync(join(tmpdir(), `storebench-rescued-${this.runId}-`));
        this.rescued = { why: outputFailure(path, e), dir };
      }
    }
    const rescued = join(this.rescued.dir, basename(path));
    try {
      writeAtomically(rescued, data);
    } catch (e) {
      throw new OutputError(
        `${this.rescued.why}, and the fallback failed too: ${outputFailure(rescued, e).replace(/^cannot write /, '')}`,
      );
    }
    return rescued;
  }
}

/** Bytes free to an unprivileged writer in the folder's file system, or null where the system cannot say. */
function freeBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return null;
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
function checkWritableTarget(path: string): void {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return; // nothing there yet: fine
  }
  const kind = stat.isSymbolicLink()
    ? 'a symbolic link'
    : stat.isDirectory()
      ? 'a directory'
      : stat.isFIFO()
        ? 'a named pipe (FIFO)'
        : !stat.isFile()
          ? 'not a regular file'
          : null;
  if (kind)
    throw new OutputError(
      `${path} is ${kind}; give the path of a regular file, or of one that does not exist yet`,
    );
}

/**
 * Whether `path` can be written later, checked now: a file the run writes at its end (--summary)
 * must not be found unwritable after every browser has run. Throws OutputError saying why not.
 */
export function checkOutputFile(path: string, flag: string): void {
  try {
    checkWritableTarget(path);
    const { tmp, fd } = openTemporary(path, () => randomBytes(8).toString('hex'));
    closeSync(fd);
    rmSync(tmp, { force: true });
  } catch (e) {
    throw new OutputError(`${flag}: ${outputFailure(path, e)}`);
  }
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
    EFBIG: 'the file is larger than this process may write (its file-size limit, ulimit -f)',
    EISDIR: 'it is a directory',
  };
  return `cannot write ${path}: ${(code && why[code]) ?? (e as Error).message}`;
}

/**
 * Write through a temporary file beside `path`, renamed into place, so a failed or interrupted
 * write never leaves half a file at `path`; the temporary file is removed if the write or the
 * rename fails. Refuses a target that is not a regular file (checkWritableTarget). `data` may come
 * in pieces (an export of millions of rows), each written as it comes.
 */
export function writeAtomically(
  path: string,
  data: string | Uint8Array | Iterable<string>,
  random: () => string = () => randomBytes(8).toString('hex'),
): void {
  checkWritableTarget(path);
  const { tmp, fd } = openTemporary(path, random);
  try {
    try {
      if (typeof data === 'string' || data instanceof Uint8Array) writeFileSync(fd, data);
      else for (const piece of data) writeFileSync(fd, piece);
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
