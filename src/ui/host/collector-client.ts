/**
 * Sends the run to a collector (the sweep's local server) as CollectorMessages, POSTed as JSON.
 *
 * The runner calls onEvent synchronously between samples, never inside the timed `run` body.
 * Each POST is started right there, and the page's betweenSamples awaits `settled()` before the
 * next sample, so no request is in flight while a sample runs (its response's tasks would
 * otherwise land in the timed section). A failed POST is counted, never thrown into the runner.
 */
import { isStopReply, type CollectorMessage } from '../../core/run/collector.ts';
import { checkBaseline, type Baseline } from '../../core/verdicts/baseline.ts';
import { checkLaunchOrder, type Carry, type LaunchOrder } from '../../core/run/launch.ts';
import type { ContractOutcome } from '../../core/store/contract/report.ts';
import type { ResultsFile } from '../../core/results/results.ts';
import { asMachineReading, type MachineReading } from '../../core/run/machine.ts';
import type { RunEvent } from '../../core/run/runner.ts';

/** Live sample progress is for people watching a terminal; four updates a second is plenty. */
const SAMPLE_INTERVAL_MS = 250;
const HELLO_TIMEOUT_MS = 10_000;
const FINAL_TIMEOUT_MS = 60_000;
/** How long the page waits between samples for the collector's answers before it samples anyway. */
export const SETTLE_BEFORE_SAMPLE_MS = 10_000;

type Progress = Exclude<RunEvent, { type: 'case-end' | 'pass-end' }>;

export interface CollectorStats {
  sent: number;
  failed: number;
  lastError: string | null;
}

export class CollectorClient {
  readonly stats: CollectorStats = { sent: 0, failed: 0, lastError: null };
  private readonly inFlight = new Set<Promise<void>>();
  private lastSampleAt = -Infinity;
  /** Called once, when the collector first answers with STOP_REPLY (the sweep's Ctrl-C). */
  onStop: (() => void) | null = null;
  private stopHeard = false;
  /** The newest sample not sent because of the throttle; sent ahead of the next group-level event. */
  private heldSample: Progress | null = null;
  /** Which launch of the browser this page is (launch.ts), said in its 'pass' and 'done' messages. */
  private launchIndex = 1;

  constructor(
    readonly url: string,
    private readonly token: string,
    private readonly browser: string,
    private readonly clock: () => number = () => performance.now(),
  ) {}

  /** The collector's address with the run token: the collector checks it before it reads a body. */
  private get endpoint(): string {
    const u = new URL(this.url);
    u.searchParams.set('token', this.token);
    return u.href;
  }

  /**
   * The baseline the sweep samples against (`--baseline`), for this browser; undefined when the
   * sweep has none. Awaited before the run, like hello.
   */
  async baseline(): Promise<Baseline | undefined> {
    const data = await this.ask('baseline');
    return data === undefined ? undefined : checkBaseline(data);
  }

  /**
   * The passes the sweep gives this browser launch and the rows it carries (launch.ts); undefined
   * when the sweep runs every pass in this one. Awaited before the run, like hello.
   */
  async launch(runId: string, passes: number): Promise<LaunchOrder | undefined> {
    const data = await this.ask('launch');
    if (data === undefined) return undefined;
    const order = checkLaunchOrder(data, runId, passes);
    this.launchIndex = order.launch;
    return order;
  }

  /**
   * A reading of the browser's processes (machine.ts), or null when the collector has none: the
   * sweep runs without --record-machine, or the platform has no /proc. Never throws.
   */
  async machine(): Promise<MachineReading | null> {
    try {
      return asMachineReading(await this.ask('machine'));
    } catch {
      return null;
    }
  }

  /** GET `?<what>=<browser>` from the collector: its JSON, or undefined when it has none for this browser (204). */
  private async ask(what: 'baseline' | 'launch' | 'machine'): Promise<unknown> {
    const u = new URL(this.endpoint);
    u.searchParams.set(what, this.browser);
    const response = await fetch(u, { signal: AbortSignal.timeout(HELLO_TIMEOUT_MS) });
    if (response.status === 204) return undefined;
    if (!response.ok)
      throw new Error(
        `${what}: collector answered ${response.status} ${response.statusText}`.trim(),
      );
    return (await response.json()) as unknown;
  }

  /** What the watchdog Worker needs to tell the collector that this page's thread is blocked (watchdog.ts). */
  watchdogOrder(limitMs: number): {
    endpoint: string;
    hung: { type: 'hung'; token: string; browser: string; launch: number; limitMs: number };
  } {
    return {
      endpoint: this.endpoint,
      hung: {
        type: 'hung',
        token: this.token,
        browser: this.browser,
        launch: this.launchIndex,
        limitMs,
      },
    };
  }

  /** Before the run: awaited, so the collector hears of the page before any progress. */
  hello(userAgent: string): Promise<void> {
    return this.post(
      { type: 'hello', token: this.token, browser: this.browser, userAgent },
      HELLO_TIMEOUT_MS,
    );
  }

  /** For the runner's onEvent: synchronous, throttled for samples, never throws. */
  onRunEvent(event: RunEvent): void {
    try {
      if (event.type === 'case-end') {
        this.send({
          type: 'case',
          token: this.token,
          browser: this.browser,
          result: event.result,
          rowsDone: event.rowsDone,
          rows: event.rows,
        });
        return;
      }
      if (event.type === 'pass-end') {
        this.send({
          type: 'pass',
          token: this.token,
          browser: this.browser,
          launch: this.launchIndex,
          carry: event.carry,
        });
        return;
      }
      if (event.type === 'sample') {
        const t = this.clock();
        if (t - this.lastSampleAt < SAMPLE_INTERVAL_MS) {
          this.heldSample = event;
          return;
        }
        this.lastSampleAt = t;
        this.heldSample = null;
        this.sendProgress(event);
        return;
      }
      if (this.heldSample) this.sendProgress(this.heldSample);
      this.heldSample = null;
      this.sendProgress(event);
    } catch (e) {
      this.noteFailure(e);
    }
  }

  /** After the run: the full document, sent once every earlier message has settled. */
  async done(results: ResultsFile, carry?: Carry): Promise<void> {
    await this.settled();
    await this.post(
      {
        type: 'done',
        token: this.token,
        browser: this.browser,
        launch: this.launchIndex,
        results,
        ...(carry ? { carry } : {}),
      },
      FINAL_TIMEOUT_MS,
    );
  }

  /** `storebench check`'s page: the adapter contract's outcome on each store it was asked for. */
  async contract(outcomes: ContractOutcome[]): Promise<void> {
    await this.settled();
    await this.post(
      { type: 'contract', token: this.token, browser: this.browser, outcomes },
      FINAL_TIMEOUT_MS,
    );
  }

  async fatal(message: string): Promise<void> {
    await this.settled();
    await this.post(
      { type: 'fatal', token: this.token, browser: this.browser, message },
      FINAL_TIMEOUT_MS,
    );
  }

  private sendProgress(event: Progress): void {
    this.send({ type: 'progress', token: this.token, browser: this.browser, event });
  }

  private send(message: CollectorMessage): void {
    const p = this.post(message);
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /**
   * Resolves once every message sent so far has settled (answered or failed), or after
   * `maxWaitMs`: a collector that stops answering slows the run by that much, never stalls it.
   */
  async settled(maxWaitMs = Infinity): Promise<void> {
    if (this.inFlight.size === 0) return;
    const all = Promise.allSettled([...this.inFlight]);
    if (!Number.isFinite(maxWaitMs)) {
      await all;
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      all,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs))),
    ]);
    clearTimeout(timer);
  }

  /** Resolves whatever happens; failures are counted in `stats`. */
  private async post(message: CollectorMessage, timeoutMs?: number): Promise<void> {
    try {
      const response = await fetch(this.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
        ...(timeoutMs ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
      });
      if (!response.ok)
        throw new Error(
          `${message.type}: collector answered ${response.status} ${response.statusText}`.trim(),
        );
      this.stats.sent++;
      if (response.status === 200 && isStopReply(await response.json())) this.heardStop();
    } catch (e) {
      this.noteFailure(e);
    }
  }

  private heardStop(): void {
    if (this.stopHeard) return;
    this.stopHeard = true;
    this.onStop?.();
  }

  private noteFailure(e: unknown): void {
    this.stats.failed++;
    this.stats.lastError = e instanceof Error ? e.message : String(e);
  }
}
