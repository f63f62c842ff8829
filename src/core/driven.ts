/**
 * Cases the page cannot run alone: a driver outside the page has to act between their steps, e.g.
 * kill the browser and start it again on the same profile (the crash suite). The page records
 * such rows as `unsupported` with a reason that starts with DRIVER_NEEDED; the sweep's Playwright
 * driver runs them and puts its rows in their place. Every other way of running (the page alone,
 * WebDriver, --manual) keeps the reason, which says how to get the row.
 */
import type { CaseResult } from './results.ts';

export const DRIVER_NEEDED = 'needs the sweep to drive the browser';

/** The reason the page gives a driven row: what the driver must do, and how to run it. */
export function drivenReason(what: string): string {
  return `${DRIVER_NEEDED}: ${what}; run it with npm run sweep in a browser it drives with Playwright (Chromium, Firefox)`;
}

/** A row the page left for the driver. */
export function awaitsDriver(row: CaseResult): row is CaseResult & { status: 'unsupported'; reason: string } {
  return row.status === 'unsupported' && row.reason.startsWith(DRIVER_NEEDED);
}
