/**
 * The protocol between the page and a collector (the sweep's local server). The page sends
 * these messages itself, so every driver stays thin: it only opens a URL and waits.
 *
 * The page learns where to send them from its URL: `?collector=<origin-relative or absolute
 * URL>&token=<run token>&browser=<label>&autorun=1` plus the plan fields (src/core/plan/url.ts).
 * Every message is POSTed as JSON to `<collector>` and carries the token; the collector refuses
 * messages without the token of the run it started.
 */
import type { ContractOutcome } from '../store/contract/report.ts';
import type { Carry } from './launch.ts';
import type { CaseResult, ResultsFile } from '../results/results.ts';
import type { RunEvent } from './runner.ts';

export type CollectorMessage =
  /** The page loaded and is about to run. */
  | { type: 'hello'; token: string; browser: string; userAgent: string }
  /** A runner event, for live progress (sample, group-start, warning, ...). */
  | {
      type: 'progress';
      token: string;
      browser: string;
      event: Exclude<RunEvent, { type: 'case-end' | 'pass-end' }>;
    }
  /** The rows after a pass with passes left in the launch (RunEvent pass-end): kept so a crash later loses only the pass in flight. */
  | { type: 'pass'; token: string; browser: string; launch?: number; carry: Carry }
  /** One finished case row, sent as soon as it finishes so a crash later loses nothing. */
  | {
      type: 'case';
      token: string;
      browser: string;
      result: CaseResult;
      rowsDone: number;
      rows: number;
    }
  /**
   * The complete results document at the end of the run; with `carry` when the sweep's later
   * launches take the passes left (launch.ts), and then `results` holds only the rows that never ran.
   * `launch` (as in 'pass'): which launch of the browser sent it, 1 when absent.
   */
  | {
      type: 'done';
      token: string;
      browser: string;
      launch?: number;
      results: ResultsFile;
      carry?: Carry;
    }
  /** The page could not run the plan at all (bad plan, crash in the harness). */
  | { type: 'fatal'; token: string; browser: string; message: string }
  /** `storebench check`'s page (check.html): the adapter contract's outcome on each store asked for. */
  | { type: 'contract'; token: string; browser: string; outcomes: ContractOutcome[] }
  /**
   * Sent by the page's watchdog Worker: a step of the run is `overdueMs` past its `limitMs` time
   * limit, so the page's thread is blocked (ui/host/watchdog.ts). Nothing more will come.
   */
  | {
      type: 'hung';
      token: string;
      browser: string;
      launch?: number;
      limitMs: number;
      overdueMs: number;
    };

/**
 * The collector's answer to an accepted message once the sweep asks the page to stop (Ctrl-C or
 * SIGTERM): the page cancels its run as its Cancel button does, and sends the rows it has in its
 * 'done' (`stopped: cancelled`). Otherwise the answer is 204 No Content.
 */
export const STOP_REPLY = { stop: 'cancel' } as const;

/** Whether a collector's JSON answer is STOP_REPLY. */
export function isStopReply(data: unknown): boolean {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { stop?: unknown }).stop === STOP_REPLY.stop
  );
}

/** Largest message the collector accepts, in bytes. */
export const MAX_COLLECTOR_MESSAGE_BYTES = 64 * 1024 * 1024;

/** URL query keys the page reads besides the plan fields. */
export const PAGE_QUERY = {
  collector: 'collector',
  token: 'token',
  browser: 'browser',
  autorun: 'autorun',
  runId: 'run',
  /** Set by a driver that applied the plan's CPU throttling to the page, to its rate. */
  throttled: 'throttled',
  /** Set by a sweep with --record-machine: record each sample's machine readings (machine.ts). */
  machine: 'machine',
} as const;
