/**
 * The page as a published static site (npm run site builds it in Vite's mode `site`): it opens
 * the results bundled with it, and where the host sends no cross-origin isolation headers a
 * service worker adds them (public/coi-serviceworker.js). This says what is lost where that fails.
 */
import { formatStep } from '../core/base/format.ts';

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

/**
 * The banner's lines where the site is not isolated; none where it is. `secure`: a secure
 * context (HTTPS or localhost), without which there is no service worker and no OPFS either.
 */
export function isolationLoss(isolated: boolean, timerStepMs: number, secure: boolean): string[] {
  if (isolated) return [];
  return [
    `This host sends no cross-origin isolation headers, and the service worker that adds them did not take effect: ${workerNote()}.`,
    `What is lost: the timer step is ${formatStep(timerStepMs)} here instead of 5 to 20 µs, so a case faster than about 100 steps reads in coarse steps (the results table marks those rows); and the heap metric, whose API needs isolation, is not measured.`,
    secure
      ? "What still runs: every store, SQLite on OPFS included (its VFS, opfs-sahpool, needs no SharedArrayBuffer), and the results file's download."
      : "Lost too, outside a secure context: OPFS (navigator.storage.getDirectory), so SQLite on OPFS says unsupported. Every other store runs, and the results file's download works.",
  ];
}
