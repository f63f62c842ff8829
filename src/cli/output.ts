/**
 * The files a sweep writes, and their names. Every write goes to a temporary file first and is
 * renamed into place, so a crash or Ctrl-C never leaves half a JSON document behind.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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
    mkdirSync(dir, { recursive: true });
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
 * Write through a temporary file beside `path`, renamed into place, so a failed or interrupted
 * write never leaves half a file at `path`; the temporary file is removed if the rename fails.
 */
export function writeAtomically(path: string, data: string | Uint8Array): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  writeFileSync(tmp, data);
  try {
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
