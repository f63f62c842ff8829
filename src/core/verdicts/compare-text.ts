/**
 * A comparison's run-to-run spread and shift as text: one paragraph for the CLI and the page, and
 * the signed percentages every view of a change writes ("+1.2%"). Words only: the comparison
 * itself is compare.ts's.
 */
import { RUN_TO_RUN_MIN_ROWS } from '../stats/stats.ts';
import { shownDetectable } from './change.ts';
import type { RunToRun } from './compare.ts';

/**
 * The run-to-run spread and the shift as one paragraph, for the CLI and the page: what was added
 * to the intervals and taken out of the changes, per browser, and why. Null when no row was compared.
 */
export function formatRunToRun(runToRun: readonly RunToRun[]): string | null {
  if (runToRun.length === 0) return null;
  const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
  const parts = runToRun.map((r) =>
    r.estimated
      ? `${r.browser} ${r.pct.toFixed(1)}% (from ${rows(r.rows)})`
      : `${r.browser} none (${rows(r.rows)}: too few to estimate it from, ${RUN_TO_RUN_MIN_ROWS} needed)`,
  );
  const shifts = runToRun.filter((r) => r.shift).map(shiftText);
  return (
    `Run-to-run spread added to every row's interval: ${parts.join(', ')}. ` +
    "It is how far the browser's rows moved between the two sides beyond their shared shift and their own intervals (a standard deviation), " +
    "which a run's intervals cannot see: a browser launch and the machine's state minutes apart move each row a little, its own way." +
    (shifts.length > 0
      ? ` Shift every row shares, the median row's change with its 95% interval: ${shifts.join(', ')}. ` +
        'Each row is judged net of it: one run per side cannot tell a slower machine from a change every store shares, ' +
        'so a shift is decided on its own, and one beyond the threshold leaves the gate undecided; to judge it, measure both sides in one run.'
      : '')
  );
}

/** A browser's shift as "chromium +16.2% [+14.0%, +18.5%]"; its browser alone when it has none. */
export function shiftText(r: RunToRun): string {
  return r.shift
    ? `${r.browser} ${signedPct(r.shift.pct)} [${signedPct(r.shift.low)}, ${signedPct(r.shift.high)}]`
    : r.browser;
}

/**
 * A compared row's detectable change as its cell shows it, `+7.0%`, or `none`: none for a row
 * shown slower, which caught its slowdown (change.shownDetectable), nor for one without a finite one.
 */
export function detectablePctCell(
  verdict: string,
  detectablePct: number | undefined,
  none: string,
): string {
  const d = shownDetectable({ verdict, detectable: detectablePct ?? null });
  return d === null || !Number.isFinite(d) ? none : signedPct(d);
}

/** A change in % with its sign: "+1.2%", "-3.4%", "±0.0%". */
export const signedPct = (x: number) =>
  `${x > 0 ? '+' : x < 0 ? '-' : '±'}${Math.abs(x).toFixed(1)}%`;
