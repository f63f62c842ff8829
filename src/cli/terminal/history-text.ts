/**
 * `npm run history` as text: the runs each browser's series are made of, with their shift, then
 * every change point in a table, the points of each series that changed, and the verdict line.
 * Pure: a report in, text out.
 */
import { detectablePctCell, signedPct } from '../../core/verdicts/compare-text.ts';
import type { HistoryReport, SeriesHistory } from '../../core/history/history.ts';
import type { HistoryRun, RowKey } from '../../core/history/series.ts';
import type { HistoryChange } from '../../core/history/verdicts.ts';
import { printableField } from './escape.ts';
import { formatMs } from '../../core/base/format.ts';
import { renderTable, type Align } from './table.ts';

const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** A row's name: browser, suite/case, store, size and any parameters. */
function rowName(k: RowKey): string {
  const params = Object.entries(k.params)
    .map(([name, v]) => `${name}=${JSON.stringify(v)}`)
    .join(' ');
  return `${k.browser} ${k.suite}/${k.case} ${k.adapter} ${k.size}${params ? ` ${params}` : ''}`;
}

function runsTable(runs: readonly HistoryRun[]): string {
  const rows = runs.map((r) => [
    r.browser,
    when(r.startedAt),
    r.commit,
    r.reference
      ? 'reference'
      : r.shift
        ? `${signedPct(r.shift.pct)} [${signedPct(r.shift.low)}, ${signedPct(r.shift.high)}]`
        : `none (${r.common} rows in common)`,
    r.setups.join(' + '),
    r.sources.map((f) => f.slice(f.lastIndexOf('/') + 1)).join(', '),
  ]);
  return renderTable(
    ['browser', 'started (UTC)', 'commit', 'shift vs reference, 95% CI', 'measured with', 'files'],
    rows,
    ['left', 'left', 'left', 'left', 'left', 'left'],
  );
}

const MARKS: Record<HistoryChange['verdict'], string> = {
  slower: 'SLOWER !!',
  faster: 'faster',
  same: 'same',
  undecided: 'undecided',
};

/** A change's mark: its verdict, and why an undecided one is when its environment changed with it. */
const markOf = (c: HistoryChange) =>
  c.environment.length > 0 ? `${MARKS.undecided}: environment changed` : MARKS[c.verdict];

function changesTable(series: readonly SeriesHistory[]): string {
  const rows = series.flatMap((s) =>
    s.changes.map((c) => [
      rowName(s.series.key),
      `${c.before.label} → ${c.after.label}`,
      formatMs(c.levelBefore),
      formatMs(c.levelAfter),
      signedPct(c.pct),
      `[${signedPct(c.low)}, ${signedPct(c.high)}]`,
      c.p < 0.0001 ? '<0.0001' : c.p.toFixed(4),
      markOf(c),
      detectablePctCell(c.verdict, c.detectablePct, '-'),
    ]),
  );
  if (rows.length === 0) return '(no change point in any series)';
  const align: Align[] = [
    'left',
    'left',
    'right',
    'right',
    'right',
    'left',
    'right',
    'left',
    'right',
  ];
  return renderTable(
    ['row', 'between', 'before ms', 'after ms', 'change', '95% CI', 'p', 'verdict', 'would catch'],
    rows,
    align,
  );
}

/** The points of one series, raw and net, for the series that changed. */
function pointsOf(s: SeriesHistory): string {
  const changes = new Set(s.changes.map((c) => c.index));
  const rows = s.series.points.map((p, i) => [
    changes.has(i) ? '▶' : '',
    p.label,
    formatMs(p.raw.median),
    formatMs(p.net.median),
    p.net.ci ? `[${formatMs(p.net.ci.lo)}, ${formatMs(p.net.ci.hi)}]` : 'no interval',
    String(p.n),
  ]);
  return renderTable(['', 'point', 'raw median ms', 'net median ms', '95% CI', 'n'], rows, [
    'left',
    'left',
    'right',
    'right',
    'left',
    'right',
  ]);
}

function summary(r: HistoryReport): string {
  const n = r.series.length;
  const short = r.series.filter((s) => s.tooShort).length;
  const needed = r.series.find((s) => s.tooShort)?.tooShort?.needed;
  const changed = r.series.filter((s) => s.changes.length > 0).length;
  const newest = r.series.flatMap((s) => s.changes.slice(-1));
  const count = (v: HistoryChange['verdict']) => newest.filter((c) => c.verdict === v).length;
  const tally = `${n} series, ${n - short} long enough to test${short > 0 ? ` (${short} with fewer than ${needed} points with an interval)` : ''}, ${changed} with a change; newest changes: ${count('slower')} slower beyond ${r.thresholdPct}%, ${count('faster')} faster, ${count('same')} same, ${count('undecided')} undecided (${newest.filter((c) => c.environment.length > 0).length} of them with a change of environment).`;
  if (r.outcome === 'fail')
    return `FAIL: the newest segment of a series is slower beyond ${r.thresholdPct}%, shown so with the chance of any false alarm over every change point held at 5% (Holm); ${tally}`;
  if (r.outcome === 'undecided')
    return `UNDECIDED: a series' newest change coincides with a change of machine, browser build or way of measuring, and reaches past +${r.thresholdPct}%; ${tally}`;
  return `PASS: no series' newest segment is slower beyond ${r.thresholdPct}%; ${tally}`;
}

export function formatHistory(r: HistoryReport): string {
  const out = [
    `Runs, by ${r.by} (each is one point of every series of its browser):`,
    runsTable(r.runs),
    '',
    'Changes:',
    changesTable(r.series),
    `Each point: the row's median net of the shift every row of its browser shares against the reference run (as npm run compare estimates it). ` +
      `before / after ms: each segment's level, the mean of its points' net medians on the log scale, each weighted by its interval. ` +
      `change: after against before, with the 95% interval of the weighted t-test that kept the change (p). ` +
      `SLOWER !!: beyond +${r.thresholdPct}% and shown slower with the chance of any false alarm over every change point held at 5% (Holm); faster: the mirror image; same: the whole interval within ±${r.thresholdPct}%; undecided: none of these, or (environment changed) the machine, the browser build or the way of measuring changed at the same point, so the series cannot tell a change of code from it. ` +
      `would catch: the smallest slowdown the series would have flagged at that point with 80% probability.`,
  ];
  const changed = r.series.filter((s) => s.changes.length > 0);
  for (const s of changed) {
    out.push('', `${printableField(rowName(s.series.key))}:`, pointsOf(s));
    for (const c of s.changes)
      if (c.environment.length > 0)
        out.push(
          `  at ${printableField(c.after.label)}: ${printableField(c.environment.join('; '))}`,
        );
  }
  out.push('', summary(r));
  return out.join('\n');
}
