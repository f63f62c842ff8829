/**
 * The adapter contract in one browser: the built page's check.html (src/ui/check/) opened by the
 * browser's driver with the stores to check in its URL; it runs the contract on each and sends
 * the outcomes to the collector, which ends the session with them. `storebench check` and a sweep
 * before it times anything both run it this way, so every driver (Playwright, WebDriver, a remote
 * browser) runs the contract as it runs the plan.
 */
import { PAGE_QUERY } from '../../core/run/collector.ts';
import { COLLECT_PATH } from '../server/page-server.ts';
import { BrowserSession, type RunEnd } from '../server/session.ts';
import type { Target } from './sweep-run.ts';

/** The page of the contract, beside the app's index.html in every built page. */
const CHECK_PAGE = 'check.html';
const CHECK_QUERY = 'check';

/**
 * A page that said hello then runs the contract without a word until it ends: the slowest store
 * here (PouchDB, its queries and views) takes about 15 s in Chromium, so a page silent for 15
 * minutes is hung.
 */
const LIMITS = {
  startupMs: 90_000,
  idleMs: 15 * 60_000,
  caseTimeoutMs: 0,
  samplingMs: 0,
  deadlineSlackMs: 0,
  cleanupPerSampleMs: 0,
};

function checkUrl(origin: string, token: string, browser: string, ids: readonly string[]): string {
  const query = new URLSearchParams({
    [PAGE_QUERY.collector]: COLLECT_PATH,
    [PAGE_QUERY.token]: token,
    [PAGE_QUERY.browser]: browser,
    [CHECK_QUERY]: ids.join(','),
  });
  return `${origin}/${CHECK_PAGE}?${query}`;
}

export interface CheckRequest {
  /** Where the browser loads the page from. */
  origin: string;
  token: string;
  target: Target;
  ids: readonly string[];
  signal: AbortSignal;
  /** The session in flight, for the collector to hand the page's messages to; undefined once it ended. */
  onSession: (session: BrowserSession | undefined) => void;
}

/** How the check ended in this browser: 'checked' with the outcomes, or why the page could not say. */
export async function checkInBrowser(r: CheckRequest): Promise<RunEnd> {
  const session = new BrowserSession(r.target.id, { ...LIMITS });
  r.onSession(session);
  try {
    return await r.target.drive(checkUrl(r.origin, r.token, r.target.id, r.ids), session, r.signal);
  } finally {
    r.onSession(undefined);
  }
}
