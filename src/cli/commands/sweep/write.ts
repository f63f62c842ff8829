/**
 * Phase 6 of a sweep: a browser's results file (or its partial file, when its run did not
 * finish), and at the end the CSV of every complete one. Every file goes through files/output.ts,
 * which writes through a temporary file and a rename.
 */
import type { ResultsFile } from '../../../core/results/results.ts';
import { toCsv } from '../../../export/csv.ts';
import { OutputError } from '../../files/output.ts';
import { installedPackages } from '../../build/variant-sources.ts';
import type { RunEnd } from '../../server/session.ts';
import { keptRows, writePartial } from './launches.ts';
import { withDrivenRows } from './run-trials.ts';
import { placementRecord } from './place.ts';
import {
  driverOf,
  labelOf,
  type BrowserOutcome,
  type BrowserRun,
  type SweepRun,
} from '../../browser-runs/sweep-run.ts';

/** The browser's outcome, its driven rows measured and its file written. */
export async function writeBrowser(
  run: SweepRun,
  b: BrowserRun,
  end: RunEnd,
): Promise<BrowserOutcome> {
  const name = labelOf(b);
  if (end.kind !== 'done') {
    const cases = keptRows(b);
    if (cases.length > 0) {
      // The kept rows' file says how the run ended and which pass it lost.
      writePartial(run, b, end);
      run.output.keepPartial(name);
    }
    return { browser: name, end, cases };
  }
  const results = await withDrivenRows(run, b, resultsOf(run, b, end.results));
  if (
    end.results.run.browser !== (b.target.browser ? b.target.id : b.session.browser) ||
    end.results.run.id !== run.runId
  ) {
    run.view.note(
      `${name}: warning: the results say run ${end.results.run.id} in ${end.results.run.browser}, expected run ${run.runId} in ${name}`,
    );
  }
  try {
    run.output.writeResults(name, results);
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    run.unwritten.push(e.message);
  }
  return { browser: name, end: { kind: 'done', results }, cases: results.cases };
}

/**
 * The page's document as the sweep files it: named for --manual's browser, started with the first
 * launch, and saying where the browser ran, which the page cannot know.
 */
function resultsOf(run: SweepRun, b: BrowserRun, results: ResultsFile): ResultsFile {
  // The release of each package a plain store wraps, under what the store says of itself.
  const adapters = { ...results.environment.adapters };
  for (const [id, facts] of Object.entries(installedPackages(run.plan.adapters, run.vocab)))
    adapters[id] = { ...facts, ...adapters[id] };
  const placement = placementRecord(run.placement);
  const environment = {
    ...results.environment,
    driver: driverOf(run, b),
    ...(placement ? { placement } : {}),
    ...(Object.keys(adapters).length > 0 ? { adapters } : {}),
  };
  const named = b.target.browser
    ? { ...results, environment }
    : { ...results, environment, run: { ...results.run, browser: labelOf(b) } };
  // How --budget auto sized the run: the page knows only the passes it was given.
  if (run.sized) named.run = { ...named.run, sizing: run.sized };
  // A run over several launches started with the first; its rows carry the samples of all.
  return b.launched > 1
    ? { ...named, run: { ...named.run, startedAt: b.startedAt, launches: b.launched } }
    : named;
}

/** The CSV holds complete, validated results only; partial rows stay in their .partial.json. */
export function writeCsv(run: SweepRun): void {
  const complete = completeResults(run);
  if (complete.length === 0) return;
  try {
    run.output.writeCsv(toCsv(complete));
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    run.unwritten.push(e.message);
  }
}

export function completeResults(run: SweepRun): ResultsFile[] {
  return run.outcomes.flatMap((o) => (o.end.kind === 'done' ? [o.end.results] : []));
}
