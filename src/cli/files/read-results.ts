/**
 * Reading results files from disk for `compare`, `merge` and `export`: one wording for every way
 * a path can fail, the size cap checked before a byte is read, and every document validated
 * (core/results/recompute.ts), so all three commands refuse the same files with the same message and exit 2.
 */
import { readFileSync, statSync } from 'node:fs';
import { parseResultsInput } from '../../core/results/input.ts';
import {
  MAX_RESULTS_BYTES,
  RESULTS_SCHEMA_ID,
  ResultsError,
  type ResultsFile,
} from '../../core/results/results.ts';

const WHY: Record<string, string> = {
  ENOENT: 'no such file',
  EISDIR: 'is a directory; give a results .json file',
  EACCES: 'permission denied',
  ENOTDIR: 'no such file (a part of the path is not a folder)',
};

function failure(path: string, e: unknown): ResultsError {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  return new ResultsError(
    `${path}: ${WHY[code] ?? `cannot read it (${code || (e as Error).message})`}`,
  );
}

/** The text of one results file, or a ResultsError that says why not. */
export function readResultsText(path: string): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw Object.assign(new Error('directory'), { code: 'EISDIR' });
    if (!stat.isFile())
      throw new ResultsError(`${path}: not a regular file; give a results .json file`);
    size = stat.size;
  } catch (e) {
    throw e instanceof ResultsError ? e : failure(path, e);
  }
  if (size > MAX_RESULTS_BYTES)
    throw new ResultsError(
      `${path}: ${size} bytes is larger than the ${MAX_RESULTS_BYTES}-byte limit for a results file`,
    );
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw failure(path, e);
  }
}

/**
 * Every document in the files (a file holds one or an array of them), validated. The published
 * schema (results/schema.json), which a glob such as `results/*.json` also names, holds none.
 */
export function readResultsFiles(
  paths: readonly string[],
  read: (path: string) => string = readResultsText,
): ResultsFile[][] {
  return paths.map((path) => {
    const text = read(path);
    return isPublishedSchema(text) ? [] : parseResultsInput(text, path);
  });
}

/** Whether the text is the results schema itself: its `$id`, near its start. */
function isPublishedSchema(text: string): boolean {
  return text.length < 1_000_000 && text.slice(0, 200).includes(`"$id": "${RESULTS_SCHEMA_ID}"`);
}
