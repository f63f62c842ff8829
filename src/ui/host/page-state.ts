/**
 * `window.__storebench`: the page's state for drivers and end-to-end tests, which poll it
 * instead of scraping the DOM.
 */
import type { ResultsFile } from '../../core/results/results.ts';

export type PageStatus = 'idle' | 'running' | 'done' | 'error';

export interface PageState {
  status: PageStatus;
  results?: ResultsFile;
  error?: string;
}

declare global {
  interface Window {
    __storebench: PageState;
  }
}

export function setPageState(state: PageState): void {
  window.__storebench = state;
}
