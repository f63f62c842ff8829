/**
 * The results files a command was given: each FILE as it is, each DIR as the results files in it
 * (the page's listing rules: plain `*.json`, not the schema, the index or a sweep's partial
 * files), in name order, which is the order of their run ids.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ResultsError } from '../../core/results/results.ts';
import { listResultsFiles } from '../server/results-index.ts';

export function resultsPaths(given: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of given) {
    let dir = false;
    try {
      dir = statSync(path).isDirectory();
    } catch {
      // Not there: the reader says so, in the words every command uses.
    }
    if (!dir) {
      out.push(path);
      continue;
    }
    const names = listResultsFiles(path);
    if (names.length === 0)
      throw new ResultsError(`${path}: a folder with no results files (*.json) in it`);
    for (const name of names) out.push(join(path, name));
  }
  return out;
}
