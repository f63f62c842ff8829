/**
 * Live progress of the sweep. On a terminal each browser has one line that updates in place
 * (carriage return); in CI logs, where \r only makes a mess, a plain line every few seconds.
 */
import type { SessionProgress } from '../server/session.ts';
import { printable, printableField } from './escape.ts';
import { formatClock } from '../../core/base/format.ts';
import type { Budget } from '../../core/plan/budget.ts';

/** One line: samples and rows done, elapsed, estimated remaining, and the case in flight. */
export function progressLine(
  browser: string,
  p: SessionProgress,
  nowMs: number,
  waiting = 'starting the browser and loading the page…',
): string {
  const name = browser.padEnd(9);
  if (p.userAgent === null && p.startedAt === null) return `${name} ${waiting}`;
  if (p.startedAt === null || p.samples === null || p.rows === null)
    return `${name} page loaded, checking which stores it supports…`;
  const elapsed = nowMs - p.startedAt;
  const left = timeLeft(p, elapsed);
  const c = p.current;
  const now = c
    ? ` | ${c.suite}/${c.case} size ${c.size}${c.adapter ? ` ${c.adapter} ${inFlight(c, p.fraction !== undefined)}` : ''}`
    : '';
  const samples =
    p.fraction === undefined
      ? `samples ${p.samplesDone}/${p.samples}`
      : `${Math.floor(p.fraction * 100)}% | samples ${p.samplesDone}`;
  const pass = `${p.pass ? ` | pass ${p.pass.pass}/${p.pass.of}` : ''}${p.launch ? ` | launch ${p.launch.launch}/${p.launch.of}` : ''}`;
  return `${name} ${samples} | rows ${p.rowsDone}/${p.rows}${pass} | ${formatClock(elapsed)} elapsed | ${left}${now}`;
}

/** Where a browser's launches stand, for acrossLaunches. */
export interface LaunchProgress {
  launch: number;
  of: number;
  /** Date.now() when the browser's first launch started. */
  startedAt: number;
  /** Samples the earlier launches took. */
  samplesBefore: number;
  /** Rows the launch before finished: those with nothing to sample (unsupported), which every launch finishes again. */
  rowsBefore: number;
  /** Time the earlier launches ran in their pages, and the share of the budget this one was given. */
  budgetUsedMs: number;
  launchBudgetMs: number;
}

/**
 * A launch's progress as part of the browser's whole run: its clock from the first launch, the
 * samples of every launch, and the fraction of the run done, as the budget reckons it from the
 * earlier launches' time in their pages and this launch's own time and fraction (Budget.doneAcross).
 */
export function acrossLaunches(
  p: SessionProgress,
  a: LaunchProgress,
  budget: Budget,
  nowMs: number,
): SessionProgress {
  const launch = { launch: a.launch, of: a.of };
  if (p.startedAt === null) return { ...p, launch };
  const fraction =
    p.fraction === undefined
      ? undefined
      : budget.doneAcross({
          launch: a.launch,
          of: a.of,
          usedMs: a.budgetUsedMs,
          spentMs: Math.max(0, nowMs - p.startedAt),
          done: p.fraction,
          shareMs: a.launchBudgetMs,
        });
  const samplesDone = a.samplesBefore + p.samplesDone;
  return {
    ...p,
    launch,
    startedAt: Math.min(a.startedAt, nowMs),
    samplesDone,
    rowsDone: Math.max(a.rowsBefore, p.rowsDone),
    samples: Math.max(samplesDone, a.samplesBefore + (p.samples ?? 0)),
    ...(fraction === undefined ? {} : { fraction, browserLeftMs: budget.browserLeftMs(fraction) }),
  };
}

/**
 * The sample in flight: `sample 3/5` with a fixed count, `sample 40` under a budget (the count is
 * not known), `warm-up 1/2` in the first pass, and `warm-up` alone in a later one, whose warm-up
 * comes on top of the plan's count.
 */
function inFlight(c: NonNullable<SessionProgress['current']>, budgeted: boolean): string {
  if (c.warmup) return c.index <= c.of ? `warm-up ${c.index}/${c.of}` : 'warm-up';
  return `sample ${c.index}${budgeted ? '' : `/${c.of}`}`;
}

/** Below this fraction of a budgeted run done, its pace so far says too little to scale up. */
const EARLY_FRACTION = 0.1;

/**
 * Time left: under a budget, from the fraction of it done; with a fixed count, from the samples
 * left. With nothing done yet there is nothing to scale.
 */
function timeLeft(p: SessionProgress, elapsed: number): string {
  const done = p.fraction ?? (p.samples ? p.samplesDone / p.samples : 0);
  if (done >= 1) return 'finishing';
  // Under a budget, the budget left until a tenth of it is spent: scaling the first seconds (a
  // browser start, the first warm-ups) up by the fraction read 25 to 49 minutes for a 6-minute run.
  if (p.browserLeftMs !== undefined && done < EARLY_FRACTION)
    return `~${formatClock(p.browserLeftMs)} left`;
  if (done <= 0) return '? left';
  return `~${formatClock((elapsed * (1 - done)) / done)} left`;
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export class ProgressView {
  private current = '';
  private lastPrinted = -Infinity;
  private lastLine = '';

  constructor(
    private readonly stream: ProgressStream,
    private readonly intervalMs = 10_000,
    private readonly clock: () => number = Date.now,
  ) {}

  private get tty(): boolean {
    return this.stream.isTTY === true;
  }

  /** Show the line in flight: rewritten in place on a terminal, throttled otherwise. */
  update(raw: string): void {
    // Lines carry names from the page and from files: their control characters are escaped (escape.ts).
    const line = printableField(raw);
    this.current = line;
    if (this.tty) {
      this.stream.write(`\r${this.fit(line)}\x1b[K`);
    } else if (this.clock() - this.lastPrinted >= this.intervalMs && line !== this.lastLine) {
      this.print(line);
    }
  }

  /** A line that stays (a warning, a browser's outcome), printed above the line in flight. */
  note(raw: string): void {
    const text = printable(raw);
    if (this.tty) {
      this.stream.write(`\r\x1b[K${text}\n`);
      if (this.current) this.stream.write(this.fit(this.current));
    } else this.print(text);
  }

  /** End the line in flight with its final text. */
  finish(raw: string): void {
    const line = printable(raw);
    this.current = '';
    if (this.tty) this.stream.write(`\r\x1b[K${line}\n`);
    else this.print(line);
  }

  private print(line: string): void {
    this.stream.write(`${line}\n`);
    this.lastPrinted = this.clock();
    this.lastLine = line;
  }

  /** A line longer than the terminal wraps, and \r then rewrites only its last part. */
  private fit(line: string): string {
    const width = (this.stream.columns || 120) - 1; // 0 under some pseudo-terminals
    return line.length > width ? `${line.slice(0, Math.max(0, width - 1))}…` : line;
  }
}
