/**
 * One browser's run as the collector sees it: progress, finished rows, and how it ended. The
 * page decides when it is done; the session only watches the clock, so a page that never loads,
 * hangs in a case the runner cannot cut off, or dies quietly still ends the run with a reason.
 */
import type { CollectorMessage } from '../../core/run/collector.ts';
import type { Budget } from '../../core/plan/budget.ts';
import type { ContractOutcome } from '../../core/store/contract/report.ts';
import type { Carry } from '../../core/run/launch.ts';
import type { CaseResult, ResultsFile } from '../../core/results/results.ts';
import type { Rejection } from './page-server.ts';

export type RunEnd =
  /** With `carry` when the page ran only some of the passes (launch.ts). */
  | { kind: 'done'; results: ResultsFile; carry?: Carry }
  /** `storebench check`'s page ran the adapter contract on the stores asked for (check.html). */
  | { kind: 'checked'; outcomes: ContractOutcome[] }
  /** The page said it could not run the plan. */
  | { kind: 'fatal'; message: string; details?: string[] }
  /** The page sent results the collector refused. */
  | { kind: 'rejected'; message: string; details?: string[] }
  /** No word from the page within a time limit. */
  | { kind: 'stalled'; message: string; details?: string[] }
  /** The browser crashed, closed, or could not be started or driven. */
  | { kind: 'crashed'; message: string; details?: string[] }
  | { kind: 'cancelled'; message: string; details?: string[] };

export interface SessionProgress {
  userAgent: string | null;
  /** Date.now() of run-start, or null before it. */
  startedAt: number | null;
  rows: number | null;
  rowsDone: number;
  samples: number | null;
  samplesDone: number;
  /** Estimated fraction of the run done, under a budget; absent with a fixed count. */
  fraction?: number;
  /** What is left of the browser's budget at `fraction`, where the sweep knows it (spread over launches: Budget.browserLeftMs). */
  browserLeftMs?: number;
  /** The group in flight and the last sample taken in it. */
  current: {
    suite: string;
    case: string;
    size: number;
    adapter: string | null;
    warmup: boolean;
    index: number;
    of: number;
  } | null;
  /** The pass over the plan in flight, when the run takes more than one. */
  pass?: { pass: number; of: number } | null;
  /** The browser launch in flight, when the sweep spreads the passes over several (launch.ts). */
  launch?: { launch: number; of: number };
}

export interface SessionLimits {
  /** From the session's start to the page's hello (includes launching the browser). */
  startupMs: number;
  /** Longest silence between two messages once the page said hello. */
  idleMs: number;
  /** The plan's time limit of one step (a sample, or a shared database's fill). */
  caseTimeoutMs: number;
  /** The sampling time the budget gives the browser (Budget.browserMs; 0 with fixed sampling): the run may use all of it on top. */
  samplingMs: number;
  /** Extra time on top of the plan's own worst case, counted from run-start. */
  deadlineSlackMs: number;
  /** Worst-case cleanup time per sample that the runner allows itself (two deletes of 15 s). */
  cleanupPerSampleMs: number;
}

/**
 * Limits that a well-behaved page never reaches. A sample's steps share the step time limit,
 * and the runner allows up to 2 × 15 s for deleting each sample's database, so a page silent for
 * longer than that plus a margin is hung (e.g. a synchronous loop the runner cannot time out).
 */
export function defaultLimits(timeoutMs: number, budget?: Budget): SessionLimits {
  return {
    startupMs: 90_000,
    idleMs: timeoutMs + 2 * 15_000 + 60_000,
    caseTimeoutMs: timeoutMs,
    samplingMs: budget?.browserMs ?? 0,
    deadlineSlackMs: 120_000,
    cleanupPerSampleMs: 2 * 15_000,
  };
}

export interface SessionHooks {
  /** Progress changed (any accepted message). */
  onProgress?: () => void;
  /** A finished case row arrived (also repeats the rows of 'done' that never came one by one). */
  onCase?: (row: CaseResult) => void;
  /** The page ended a pass with passes left in the launch: `lastPass` holds its rows. */
  onPass?: () => void;
  /** A warning worth showing (runner warnings, refused messages). */
  onWarning?: (text: string) => void;
}

/** Why a message belongs to another run and is refused (409), or null: a results document carries its run id. */
export function otherRunReason(message: CollectorMessage, runId: string): string | null {
  const of =
    message.type === 'done'
      ? message.results.run.id
      : message.type === 'pass'
        ? message.carry.runId
        : runId;
  return of === runId
    ? null
    : `these results are of run ${of}; this sweep records run ${runId} only`;
}

export class BrowserSession {
  readonly cases: CaseResult[] = [];
  /** The rows as the page's last finished pass left them, when its launch has passes after it. */
  lastPass: Carry | null = null;
  readonly progress: SessionProgress = {
    userAgent: null,
    startedAt: null,
    rows: null,
    rowsDone: 0,
    samples: null,
    samplesDone: 0,
    current: null,
  };
  readonly ended: Promise<RunEnd>;
  private finish!: (end: RunEnd) => void;
  private over = false;
  private readonly timers = new Map<
    'startup' | 'idle' | 'deadline',
    ReturnType<typeof setTimeout>
  >();

  private label: string | null;

  /**
   * `browser` is the label the driver put in the page URL. null (--manual) means the label is
   * whatever the first page to say hello calls itself; from then on only that label counts.
   */
  constructor(
    browser: string | null,
    private readonly limits: SessionLimits,
    private readonly hooks: SessionHooks = {},
    /** Which launch of the browser this session is, from 1: a 'pass' or 'done' of another is refused. */
    readonly launch = 1,
  ) {
    this.label = browser;
    this.ended = new Promise<RunEnd>((ok) => (this.finish = ok));
    this.armStartup();
  }

  private armStartup(): void {
    const waitingFor = this.label === null ? 'of printing the URL' : 'of starting the browser';
    this.arm(
      'startup',
      this.limits.startupMs,
      () => `the page did not say hello within ${seconds(this.limits.startupMs)} ${waitingFor}`,
    );
  }

  /** A wait that is not the browser's start (a grid's queue, with its own limit): the startup clock stops. */
  holdStartup(): void {
    this.clear('startup');
  }

  /** The browser is starting now: the startup clock starts again from here, until the page's hello. */
  resumeStartup(): void {
    if (this.progress.userAgent === null) this.armStartup();
  }

  /** The page's label: the driver's, or (--manual) the first hello's; null until then. */
  get browser(): string | null {
    return this.label;
  }

  /**
   * Why the collector should refuse a message with 409 rather than take it and drop it, or null.
   * Only a session that adopts its label refuses: a second browser that opened the --manual URL
   * should hear that its results are not recorded, not believe they were.
   */
  conflict(message: CollectorMessage, adopting: boolean): string | null {
    if (
      (message.type === 'pass' || message.type === 'done') &&
      (message.launch ?? 1) !== this.launch
    ) {
      return `this ${message.type} is of launch ${message.launch ?? 1} of the browser; the sweep is in launch ${this.launch}`;
    }
    if (!adopting || this.label === null) return null;
    if (message.browser !== this.label)
      return `this sweep already records the browser that opened its URL first (${this.label}); start another sweep with --manual for this one`;
    if (message.type === 'hello' && this.progress.userAgent !== null)
      return `this sweep already records a ${this.label} that opened its URL first; open the URL in one browser only`;
    return null;
  }

  get isOver(): boolean {
    return this.over;
  }

  /** End the session; the first end wins, later ones are ignored. */
  end(end: RunEnd): void {
    if (this.over) return;
    this.over = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.finish(end);
  }

  /** A message the collector accepted. Messages for other browsers, or after the end, are ignored. */
  accept(message: CollectorMessage): void {
    if (this.label === null && message.type === 'hello') this.label = message.browser;
    if (this.over || message.browser !== this.label) return;
    this.clear('startup');
    this.arm(
      'idle',
      this.limits.idleMs,
      () => `no word from the page for ${seconds(this.limits.idleMs)}${this.inFlight()}`,
    );
    const p = this.progress;
    switch (message.type) {
      case 'hello':
        p.userAgent = message.userAgent;
        break;
      case 'progress':
        this.progressEvent(message.event);
        break;
      case 'pass':
        // Messages may overtake each other on the wire; the rows only move forward.
        if (message.carry.passesDone > (this.lastPass?.passesDone ?? 0)) {
          this.lastPass = message.carry;
          this.hooks.onPass?.();
        }
        break;
      case 'case':
        this.cases.push(message.result);
        p.rowsDone = Math.max(p.rowsDone, message.rowsDone);
        p.rows ??= message.rows;
        this.hooks.onCase?.(message.result);
        break;
      case 'done':
        p.rowsDone = message.results.cases.length;
        if (p.samples !== null) p.samplesDone = p.samples;
        this.hooks.onProgress?.();
        this.end({
          kind: 'done',
          results: message.results,
          ...(message.carry ? { carry: message.carry } : {}),
        });
        return;
      case 'contract':
        this.hooks.onProgress?.();
        this.end({ kind: 'checked', outcomes: message.outcomes });
        return;
      case 'fatal':
        this.hooks.onProgress?.();
        this.end({ kind: 'fatal', message: `the page could not run the plan: ${message.message}` });
        return;
      case 'hung':
        if ((message.launch ?? 1) !== this.launch) break;
        this.hooks.onProgress?.();
        this.end({
          kind: 'stalled',
          message: `the page's thread is blocked: a step is ${seconds(message.overdueMs)} past its ${seconds(message.limitMs)} time limit, which it could not enforce (a store that loops without yielding, or a browser call that never returns)${this.inFlight()}`,
        });
        return;
    }
    this.hooks.onProgress?.();
  }

  /** A progress event of the page's runner: the run's size and clock, the group and sample in flight. */
  private progressEvent(e: Extract<CollectorMessage, { type: 'progress' }>['event']): void {
    const p = this.progress;
    if (e.type === 'run-start') {
      p.startedAt = Date.now();
      p.rows = e.rows;
      p.samples = e.samples;
      const worst =
        e.samples * this.limits.cleanupPerSampleMs +
        e.rows * this.limits.caseTimeoutMs +
        this.limits.samplingMs +
        this.limits.deadlineSlackMs;
      this.arm(
        'deadline',
        worst,
        () => `the run went past its overall deadline of ${seconds(worst)}${this.inFlight()}`,
      );
    } else if (e.type === 'group-start') {
      p.current = {
        suite: e.suite,
        case: e.case,
        size: e.size,
        adapter: null,
        warmup: false,
        index: 0,
        of: 0,
      };
      p.pass = e.passes > 1 ? { pass: e.pass, of: e.passes } : null;
    } else if (e.type === 'sample') {
      // Messages may overtake each other on the wire; progress only moves forward.
      p.samplesDone = Math.max(p.samplesDone, e.samplesDone);
      if (e.fraction !== undefined) {
        // Adaptive sampling within a budget: the total is an estimate from the time used, and
        // the fraction done is what the time left is reckoned from.
        p.fraction = Math.max(p.fraction ?? 0, e.fraction);
        p.samples = Math.max(p.samplesDone, e.samplesTotal);
      } else {
        // With a fixed count the total shrinks as rows stop early (errors), so the smallest one
        // seen is the newest.
        p.samples = p.samples === null ? e.samplesTotal : Math.min(p.samples, e.samplesTotal);
      }
      p.current = {
        suite: e.suite,
        case: e.case,
        size: e.size,
        adapter: e.adapter,
        warmup: e.warmup,
        index: e.index,
        of: e.of,
      };
    } else if (e.type === 'warning') {
      this.hooks.onWarning?.(e.message);
    }
  }

  /**
   * A message the collector refused. A 'done' refused as malformed ends the run: nothing else is
   * coming. One refused as another run's or another launch's (409) is not this page's: a forged or
   * stale document must not end the run in flight.
   */
  reject(r: Rejection): void {
    if (this.over || (r.browser !== undefined && r.browser !== this.label)) return;
    const what = r.type ? `a '${r.type}' message` : 'a message';
    this.hooks.onWarning?.(`the collector refused ${what} (HTTP ${r.status}): ${r.reason}`);
    if (r.type === 'done' && r.status !== 409)
      this.end({ kind: 'rejected', message: `the page's results were refused: ${r.reason}` });
  }

  private inFlight(): string {
    const c = this.progress.current;
    if (!c) return '';
    return `; last seen in ${c.suite}/${c.case} size ${c.size}${c.adapter ? ` (${c.adapter})` : ''}`;
  }

  private arm(which: 'startup' | 'idle' | 'deadline', ms: number, why: () => string): void {
    if (this.over) return;
    this.clear(which);
    const timer = setTimeout(() => this.end({ kind: 'stalled', message: why() }), ms);
    this.timers.set(which, timer);
  }

  private clear(which: 'startup' | 'idle' | 'deadline'): void {
    const t = this.timers.get(which);
    if (t !== undefined) clearTimeout(t);
    this.timers.delete(which);
  }
}

function seconds(ms: number): string {
  return ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}
