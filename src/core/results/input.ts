/**
 * Reading results from outside: a file holds either one results document or a JSON array of
 * them (what `npm run merge` writes). Every document goes through `validateResults` (recompute.ts), so a
 * message names the file, the document and the JSON path. Also the listing of the results/
 * folder that the page reads at start. No DOM, no Node APIs.
 */
import { valueFault } from '../schema/bounds.ts';
import { checkedResults, ResultsError, parseResultsJson, type ResultsFile } from './results.ts';
import { validateResults, validateResultsInSteps } from './recompute.ts';

/** Parse a results file: one document, or an array of documents. `source` names it in messages. */
export function parseResultsInput(text: string, source: string): ResultsFile[] {
  return validateResultsInput(parseResultsJson(text, source), source);
}

export function validateResultsInput(data: unknown, source: string): ResultsFile[] {
  if (!Array.isArray(data)) return [validateResults(data, source)];
  checkSet(data, source);
  return data.map((doc, i) => validateResults(doc, `${source} [document ${i}]`));
}

/** validateResultsInput for a page, with `pause` between its steps (recompute.ts validateResultsInSteps). */
export async function validateResultsInputInSteps(
  data: unknown,
  source: string,
  pause: () => Promise<void>,
): Promise<ResultsFile[]> {
  if (!Array.isArray(data)) return [await validateResultsInSteps(data, source, pause)];
  checkSet(data, source);
  const docs: ResultsFile[] = [];
  for (let i = 0; i < data.length; i++)
    docs.push(await validateResultsInSteps(data[i], `${source} [document ${i}]`, pause));
  return docs;
}

/** A set of documents: not empty, and within the caps as a whole (its rows and values over all its documents). */
function checkSet(data: readonly unknown[], source: string): void {
  if (data.length === 0)
    throw new ResultsError(
      `${source}: $: an empty array; expected a results document or an array of them`,
    );
  const over = valueFault(data);
  if (over) throw new ResultsError(`${source}: ${over.path}: ${over.what}`);
}

export const RESULTS_INDEX_SCHEMA = 'storebench/results-index@1';

/** One file of the results/ folder, as listed for the page. */
export interface ResultsIndexEntry {
  /** File name inside results/, e.g. `YYYY-MM-DDTHH-MM-SSZ-8f93-chromium.json`. */
  name: string;
  bytes: number;
  /** Set when the file holds valid results. */
  documents?: {
    runId: string;
    browser: string;
    browserVersion: string;
    startedAt: string;
    suites: string[];
    rows: number;
  }[];
  /** Set when it does not: the validator's message. */
  error?: string;
}

export interface ResultsIndex {
  schema: typeof RESULTS_INDEX_SCHEMA;
  files: ResultsIndexEntry[];
}

/** Names a results folder may serve: plain file names, so a listing can never point elsewhere. */
export const RESULTS_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}\.json$/;

export function describeForIndex(name: string, bytes: number, text: string): ResultsIndexEntry {
  try {
    const data = parseResultsJson(text, name);
    // Checked as every reader checks them, without the statistics a listing does not show.
    if (Array.isArray(data)) checkSet(data, name);
    const docs = Array.isArray(data)
      ? data.map((d, i) => checkedResults(d, `${name} [document ${i}]`))
      : [checkedResults(data, name)];
    return {
      name,
      bytes,
      documents: docs.map((d) => ({
        runId: d.run.id,
        browser: d.run.browser,
        browserVersion: `${d.environment.browser.name} ${d.environment.browser.version}`,
        startedAt: d.run.startedAt,
        suites: [...new Set(d.cases.map((c) => c.suite))],
        rows: d.cases.length,
      })),
    };
  } catch (e) {
    return { name, bytes, error: e instanceof Error ? e.message : String(e) };
  }
}

/** Check a listing fetched by the page; the page shows the message instead of the list. */
export function validateResultsIndex(data: unknown, source: string): ResultsIndex {
  const fail = (path: string, what: string): never => {
    throw new ResultsError(`${source}: ${path}: ${what}`);
  };
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    fail('$', 'expected an object');
  const root = data as Record<string, unknown>;
  if (root.schema !== RESULTS_INDEX_SCHEMA) fail('$.schema', `expected "${RESULTS_INDEX_SCHEMA}"`);
  if (!Array.isArray(root.files)) fail('$.files', 'expected an array');
  (root.files as unknown[]).forEach((f, i) => {
    const p = `$.files[${i}]`;
    if (f === null || typeof f !== 'object') fail(p, 'expected an object');
    const entry = f as Record<string, unknown>;
    if (typeof entry.name !== 'string' || !RESULTS_FILE_NAME.test(entry.name))
      fail(`${p}.name`, 'expected a plain .json file name');
    if (typeof entry.bytes !== 'number') fail(`${p}.bytes`, 'expected a number');
    if (entry.error !== undefined && typeof entry.error !== 'string')
      fail(`${p}.error`, 'expected a string');
    if (entry.documents === undefined) return;
    if (!Array.isArray(entry.documents)) fail(`${p}.documents`, 'expected an array');
    (entry.documents as unknown[]).forEach((d, j) => {
      const q = `${p}.documents[${j}]`;
      if (d === null || typeof d !== 'object') fail(q, 'expected an object');
      const doc = d as Record<string, unknown>;
      for (const k of ['runId', 'browser', 'browserVersion', 'startedAt'] as const)
        if (typeof doc[k] !== 'string') fail(`${q}.${k}`, 'expected a string');
      if (!Array.isArray(doc.suites) || !doc.suites.every((s) => typeof s === 'string'))
        fail(`${q}.suites`, 'expected an array of strings');
      if (typeof doc.rows !== 'number') fail(`${q}.rows`, 'expected a number');
    });
  });
  return data as ResultsIndex;
}
