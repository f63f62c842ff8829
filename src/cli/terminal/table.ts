/**
 * The sweep's closing table: one row per suite/case/adapter/size, one column per browser.
 * Pure: results in, text out.
 */
import { DRIVEN_SUITES, isTimedSection } from '../../../suites/driven.ts';
import { formatPrecision, rowPrecision } from '../../core/verdicts/precision.ts';
import { shareNote } from '../../core/run/sampling/share.ts';
import type { CaseResult } from '../../core/results/results.ts';
import { MEDIAN_CI_MIN_N } from '../../core/stats/stats.ts';
import { printableField } from './escape.ts';
import { formatMs, oneLine } from '../../core/base/format.ts';
import { MIN_TIMER_STEPS, timedSectionMs, underTimerResolution } from '../../core/base/timer.ts';
import {
  factorToFastest,
  fastestByGroup,
  formatFactor,
  groupKey,
  rowKey,
  type Factor,
} from '../../core/verdicts/fastest.ts';

export interface BrowserColumn {
  browser: string;
  cases: readonly CaseResult[];
  /** The timer step the browser measured, to mark medians too close to it; unknown when absent. */
  timerStepMs?: number;
  /** The plan's looks, at which a paired factor's interval is taken (plan.plannedLooksOf). */
  looks?: readonly number[] | null;
}

export type Align = 'left' | 'right';

/**
 * Plain columns separated by two spaces, with a dashed rule under the header. The header may be
 * several lines (one array each), e.g. a name over what its numbers are. Cells often hold text
 * from a results file, so their control characters are escaped (escape.ts).
 */
export function renderTable(
  header: readonly string[] | readonly (readonly string[])[],
  rawRows: readonly (readonly string[])[],
  align: readonly Align[],
): string {
  const heads = isLines(header) ? header : [header];
  const rows = rawRows.map((r) => r.map(printableField));
  // A loop, not Math.max(...): a compare of many thousand rows would overflow the stack with its arguments.
  const widths = (heads[0] ?? []).map(() => 0);
  for (const r of [...heads, ...rows])
    widths.forEach((w, i) => (widths[i] = Math.max(w, (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    widths
      .map((w, i) => {
        const cell = cells[i] ?? '';
        return align[i] === 'right' ? cell.padStart(w) : cell.padEnd(w);
      })
      .join('  ')
      .trimEnd();
  return [...heads.map(line), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

function isLines(
  header: readonly string[] | readonly (readonly string[])[],
): header is readonly (readonly string[])[] {
  return Array.isArray(header[0]);
}

/** A failure's reason in the closing table: whole sentences of most errors, one line of a stack. */
const REASON_CHARS = 200;

type OkRow = Extract<CaseResult, { status: 'ok' }>;

/**
 * The median with its own 95% interval, as the larger side over the median (`4.21 ±1.4%`), or
 * why there is none: too few samples, or a file written before the interval was recorded.
 */
export function formatMedian(row: OkRow): string {
  const median = formatMs(row.stats.median);
  const ci = row.stats.medianCi;
  if (ci === undefined && row.precision === undefined) return `${median} (interval not recorded)`;
  const p = rowPrecision(row);
  if (p === null) return `${median} (n<${MEDIAN_CI_MIN_N}, no interval)`;
  // A 0 ms median (a coarse timer) has no relative interval: give the interval itself.
  if (!Number.isFinite(p))
    return ci ? `${median} [${formatMs(ci.lo)}, ${formatMs(ci.hi)}]` : median;
  return `${median} ${formatPrecision(p)}`;
}

/** Whether a row's timed section is under the timer-resolution floor; a row whose sample is not one timed section never is (suites/driven.ts). */
function underTimerFloor(row: OkRow, timerStepMs: number): boolean {
  return isTimedSection(row) && underTimerResolution(timedSectionMs(row), timerStepMs);
}

/** A cell: the row's median with its interval, its factor to the fastest store, a ~ under the timer's floor. */
export function formatCell(row: CaseResult | undefined, timerStepMs = 0, factor?: Factor): string {
  if (!row) return '-';
  if (row.status !== 'ok') return row.status;
  const shown = factor !== undefined ? ` ${formatFactor(factor)}` : '';
  return `${formatMedian(row)}${shown}${underTimerFloor(row, timerStepMs) ? ' ~' : ''}`;
}

const key = rowKey;

/** What the browser columns hold, under each browser's name. */
export const COLUMN_NOTE = 'median ms (95% CI) × fastest';

export const LEGEND =
  'Cells: the median ms per sample, ± the larger side of the 95% confidence interval of that median (distribution-free), in % of the median, ' +
  'then its factor to the fastest store of that case and size in that browser (×1.00 is the fastest), with its 95% interval where it has one: ' +
  "paired by pass where the two rows share passes (the geometric mean of each pass's ratio of medians), else the ratio of the two medians; " +
  `(n<${MEDIAN_CI_MIN_N}, no interval): too few samples for one; (interval not recorded): a file from before the median's interval was recorded; ` +
  'unsupported / error / timeout: the row status, reason below; a row no browser could run is only listed under Unsupported; -: no result (the browser did not finish); ' +
  `~: the median is under ${MIN_TIMER_STEPS} timer steps, mostly timer noise (use bigger --sizes).`;

/**
 * The table, its legend, each driven suite's findings, and one line per error or timeout and
 * per distinct unsupported reason. Rows follow the run (suite, case, size as they came), and
 * within one group the adapters follow `adapterOrder` (the plan's), not the order rows finished
 * in: the runner finishes unsupported rows first.
 */
export function resultsTable(
  columns: readonly BrowserColumn[],
  adapterOrder: readonly string[] = [],
): string {
  const order = rowOrder(columns, adapterOrder);
  const byBrowser = columns.map((col) => new Map(col.cases.map((r) => [key(r), r])));
  const header = [
    ['suite', 'case', 'adapter', 'size', ...columns.map((c) => c.browser)],
    ['', '', '', '', ...columns.map(() => COLUMN_NOTE)],
  ];
  const align: Align[] = ['left', 'left', 'left', 'right', ...columns.map((): Align => 'right')];
  const fastest = columns.map((col) => fastestByGroup(col.cases));
  const cell = (i: number, row: CaseResult | undefined) => {
    const best = row?.status === 'ok' ? fastest[i]?.get(groupKey(row)) : undefined;
    const factor =
      row?.status === 'ok' && best
        ? factorToFastest(row, best, columns[i]?.looks ?? null)
        : undefined;
    return formatCell(row, columns[i]?.timerStepMs, factor);
  };
  // A row every browser reports unsupported says nothing a line under Unsupported does not.
  const shown = order.filter((r) =>
    byBrowser.some((m) => {
      const cell = m.get(key(r));
      return cell !== undefined && cell.status !== 'unsupported';
    }),
  );
  const rows = shown.map((r) => [
    r.suite,
    r.case,
    r.adapter,
    String(r.size),
    ...byBrowser.map((m, i) => cell(i, m.get(key(r)))),
  ]);
  return [
    rows.length > 0 ? renderTable(header, rows, align) : '(no rows)',
    LEGEND,
    ...tableNotes(columns),
  ].join('\n');
}

/** Rows as the run went (suite, case, size as they came), the adapters of a group in the plan's order. */
function rowOrder(
  columns: readonly BrowserColumn[],
  adapterOrder: readonly string[],
): Pick<CaseResult, 'suite' | 'case' | 'adapter' | 'size'>[] {
  const order: Pick<CaseResult, 'suite' | 'case' | 'adapter' | 'size'>[] = [];
  const seen = new Set<string>();
  const groupRank = new Map<string, number>();
  for (const r of columns.flatMap((col) => col.cases)) {
    if (!groupRank.has(groupKey(r))) groupRank.set(groupKey(r), groupRank.size);
    if (!seen.has(key(r))) {
      seen.add(key(r));
      order.push(r);
    }
  }
  const adapterRank = (a: string) => {
    const i = adapterOrder.indexOf(a);
    return i === -1 ? adapterOrder.length : i;
  };
  // Array sort is stable, so adapters the plan does not name keep their first-seen order.
  return order.sort(
    (a, b) =>
      (groupRank.get(groupKey(a)) ?? 0) - (groupRank.get(groupKey(b)) ?? 0) ||
      adapterRank(a.adapter) - adapterRank(b.adapter),
  );
}

/** What the table's cells cannot say, each under its heading: coarse timers, costly rows, driven suites' findings, failures, unsupported stores. */
function tableNotes(columns: readonly BrowserColumn[]): string[] {
  const out: string[] = [];
  const section = (heading: string, lines: readonly string[], most = Infinity) => {
    if (lines.length === 0) return;
    out.push('', heading, ...lines.slice(0, most).map((line) => `  ${line}`));
    if (lines.length > most) out.push(`  … and ${lines.length - most} more`);
  };
  const each = (fn: (col: BrowserColumn, r: CaseResult) => string | null) =>
    columns.flatMap((col) => col.cases.flatMap((r) => fn(col, r) ?? []));
  section(
    `Under ${MIN_TIMER_STEPS} timer steps, mostly timer noise (use bigger --sizes):`,
    each((col, r) =>
      r.status === 'ok' && col.timerStepMs !== undefined && underTimerFloor(r, col.timerStepMs)
        ? `${col.browser} ${r.adapter} ${r.suite}/${r.case} size ${r.size}: median timed section ${formatMs(timedSectionMs(r))} ms = ${Math.round(timedSectionMs(r) / col.timerStepMs)} steps of ${col.timerStepMs} ms`
        : null,
    ),
    10,
  );
  section(
    'Costly rows (a sample costs too much of its share of the budget to take its minimum in every pass):',
    each((col, r) =>
      r.status === 'ok' && r.stopped === 'share' && r.share
        ? printableField(
            `${col.browser} ${r.suite}/${r.case} ${r.adapter} ${r.size}: ${shareNote(r.share, r.stats.n, r.samplesPerPass)}`,
          )
        : null,
    ),
    10,
  );
  for (const { suite, finding } of Object.values(DRIVEN_SUITES)) {
    if (finding === null) continue;
    section(
      finding.heading,
      each((col, r) => {
        const found = r.suite === suite.id ? finding.describe(r) : null;
        return found === null
          ? null
          : printableField(`${col.browser} ${r.adapter} ${r.case} size ${r.size}: ${found}`);
      }),
    );
  }
  const { problems, unsupported } = failures(columns);
  section(
    'Errors and timeouts:',
    [...problems.values()].map((p) => {
      const where =
        p.where.length === 1
          ? (p.where[0] as string)
          : `${p.where.length} rows: ${p.where.slice(0, 3).join(', ')}${p.where.length > 3 ? ', …' : ''}`;
      return `${p.browser} ${p.adapter} ${p.status} (${where}): ${oneLine(p.reason, REASON_CHARS)}`;
    }),
  );
  section(
    'Unsupported:',
    [...unsupported.values()].map(
      (u) =>
        `${u.browser} ${u.adapter} (${u.rows} row${u.rows === 1 ? '' : 's'}): ${oneLine(u.reason, REASON_CHARS)}`,
    ),
  );
  return out;
}

/** Rows that failed, or were unsupported, for the same reason in one browser and store, as one line each: a store missing in a browser fails every case alike. */
function failures(columns: readonly BrowserColumn[]) {
  const problems = new Map<
    string,
    { browser: string; adapter: string; status: string; reason: string; where: string[] }
  >();
  const unsupported = new Map<
    string,
    { browser: string; adapter: string; reason: string; rows: number }
  >();
  for (const col of columns) {
    for (const r of col.cases) {
      if (r.status === 'error' || r.status === 'timeout') {
        const k = `${col.browser}\u0000${r.adapter}\u0000${r.status}\u0000${r.reason}`;
        const p = problems.get(k) ?? {
          browser: col.browser,
          adapter: r.adapter,
          status: r.status,
          reason: r.reason,
          where: [],
        };
        p.where.push(`${r.suite}/${r.case} size ${r.size}`);
        problems.set(k, p);
      } else if (r.status === 'unsupported') {
        const k = `${col.browser}\u0000${r.adapter}\u0000${r.reason}`;
        const u = unsupported.get(k) ?? {
          browser: col.browser,
          adapter: r.adapter,
          reason: r.reason,
          rows: 0,
        };
        u.rows++;
        unsupported.set(k, u);
      }
    }
  }
  return { problems, unsupported };
}
