/**
 * What readers derive from a results document's samples, recomputed whatever the file says: each
 * ok row's `stats`, `precision`, `noise` and `outliers`, the A/B summary and the run's findings. Apart
 * from reading (results.ts), so that a file's types and its check depend on no verdict: a reader
 * that shows or judges the numbers recomputes them here, and one that only lists what a file
 * holds (results/index.json) does not.
 */
import { derivedFromSamples } from '../stats/stats.ts';
import { abSummary } from '../verdicts/ab.ts';
import { runFindings } from '../verdicts/default-findings.ts';
import { checkedResults, parseResultsJson, type ResultsFile } from './results.ts';

/** Parse, validate and recompute results JSON text. `source` names the file in messages. */
export function parseResults(text: string, source = 'results'): ResultsFile {
  return validateResults(parseResultsJson(text, source), source);
}

/**
 * Check that `data` is a schema v1 results document; return it typed, or throw ResultsError.
 * The document returned is a copy whose ok rows carry `stats`, `precision`, `noise` and `outliers`
 * recomputed from their samples: a reader never trusts a summary the samples may contradict.
 * `data` itself is left as it was.
 */
export function validateResults(data: unknown, source = 'results'): ResultsFile {
  const doc = checkedResults(data, source);
  return recomputed(doc, doc.cases.map(derivedRow));
}

/** The document as read: its rows' statistics, B against A and what the run found all come from the samples, whatever the file says of them (verdicts/findings.ts). */
function recomputed(doc: ResultsFile, cases: ResultsFile['cases']): ResultsFile {
  const { ab: _claimed, findings: _found, ...rest } = { ...doc, cases };
  const ab = abSummary(rest);
  return { ...(ab ? { ...rest, ab } : rest), findings: runFindings([rest]) };
}

/** Samples whose statistics a page derives before it lets the browser draw and answer again: about a fifth of a second's work. */
const SAMPLES_PER_STEP = 250_000;

/**
 * validateResults for a page: `pause` (the next task) between rows once SAMPLES_PER_STEP samples
 * have been summarised, so a file at the caps of schema/bounds.ts does not freeze the tab.
 */
export async function validateResultsInSteps(
  data: unknown,
  source: string,
  pause: () => Promise<void>,
): Promise<ResultsFile> {
  const doc = checkedResults(data, source);
  const cases: ResultsFile['cases'] = [];
  let done = 0;
  for (const row of doc.cases) {
    cases.push(derivedRow(row));
    done += row.samples.length + 1;
    if (done >= SAMPLES_PER_STEP) {
      done = 0;
      await pause();
    }
  }
  return recomputed(doc, cases);
}

/** A row with what readers derive from its samples (ok rows only), recomputed. */
const derivedRow = (row: ResultsFile['cases'][number]): ResultsFile['cases'][number] =>
  row.status === 'ok' ? { ...row, ...derivedFromSamples(row.samples, row.samplesPerPass) } : row;
