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

  /** Make the folder if need be; an OutputError says why it cannot be one (a file, a FIFO, a path through a file). */
  static prepare(dir: string, flag = '--out'): void {
    refuseNonFolder(dir, flag);
    try {
      makeFolders(dir);
    } catch (e) {
      throw new OutputError(
        outputFailure(dir, e).replace(/^cannot write /, `${flag}: cannot make the folder `),
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

/** An OutputError when something other than a folder is at `dir` (a file, a FIFO). */
function refuseNonFolder(dir: string, flag: string): void {
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    return;
  }
  if (!stat.isDirectory())
    throw new OutputError(
      `${flag} ${dir} is ${stat.isFIFO() ? 'a named pipe (FIFO)' : stat.isFile() ? 'a file' : 'not a folder'}; give a folder for the results, e.g. ${flag} out`,
    );
}

/**
 * The folders mkdir -p would make for `dir`, outermost first (none when it is there); throws
 * ENOTDIR when a level that is there is not a folder.
 */
function missingLevels(dir: string): string[] {
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
  return missing;
}

/**
 * mkdir -p, one level at a time: Node's `mkdirSync(…, { recursive: true })` never returns on a
 * file system that refuses the folder with ENOENT although its parent exists (/proc, seen on
 * Node 20), so the levels are made here and the first refusal is thrown.
 */
function makeFolders(dir: string): void {
  for (const level of missingLevels(dir)) mkdirSync(level);
}

/** A path the tool will not write to, with the reason. */
export class OutputError extends Error {
  override readonly name = 'OutputError';
}

/**
 * What stands at `path` when it is not a regular file, in words ("a symbolic link", "a named pipe
 * (FIFO)"), or null when nothing is there or a regular file is. Read with lstat: a link is never
 * followed and nothing is opened, so a FIFO cannot block the caller.
 */
export function notRegularFile(path: string): string | null {
  let stat;
  try {
    stat = lstatSync(path);
  } catch {
    return null; // nothing there yet
  }
  if (stat.isFile()) return null;
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isDirectory()) return 'a folder';
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Refuse to replace anything but a regular file: renaming over a symbolic link would replace the
 * link (not what it points to), and over a FIFO or a device would swap out something a user set up.
 */
function checkWritableTarget(path: string): void {
  const kind = notRegularFile(path);
  if (kind)
    throw new OutputError(
      `${path} is ${kind}; give the path of a regular file, or of one that does not exist yet`,
    );
}

/**
 * Create a file in `dir` and remove it: whether the folder takes new files, tried rather than
 * guessed from permission bits (root ignores them; /proc refuses with ENOENT, /sys with EACCES).
 * Throws the system's error.
 */
export function tryCreatingIn(dir: string): void {
  const probe = join(dir, `.storebench-write-check-${randomBytes(6).toString('hex')}`);
  try {
    const fd = openSync(probe, 'wx');
    try {
      writeSync(fd, 'x');
    } finally {
      closeSync(fd);
    }
  } finally {
    rmSync(probe, { force: true });
  }
}

/** What an output flag names: a file the command writes, or a folder it writes its files into. */
export type OutputKind = 'file' | 'folder';

/** One output of a command: the flag that names it (`--summary`), its path, and what it is. */
export interface Output {
  flag: string;
  path: string;
  kind: OutputKind;
  /** A folder's rows: it must have room for that many at the least (MIN_BYTES_PER_ROW each). */
  rows?: number;
}

/**
 * The one check of what a command will write, run before it does any work: a file it writes at
 * its end (check's and the sweep's --summary, after every browser has run) must not be found
 * unwritable then, and a folder must not lose minutes of rows. Each output is tried as it will be
 * written: a folder is made if need be and a file created in it, a file's temporary sibling is
 * created beside it. Throws an OutputError naming the flag and why.
 */
export function checkOutputs(outputs: readonly Output[]): void {
  for (const o of outputs) {
    if (o.kind === 'folder') checkFolder(o.flag, resolve(o.path), o.rows ?? 0);
    else checkFile(o.flag, resolve(o.path));
  }
}

/**
 * The folder exists or can be made, a new file can be created in it, and it has room for `rows`
 * rows at the least, so a sweep never samples for minutes and then loses its rows. A folder that
 * is not there is not made yet (a refusal of other input then leaves nothing behind): its
 * nearest folder that is there must take new entries.
 */
function checkFolder(flag: string, dir: string, rows: number): void {
  refuseNonFolder(dir, flag);
  let there: string | null = null;
  try {
    const missing = missingLevels(dir);
    there = missing[0] === undefined ? dir : dirname(missing[0]);
    tryCreatingIn(there);
  } catch (e) {
    // A folder that is there and answers a new entry with ENOENT is /proc's way of refusing.
    const why =
      there !== null && (e as NodeJS.ErrnoException).code === 'ENOENT'
        ? `${dir}: no entry can be made in ${there} (ENOENT)`
        : outputFailure(dir, e).replace(/^cannot write /, '');
    throw new OutputError(
      there === dir
        ? `${flag} ${dir}: cannot write there: ${why.replace(/^[^:]*: /, '')}`
        : `${flag}: cannot make the folder ${why}`,
    );
  }
  const need = rows * MIN_BYTES_PER_ROW;
  const free = freeBytes(there ?? dir);
  if (free !== null && free < need) {
    throw new OutputError(
      `${flag} ${dir}: ${formatBytes(free)} free, and the plan's ${rows} rows need ${formatBytes(need)} at the least; free some room or choose another folder`,
    );
  }
}

/** A file: its target is one that may be replaced, and a file can be created beside it. */
function checkFile(flag: string, path: string): void {
  try {
    checkWritableTarget(path);
    const { tmp, fd } = openTemporary(path, () => randomBytes(8).toString('hex'));
    closeSync(fd);
    rmSync(tmp, { force: true });
  } catch (e) {
    throw new OutputError(`${flag}: ${outputFailure(path, e)}`);
  }
}

/** What a failed file system call's code means, in words, for every path a command writes. */
const SYSTEM_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EFBIG: 'the file is larger than this process may write (its file-size limit, ulimit -f)',
  EISDIR: 'it is a directory',
};

/** The words for a failed call's error code (`overrides` where a call's code means more), or null. */
export function codeWords(
  e: unknown,
  overrides: Readonly<Record<string, string>> = {},
): string | null {
  const code = (e as NodeJS.ErrnoException).code;
  if (!code) return null;
  return overrides[code] ?? SYSTEM_REASONS[code] ?? null;
}

/** Why writing `path` failed, in one line. */
export function outputFailure(path: string, e: unknown): string {
  if (e instanceof OutputError) return `cannot write ${e.message}`;
  return `cannot write ${path}: ${codeWords(e) ?? (e as Error).message}`;
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
