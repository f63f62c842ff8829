/**
 * The page as a published static site (npm run site builds it in Vite's mode `site`): it opens
 * the results bundled with it, and where the host sends no cross-origin isolation headers a
 * service worker adds them (public/coi-serviceworker.js). This says what is lost where that fails.
 */
import { formatStep } from './format.ts';

export const IS_SITE = import.meta.env.MODE === 'site';

/** What public/coi-serviceworker.js recorded of its attempt, in this tab's session storage. */
function workerNote(): string {
  let note: string | null = null;
  try {
    note = sessionStorage.getItem('storebench-coi');
  } catch {
    // Storage refused (a privacy mode): nothing recorded.
  }
  return note ?? 'no service worker could be registered here';
}

/** The banner's lines where the site is not isolated; none where it is. */
export function isolationLoss(isolated: boolean, timerStepMs: number): string[] {
  if (isolated) return [];
  return [
    `This host sends no cross-origin isolation headers, and the service worker that adds them did not take effect (${workerNote()}); it needs HTTPS (or localhost), and a browser that allows service workers (not a private window in some browsers).`,
    `What is lost: the timer step is ${formatStep(timerStepMs)} here instead of 5 to 20 µs, so a case faster than about 100 steps reads in coarse steps (the results table marks those rows), and the heap metric (performance.measureUserAgentSpecificMemory) is not measured.`,
    "What still runs: every store, SQLite on OPFS included (its VFS, opfs-sahpool, needs no SharedArrayBuffer), and the results file's download.",
  ];
}
