/**
 * JSON export: the results document exactly as the schema defines it, so any reader that calls
 * `parseResults` can load it back. Several documents are written as a JSON array of documents,
 * the form `npm run merge` writes and every reader here accepts. Pure: no DOM, no I/O.
 */
import type { ResultsFile } from '../core/results.ts';

/** Pretty-printed (2-space) with a final newline, so files diff cleanly line by line. */
export function toJson(results: ResultsFile | readonly ResultsFile[]): string {
  return `${JSON.stringify(results, null, 2)}\n`;
}
