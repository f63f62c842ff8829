/**
 * The page's last phase: its explorer. It lists the served results files (never in a sweep's page
 * before its run, whose samples the listing would share the CPU with), and takes each run of this
 * page, without the sweep's collector, as one more file.
 */
import type { ResultsFile } from '../../core/results/results.ts';
import type { Page } from '../page.ts';

/** The served files, in the explorer and in the comparison's list. */
export function startExplorer({ views }: Page): void {
  void views.explorer
    .start(location.href)
    .then((index) => views.compare.setServed(index, location.href));
}

/** A finished run of this page, as a file of the explorer's. */
export function exploreRun({ views }: Page, results: ResultsFile): void {
  // The explorer is a view: if it cannot show this run, the run itself still succeeded.
  try {
    views.explorer.addRun(results);
  } catch (e) {
    console.error('storebench: the explorer could not show this run', e);
  }
}
