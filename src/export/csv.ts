/**
 * CSV export: one row per case, RFC 4180 (CRLF line ends, fields quoted when they hold a comma,
 * quote, CR or LF, quotes doubled). Pure: no DOM, no I/O. The raw samples stay in the JSON; this
 * is the spreadsheet view of their summaries.
 */
import type { CaseResult, ResultsFile } from '../core/results.ts';
import { opsPerSecond } from '../core/stats.ts';

export const CSV_COLUMNS = [
  'run_id',
  'browser',
  'browser_name',
  'browser_version',
  'engine',
  'os',
  'cross_origin_isolated',
  'timer_step_ms',
  'suite',
  'case',
  'title',
  'adapter',
  'size',
  'operations',
  'status',
  'reason',
  'n',
  'min_ms',
  'max_ms',
  'mean_ms',
  'median_ms',
  'stddev_ms',
  'ci95_ms',
  'median_per_op_ms',
  'ops_per_sec',
  'params',
  'harness_version',
  'harness_commit',
] as const;

export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** A cell before formatting: numbers stay numbers so they are never mistaken for formulas. */
type Cell = string | number | boolean | null;

/** All runs' cases under one header, in the order given. */
export function toCsv(results: ResultsFile | ResultsFile[]): string {
  const files = Array.isArray(results) ? results : [results];
  const lines = [CSV_COLUMNS.map((c) => textCell(c)).join(',')];
  for (const file of files) {
    for (const row of file.cases) {
      const cells = cellsOf(file, row);
      lines.push(CSV_COLUMNS.map((c) => formatCell(cells[c])).join(','));
    }
  }
  return lines.map((l) => `${l}\r\n`).join('');
}

function cellsOf(file: ResultsFile, row: CaseResult): Record<CsvColumn, Cell> {
  const env = file.environment;
  const stats = row.status === 'ok' ? row.stats : null;
  const median = stats?.median ?? null;
  const ops = median !== null ? opsPerSecond(median, row.operations) : null;
  return {
    run_id: file.run.id,
    browser: file.run.browser,
    browser_name: env.browser.name,
    browser_version: env.browser.version,
    engine: env.browser.engine,
    os: env.os,
    cross_origin_isolated: env.crossOriginIsolated,
    timer_step_ms: env.timerStepMs,
    suite: row.suite,
    case: row.case,
    title: row.title,
    adapter: row.adapter,
    size: row.size,
    operations: row.operations,
    status: row.status,
    reason: row.reason,
    // How many timed samples were taken, for every status: a timeout row may hold a few.
    n: row.samples.length,
    min_ms: stats?.min ?? null,
    max_ms: stats?.max ?? null,
    mean_ms: stats?.mean ?? null,
    median_ms: median,
    stddev_ms: stats?.stddev ?? null,
    ci95_ms: stats?.ci95 ?? null,
    median_per_op_ms: median !== null && row.operations > 0 ? median / row.operations : null,
    // A median of 0 (a coarse timer) gives infinite ops/s; an empty cell says "not measurable".
    ops_per_sec: ops,
    params: JSON.stringify(row.params),
    harness_version: file.harness.version,
    harness_commit: file.harness.commit,
  };
}

function formatCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return Number.isFinite(value) ? plainNumber(value) : '';
  return textCell(value);
}

/**
 * Text cells that a spreadsheet would run as a formula (=, +, -, @, or a leading tab or CR;
 * OWASP "CSV injection") get a leading single quote. Numeric cells never pass through here.
 */
function textCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The shortest text that reads back as the same number, without an exponent: spreadsheets and
 * some CSV readers treat `1e-7` as text. Never locale-formatted.
 */
export function plainNumber(x: number): string {
  const s = String(x);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign = '', lead = '', frac = '', expText = '0'] = m;
  const exp = Number(expText);
  const digits = lead + frac;
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  return sign + digits + '0'.repeat(Math.max(0, exp - frac.length));
}
