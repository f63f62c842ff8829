/** The page's run state (`window.__storebench`), as the e2e specs read it. */
import type { Page } from '@playwright/test';
import type { ResultsFile } from '../../src/core/results/results.ts';

export type PageState = { status: string; results?: ResultsFile; error?: string };

/** The page's run state now. */
export const state = (page: Page): Promise<PageState> =>
  page.evaluate(() => (window as unknown as { __storebench: PageState }).__storebench);

/** The page's run state once its run has ended, done or in error. */
export async function settled(page: Page, timeout = 90_000): Promise<PageState> {
  // Until the page has booted there is no state to read: under load that is seconds after goto.
  await page.waitForFunction(
    () =>
      ['done', 'error'].includes(
        (window as unknown as { __storebench?: PageState }).__storebench?.status ?? '',
      ),
    null,
    { timeout },
  );
  return state(page);
}
