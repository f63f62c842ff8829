/**
 * Cases the page cannot run alone: a driver outside the page has to act between their steps, e.g.
 * kill the browser and start it again on the same profile (the crash suite). The page records
 * such rows as `unsupported` with a reason that starts with DRIVER_NEEDED; the sweep's Playwright
 * driver runs them and puts its rows in their place. Every other way of running (the page alone,
 * WebDriver, --manual) keeps the reason, which says how to get the row.
 */
import type { CaseIdentity } from '../base/identity.ts';
import type { CaseResult } from '../results/results.ts';
import { derivedFromSamples } from '../stats/stats.ts';
import type { Suite } from '../store/suite.ts';

export const DRIVER_NEEDED = 'needs the sweep to drive the browser';

/** The reason the page gives a driven row: what the driver must do, and how to run it. */
export function drivenReason(what: string): string {
  return `${DRIVER_NEEDED}: ${what}; run it with npm run sweep in Chromium or Firefox`;
}

/** A row the page left for the driver. */
export function awaitsDriver(
  row: CaseResult,
): row is CaseResult & { status: 'unsupported'; reason: string } {
  return row.status === 'unsupported' && row.reason.startsWith(DRIVER_NEEDED);
}

/**
 * A driven row that measured: one sample per trial, what each trial recorded besides its time
 * (`metrics`, and `notes` for what is not a number), and the statistics of the samples. A driver
 * runs a fixed number of trials, so the row stopped at its count.
 */
export function measuredRow(
  identity: CaseIdentity,
  samples: number[],
  recorded: { metrics: Record<string, number[]>; notes?: string[] },
): CaseResult {
  const { stats, precision, noise, outliers } = derivedFromSamples(samples);
  return {
    ...identity,
    samples,
    warmup: [],
    db: 'fresh',
    repeats: 1,
    ...recorded,
    status: 'ok',
    reason: null,
    stats,
    stopped: 'iterations',
    precision,
    noise,
    outliers,
  };
}

/** A driven row the sweep was stopped before or during (Ctrl-C, SIGTERM): not measured, and why. */
export function stoppedRow(row: CaseIdentity): CaseResult {
  return {
    ...row,
    samples: [],
    warmup: [],
    status: 'unsupported',
    reason: 'not measured: the sweep was stopped before this row finished',
  };
}

/**
 * A driven suite as both sides of the page/CLI line know it: its page cases and what its rows
 * say besides their time. Each driven suite defines its own in its file in suites/, and
 * suites/driven.ts lists them; the trials (src/cli) and the charts (src/ui) key on its id.
 */
export interface DrivenSuite<Id extends string = string> {
  /** The page's cases: the runner records each row unsupported with drivenReason, for the driver. */
  readonly suite: Suite<Id>;
  /** What the suite's rows found besides their time; null when the time is the finding. */
  readonly finding: DrivenFinding | null;
  /**
   * Whether a sample is one timed section, which the timer-resolution mark applies to as to any
   * other row's; false where a sample is a whole trial's time spread over its operations.
   */
  readonly timedSection: boolean;
}

/** What the sweep prints under its table for a driven suite's rows, and the page puts in their notes. */
export interface DrivenFinding {
  /** The heading over the suite's lines: its name, and what the table's ms are for its rows. */
  readonly heading: string;
  /** The row's finding in words, or null for a row without one (e.g. one that failed). */
  describe(row: CaseResult): string | null;
}

/** Which database of which store a page step works on. The driver names one database per trial. */
export interface StoreRequest {
  adapter: string;
  db: string;
}

/** A page step that writes the plan's documents: their shape and seed. */
export interface FixtureRequest extends StoreRequest {
  fixture: string;
  seed: number;
}

/** A page step of one case: its params (crash: durability and chunkSize; cold: op and state) and size. */
export interface CaseRequest extends FixtureRequest {
  params: Record<string, unknown>;
  size: number;
}
