/**
 * What the results table counts of its rows: how many of each status, how many medians too close
 * to the timer step (the line over the table), and the stores that could not run a case, folded
 * into one line per store under the table, with the reasons, so a missing row is still a visible
 * finding without burying the measured ones.
 */
import type { CaseResult, CaseStatus } from '../../core/results/results.ts';
import { MIN_TIMER_STEPS } from '../../core/base/timer.ts';
import { h } from '../dom.ts';

export class TableCounts {
  private readonly counts: Record<CaseStatus, number> = {
    ok: 0,
    unsupported: 0,
    error: 0,
    timeout: 0,
  };
  /** ok rows whose median is under MIN_TIMER_STEPS timer steps. */
  private coarseRows = 0;
  /** Stores that could not run a case: how many cases, and the reasons. */
  private readonly unsupported = new Map<string, { cases: number; reasons: Set<string> }>();

  clear(): void {
    for (const k of Object.keys(this.counts) as CaseStatus[]) this.counts[k] = 0;
    this.coarseRows = 0;
    this.unsupported.clear();
  }

  /** Count a row; `coarse` when its median is under the timer's floor. */
  add(result: CaseResult, coarse = false): void {
    this.counts[result.status]++;
    if (coarse) this.coarseRows++;
    if (result.status !== 'unsupported') return;
    const seen = this.unsupported.get(result.adapter) ?? { cases: 0, reasons: new Set<string>() };
    seen.cases++;
    seen.reasons.add(result.reason);
    this.unsupported.set(result.adapter, seen);
  }

  /** The line over the table: rows by status, and the coarse medians; empty with no row. */
  summary(timerStepMs: number): string {
    const total = Object.values(this.counts).reduce((a, b) => a + b, 0);
    if (total === 0) return '';
    const parts = (Object.entries(this.counts) as [CaseStatus, number][])
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k}`);
    const coarse =
      this.coarseRows > 0
        ? ` ⚠ ${this.coarseRows} row${this.coarseRows === 1 ? ' has a median' : 's have medians'} under ${MIN_TIMER_STEPS} timer steps (${timerStepMs} ms): mostly timer noise; use bigger sizes.`
        : '';
    return `${total} row${total === 1 ? '' : 's'}: ${parts.join(', ')}.${coarse}`;
  }

  /** The unsupported stores, folded under the table; nothing when every store could run. */
  folded(): HTMLElement[] {
    if (this.unsupported.size === 0) return [];
    const total = [...this.unsupported.values()].reduce((n, u) => n + u.cases, 0);
    const stores = this.unsupported.size;
    return [
      h(
        'details',
        {},
        h(
          'summary',
          {},
          `${total} unsupported row${total === 1 ? '' : 's'}, in ${stores} store${stores === 1 ? '' : 's'}`,
        ),
        h(
          'ul',
          {},
          ...[...this.unsupported].map(([adapter, u]) =>
            h(
              'li',
              {},
              h('code', {}, adapter),
              ` (${u.cases} case${u.cases === 1 ? '' : 's'}): ${[...u.reasons].join('; ')}`,
            ),
          ),
        ),
      ),
    ];
  }
}
