/**
 * The text of a comparison of two results sets (core/verdicts/compare.ts): the table, slower and
 * broken rows first, its legend and notes. Shared by `compare` and the sweep's --baseline report.
 */
import {
  listedByUrgency,
  type CaseComparison,
  type Comparison,
} from '../../core/verdicts/compare.ts';
import { detectablePctCell, formatRunToRun, signedPct } from '../../core/verdicts/compare-text.ts';
import { formatMs } from '../../core/base/format.ts';
import { renderTable, type Align } from './table.ts';
import { printableField } from './escape.ts';

function side(s: CaseComparison['base']): string {
  if (!s) return '-';
  if (s.status !== 'ok') return s.status;
  return `${formatMs(s.median)} (n=${s.n})`;
}

const MARKS: Record<CaseComparison['verdict'], string> = {
  slower: 'SLOWER !!',
  faster: 'faster',
  same: 'same',
  undecided: 'undecided',
  broke: 'BROKE !!',
  'status changed': 'status changed',
  'not comparable': 'not comparable',
  'not ok in either': 'not ok in either',
  'only in base': 'only in base',
  'only in new': 'only in new',
};

/** A row's verdict mark. */
function mark(r: CaseComparison): string {
  return MARKS[r.verdict];
}

/** The table (regressions first), its legend and notes. Pure, so tests compare the text. */
export function formatComparison(c: Comparison): string {
  const header = [
    'browser',
    'suite/case',
    'adapter',
    'size',
    'base median ms',
    'new median ms',
    'measured',
    'change',
    '95% CI',
    'verdict',
    'would catch',
  ];
  const align: Align[] = [
    'left',
    'left',
    'left',
    'right',
    'right',
    'right',
    'right',
    'right',
    'left',
    'left',
    'right',
  ];
  // Rows not ok in either file, or in one only, are counted in the verdict line instead.
  const listed = listedByUrgency(c.rows);
  const rows = listed.map((r) => [
    r.browser,
    `${r.suite}/${r.case}`,
    r.adapter,
    String(r.size),
    side(r.base),
    side(r.next),
    r.change ? signedPct(r.change.measured) : '-',
    r.change ? signedPct(r.change.pct) : '-',
    r.change ? `[${signedPct(r.change.low)}, ${signedPct(r.change.high)}]` : '',
    mark(r),
    detectablePctCell(r.verdict, r.change?.detectablePct, '-'),
  ]);
  const out = [rows.length > 0 ? renderTable(header, rows, align) : '(no row is ok in both files)'];
  out.push(
    `Measured: the median time per sample, new against base, in % of the base median. ` +
      `Change: the same net of the shift every row of the browser shares (below), with the 95% interval of that ratio (from each median's own interval, after Price and Bonett, and the shift's, widened by the run-to-run spread below). ` +
      `SLOWER !!: the change is beyond +${c.thresholdPct}% and shown slower with the chance of any false alarm over all rows held at 5% (Holm), or BROKE !!: ok before and error or timeout now; these fail the gate. ` +
      `faster: the mirror image; same: the whole interval within ±${c.thresholdPct}%; undecided: none of these (its note says what would decide it). ` +
      `would catch: the smallest slowdown this comparison would have flagged in the row with 80% probability.`,
  );
  const spread = formatRunToRun(c.runToRun);
  if (spread) out.push('', spread);
  const noted = listed.filter((r) => r.note);
  if (noted.length > 0) {
    out.push('', 'Notes:');
    for (const r of noted)
      out.push(
        `  ${printableField(`${r.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}: ${r.note}`)}`,
      );
  }
  if (c.notes.length > 0) {
    out.push('', 'The environments differ:');
    for (const n of c.notes) out.push(`  ${printableField(n)}`);
  }
  return out.join('\n');
}
