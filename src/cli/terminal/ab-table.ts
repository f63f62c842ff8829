/**
 * An A/B run in the terminal: per browser and case, B/A with its 95% interval over launches and
 * its verdict, the rows that fail the run marked; then the one-line verdict (core/verdicts/ab.ts).
 */
import type { AbDecision, AbRow } from '../../core/verdicts/ab.ts';
import { renderTable, type Align } from './table.ts';

const times = (x: number) => `×${x.toFixed(3)}`;

/** The table and the legend; the decision's line is the caller's last. */
export function abTable(
  rows: readonly AbRow[],
  decision: AbDecision,
  thresholdPct: number,
): string {
  if (rows.length === 0) return '(no case ran on both stores)';
  const failing = new Set(decision.slower);
  const header = ['browser', 'suite/case', 'size', 'B/A', '95% interval', 'passes', 'verdict'];
  const align: Align[] = ['left', 'left', 'right', 'right', 'left', 'right', 'left'];
  // Why a row has no ratio goes below the table, numbered, so a long reason does not widen a column.
  const notes: string[] = [];
  const lines = rows.map((r) => {
    if (!r.ratio && r.why)
      notes.push(`[${notes.length + 1}] ${r.browser} ${r.suite}/${r.case}: ${r.why}`);
    return [
      r.browser,
      `${r.suite}/${r.case}`,
      String(r.size),
      r.ratio ? times(r.ratio.ratio) : '-',
      r.ratio
        ? `[${times(r.ratio.lo)}, ${times(r.ratio.hi)}]`
        : r.why
          ? `none [${notes.length}]`
          : '',
      r.ratio ? String(r.ratio.passes) : '-',
      r.neither
        ? 'not compared'
        : `${r.verdict}${failing.has(r) ? ' !!' : r.verdict === 'slower' ? ' (not after Holm)' : ''}`,
    ];
  });
  const { a, b, sides } = rows[0] as AbRow;
  const [shownA, shownB] = [sides?.a ?? a, sides?.b ?? b];
  return [
    a === b.replace(/@twin$/, '')
      ? `B = ${b} against A = ${a}, an A/A on one build (the same store twice):`
      : `B = ${shownB} against A = ${shownA}:`,
    renderTable(header, lines, align),
    ...notes,
    `B/A: the ratio of B's median to A's in each pass, a geometric mean over passes, each pass in a browser launch of its own; ` +
      `its 95% interval is Student's t over those passes (the launch is the replicate: samples of one launch share its state), ` +
      `a repeated interval at the last of the plan's planned looks the passes reached, so a row settled at a look keeps its 95%. ` +
      `slower / faster: the whole interval beyond ±${thresholdPct}%; same: the whole interval within ±${thresholdPct}%; unsure: neither, more launches decide it. ` +
      `!! slower with the chance of any false alarm over all rows held at 5% (Holm): these rows fail the run.`,
  ].join('\n');
}
