/**
 * The progress bar. The runner announces a sample when it has finished, so the label names the
 * latest sample taken ("insert/serial · idb · 1000 docs · sample 3/5") and the counter the
 * samples done out of all that will run. Under adaptive sampling nobody knows that count in
 * advance: the runner estimates the fraction of the run done (from its time budget), and the
 * bar and the time left follow that instead.
 */
import { formatDuration } from '../../core/base/format.ts';
import type { RunEvent } from '../../core/run/runner.ts';
import { h } from '../dom.ts';

/** Redrawing on every sample of a sub-millisecond case is work for nothing; ten times a second reads as live. */
const SAMPLE_REDRAW_MS = 100;

/** Before this much of the run, or this much time, a time-left estimate is mostly start-up noise. */
const ETA_MIN_FRACTION = 0.02;
const ETA_MIN_ELAPSED_MS = 2000;

/**
 * `~1m30s left` from the time spent and the fraction done, assuming the rest goes at the same
 * pace; empty until there is enough of the run to tell.
 */
export function timeLeftText(elapsedMs: number, fraction: number): string {
  if (fraction >= 1) return '';
  if (!(fraction >= ETA_MIN_FRACTION) || elapsedMs < ETA_MIN_ELAPSED_MS)
    return 'estimating time left…';
  const leftS = Math.max(1, Math.round((elapsedMs * (1 - fraction)) / fraction / 1000));
  return `~${formatDuration(leftS * 1000)} left`;
}

export class ProgressView {
  readonly element: HTMLElement;
  private readonly label: HTMLElement;
  private readonly counter: HTMLElement;
  private readonly eta: HTMLElement;
  private readonly bar: HTMLElement;
  private readonly fill: HTMLElement;
  private total = 0;
  private done = 0;
  /** The runner's own estimate of the fraction done (adaptive sampling); null: done / total. */
  private fraction: number | null = null;
  /** When the runner started timing (run-start), for the time left. */
  private startedAt: number | null = null;
  private lastDrawAt = -Infinity;
  /** "pass 2 of 3 · " while a run of several passes is in its second, or nothing. */
  private pass = '';

  constructor() {
    this.label = h(
      'span',
      { className: 'progress-label', attrs: { 'data-testid': 'progress-label' } },
      'Ready.',
    );
    this.counter = h('span', {
      className: 'progress-counter',
      attrs: { 'data-testid': 'progress-counter' },
    });
    this.eta = h('span', {
      className: 'progress-counter',
      attrs: { 'data-testid': 'progress-eta' },
    });
    this.fill = h('div', { className: 'progress-fill' });
    this.bar = h(
      'div',
      {
        className: 'progress-bar',
        attrs: {
          role: 'progressbar',
          'aria-valuemin': '0',
          'aria-valuemax': '100',
          'aria-valuenow': '0',
        },
      },
      this.fill,
    );
    this.element = h(
      'div',
      { className: 'progress' },
      h(
        'div',
        { className: 'progress-text' },
        this.label,
        h('span', { className: 'progress-numbers' }, this.counter, ' ', this.eta),
      ),
      this.bar,
    );
  }

  /** Apply a runner event; returns whether the DOM changed (the caller then settles layout). */
  onEvent(event: RunEvent): boolean {
    switch (event.type) {
      case 'run-start':
        this.total = event.samples;
        this.done = 0;
        this.fraction = null;
        this.startedAt = performance.now();
        this.element.dataset.state = 'running';
        this.draw(event.samples === 0 ? 'Nothing to time: every row is unsupported.' : 'Starting…');
        return true;
      case 'group-start':
        this.pass = event.passes > 1 ? `pass ${event.pass} of ${event.passes} · ` : '';
        this.draw(
          `${this.pass}${event.suite}/${event.case} · ${event.size} docs · starting (${event.adapters.join(', ')})`,
        );
        return true;
      case 'sample': {
        this.done = event.samplesDone;
        this.total = event.samplesTotal;
        this.fraction = event.fraction ?? null;
        const t = performance.now();
        if (t - this.lastDrawAt < SAMPLE_REDRAW_MS) return false;
        this.lastDrawAt = t;
        const kind = event.warmup ? 'warm-up' : 'sample';
        this.draw(
          `${this.pass}${event.suite}/${event.case} · ${event.adapter} · ${event.size} docs · ${kind} ${event.index}/${event.of}`,
        );
        return true;
      }
      case 'case-end':
      case 'pass-end':
      case 'warning':
        return false;
      case 'run-end':
        return false; // finish() says how the run ended, with the results in hand
      default:
        return assertNever(event);
    }
  }

  start(): void {
    this.total = 0;
    this.done = 0;
    this.fraction = null;
    this.startedAt = null;
    this.lastDrawAt = -Infinity;
    this.element.dataset.state = 'running';
    this.draw('Collecting the environment…');
  }

  /** Before the first sample: say in words what the run waits for. */
  waiting(what: string): void {
    this.draw(what);
  }

  finish(state: 'done' | 'cancelled' | 'error', message: string): void {
    this.element.dataset.state = state;
    // An adaptive run's total was an estimate; finished, the samples taken are the total.
    if (state === 'done') {
      if (this.fraction !== null) this.total = this.done;
      else this.done = this.total;
      this.fraction = null;
    }
    this.startedAt = null;
    this.draw(message);
  }

  private draw(label: string): void {
    this.label.textContent = label;
    const estimated = this.fraction !== null;
    this.counter.textContent =
      this.total > 0
        ? estimated
          ? `${this.done} of ~${this.total} samples`
          : `${this.done}/${this.total} samples`
        : '';
    const fraction = Math.min(1, this.fraction ?? (this.total > 0 ? this.done / this.total : 0));
    this.eta.textContent =
      this.startedAt !== null && this.total > 0
        ? timeLeftText(performance.now() - this.startedAt, fraction)
        : '';
    this.fill.style.width = `${(fraction * 100).toFixed(1)}%`;
    this.bar.setAttribute('aria-valuenow', (fraction * 100).toFixed(0));
  }
}

function assertNever(x: never): never {
  throw new Error(`unhandled event ${JSON.stringify(x)}`);
}
