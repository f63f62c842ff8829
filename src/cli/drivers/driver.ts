/**
 * What every driver does: start a browser, open one URL, and wait until the session ends. The
 * page sends its results to the collector itself, so a driver never reads results; it only
 * reports what the collector cannot see (the browser crashed, closed, or never started).
 */
import type { FoundBrowser } from './discovery.ts';
import type { BrowserSession, RunEnd } from '../server/session.ts';

export interface DriveRequest {
  browser: FoundBrowser;
  /** The page URL with the plan, collector and token in its query. */
  url: string;
  session: BrowserSession;
  /** Aborted on Ctrl-C / SIGTERM: end the session as cancelled and close the browser. */
  signal: AbortSignal;
  hooks?: DriveHooks;
}

/** What a driver tells the sweep before and as the browser starts, for its progress and its results. */
export interface DriveHooks {
  /** What the browser's start waits for (a full grid), or null once it is over; `first` the first time this wait is said. */
  waiting?(text: string | null, first: boolean): void;
  /** The machine the browser runs on, as the endpoint names it (a grid's node). */
  ranOn?(node: string): void;
}

/** Resolves with the session's end once the browser is closed again. Never rejects. */
export type Driver = (request: DriveRequest) => Promise<RunEnd>;

/** Keep the last few lines of something noisy (console errors), for the report of a failed run. */
export class LastLines {
  private readonly lines: string[] = [];
  constructor(private readonly keep = 5) {}
  push(line: string): void {
    this.lines.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
    if (this.lines.length > this.keep) this.lines.shift();
  }
  get all(): string[] {
    return [...this.lines];
  }
}

/** Attach details to an end that is not 'done'. */
export function withDetails(end: RunEnd, details: string[]): RunEnd {
  if (end.kind === 'done' || end.kind === 'checked' || details.length === 0) return end;
  return { ...end, details: [...(end.details ?? []), ...details] };
}

/** The page's own view of its state (window.__storebench), as one line for a report. */
export function describePageState(state: unknown): string {
  if (state === undefined || state === null)
    return 'page state: window.__storebench is not set (the page script may not have started)';
  if (typeof state === 'string' || typeof state === 'number' || typeof state === 'boolean')
    return `page state: ${String(state)}`;
  if (typeof state !== 'object') return `page state: a ${typeof state}`;
  const s = state as { status?: unknown; error?: unknown };
  // Both drivers read the error as a string; of anything else only its type is shown.
  const error = typeof s.error === 'string' ? s.error : typeof s.error;
  return `page state: status ${JSON.stringify(s.status)}${s.error ? `, error ${JSON.stringify(error).slice(0, 300)}` : ''}`;
}

export function once(signal: AbortSignal, then: () => void): () => void {
  if (signal.aborted) {
    then();
    return () => {};
  }
  signal.addEventListener('abort', then, { once: true });
  return () => signal.removeEventListener('abort', then);
}
