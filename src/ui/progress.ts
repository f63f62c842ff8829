/**
 * The progress bar. The runner announces a sample when it has finished, so the label names the
 * latest sample taken ("insert/serial · idb · 1000 docs · sample 3/5") and the counter the
 * samples done out of all that will run.
 */
import type { RunEvent } from '../core/runner.ts';
import { h } from './dom.ts';

/** Redrawing on every sample of a sub-millisecond case is work for nothing; ten times a second reads as live. */
const SAMPLE_REDRAW_MS = 100;

export class ProgressView {
  readonly element: HTMLElement;
  private readonly label: HTMLElement;
  private readonly counter: HTMLElement;
  private readonly bar: HTMLElement;
  private readonly fill: HTMLElement;
  private total = 0;
  private done = 0;
  private lastDrawAt = -Infinity;

  constructor() {
    this.label = h('span', { className: 'progress-label', attrs: { 'data-testid': 'progress-label' } }, 'Ready.');
    this.counter = h('span', { className: 'progress-counter', attrs: { 'data-testid': 'progress-counter' } });
    this.fill = h('div', { className: 'progress-fill' });
    this.bar = h('div', { className: 'progress-bar', attrs: { role: 'progressbar', 'aria-valuemin': '0', 'aria-valuemax': '0', 'aria-valuenow': '0' } }, this.fill);
    this.element = h('div', { className: 'progress' }, h('div', { className: 'progress-text' }, this.label, this.counter), this.bar);
  }

  /** Apply a runner event; returns whether the DOM changed (the caller then settles layout). */
  onEvent(event: RunEvent): boolean {
    switch (event.type) {
      case 'run-start':
        this.total = event.samples;
        this.done = 0;
        this.element.dataset.state = 'running';
        this.draw(event.samples === 0 ? 'Nothing to time: every row is unsupported.' : 'Starting…');
        return true;
      case 'group-start':
        this.draw(`${event.suite}/${event.case} · ${event.size} docs · starting (${event.adapters.join(', ')})`);
        return true;
      case 'sample': {
        this.done = event.samplesDone;
        this.total = event.samplesTotal;
        const t = performance.now();
        if (t - this.lastDrawAt < SAMPLE_REDRAW_MS) return false;
        this.lastDrawAt = t;
        const kind = event.warmup ? 'warm-up' : 'sample';
        this.draw(`${event.suite}/${event.case} · ${event.adapter} · ${event.size} docs · ${kind} ${event.index}/${event.of}`);
        return true;
      }
      case 'case-end':
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
    this.lastDrawAt = -Infinity;
    this.element.dataset.state = 'running';
    this.draw('Collecting the environment…');
  }

  finish(state: 'done' | 'cancelled' | 'error', message: string): void {
    this.element.dataset.state = state;
    if (state === 'done') this.done = this.total;
    this.draw(message);
  }

  private draw(label: string): void {
    this.label.textContent = label;
    this.counter.textContent = this.total > 0 ? `${this.done}/${this.total} samples` : '';
    const fraction = this.total > 0 ? this.done / this.total : 0;
    this.fill.style.width = `${(fraction * 100).toFixed(1)}%`;
    this.bar.setAttribute('aria-valuemax', String(this.total));
    this.bar.setAttribute('aria-valuenow', String(this.done));
  }
}

function assertNever(x: never): never {
  throw new Error(`unhandled event ${JSON.stringify(x)}`);
}
