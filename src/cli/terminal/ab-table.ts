/**
 * An A/B run in the terminal: per browser and case, B/A with its 95% interval over launches, its
 * verdict and the slowdown the run could have caught in it, the rows that fail the run marked;
 * then the one-line verdict (core/verdicts/ab.ts, by the rule of core/verdicts/change.ts).
 */
import type { AbDecision, AbRow } from '../../core/verdicts/ab.ts';
import { detectableCell, FAMILY_ALPHA } from '../../core/verdicts/change.ts';
import { renderTable, type Align } from './table.ts';

const times = (x: number, digits = 3) => `×${x.toFixed(digits)}`;

/** The table and the legend; the decision's line is the caller's last. */
export function abTable(decision: AbDecision, thresholdPct: number): string {
  const rows = decision.rows;
  if (rows.length === 0) return '(no case ran on both stores)';
  const header = [
    'browser',
    'suite/case',
    'size',
    'B/A',
    '95% interval',
    'passes',
    'verdict',
    'would catch',
  ];
  const align: Align[] = ['left', 'left', 'right', 'right', 'left', 'right', 'left', 'right'];
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
      r.neither ? 'not compared' : `${r.verdict}${r.verdict === 'slower' ? ' !!' : ''}`,
      detectableCell(r, '-'),
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
      `over every pass where the rows sampled to the end, a repeated interval where they stopped at a planned look. ` +
      `slower !!: B/A beyond +${thresholdPct}% and B shown slower with the chance of any false alarm over all rows held at ${FAMILY_ALPHA * 100}% (Holm): these rows fail the run; ` +
      `faster: the mirror image; same: the whole interval within ±${thresholdPct}%; undecided: none of these. ` +
      `would catch: the smallest B/A this run would have flagged in the row with 80% probability, from its spread over passes.`,
  ].join('\n');
}
