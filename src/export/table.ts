/**
 * The spreadsheet view of results documents, shared by CSV, TSV and XLSX: a header and rows of
 * cells. Each format only decides how to write a cell, so a column means the same in all three.
 * Pure: no DOM, no I/O.
 */
import { runFindings } from '../core/verdicts/default-findings.ts';
import { rowPrecision } from '../core/verdicts/precision.ts';
import type { CaseResult, ResultsFile } from '../core/results/results.ts';
import { opsPerSecond } from '../core/stats/stats.ts';
import type { Cell } from './cells.ts';

export interface Table {
  columns: readonly string[];
  rows: Cell[][];
}

export const CASE_COLUMNS = [
  'run_id',
  'browser',
  'browser_name',
  'browser_version',
  'engine',
  'os',
  'cores',
  'context',
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
  'mean_ci95_ms',
  'median_ci95_lo_ms',
  'median_ci95_hi_ms',
  'median_precision',
  'median_per_op_ms',
  'ops_per_sec',
  'outliers',
  'stopped',
  'db',
  'repeats',
  'blocking',
  'footprint',
  'params',
  'harness_version',
  'harness_commit',
] as const;

export type CaseColumn = (typeof CASE_COLUMNS)[number];

/** Columns that only a suite sheet needs; the environment has a sheet of its own in XLSX. */
export const SUITE_SHEET_COLUMNS: readonly CaseColumn[] = CASE_COLUMNS.filter(
  (c) =>
    ![
      'browser_name',
      'browser_version',
      'engine',
      'os',
      'cores',
      'context',
      'cross_origin_isolated',
      'timer_step_ms',
      'harness_version',
      'harness_commit',
    ].includes(c),
);

function caseCells(file: ResultsFile, row: CaseResult): Record<CaseColumn, Cell> {
  const env = file.environment;
  const ok = row.status === 'ok' ? row : null;
  const stats = ok?.stats ?? null;
  const median = stats?.median ?? null;
  return {
    run_id: file.run.id,
    browser: file.run.browser,
    browser_name: env.browser.name,
    browser_version: env.browser.version,
    engine: env.browser.engine,
    os: env.os,
    cores: env.cores,
    context: env.context,
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
    // Each interval is named by its statistic: the mean's is a half-width (Student t), the
    // median's its two ends (order statistics, not symmetric); empty below 6 samples or in older files.
    mean_ci95_ms: stats?.ci95 ?? null,
    median_ci95_lo_ms: stats?.medianCi?.lo ?? null,
    median_ci95_hi_ms: stats?.medianCi?.hi ?? null,
    // The larger side of the median's interval over the median (0.02 = ±2%).
    median_precision: ok ? rowPrecision(ok) : null,
    median_per_op_ms: median !== null && row.operations > 0 ? median / row.operations : null,
    // A median of 0 (a coarse timer) gives infinite ops/s, which the writers leave empty.
    ops_per_sec: median !== null ? opsPerSecond(median, row.operations) : null,
    // Files written before outliers were flagged have no count: empty, not 0.
    outliers: ok?.outliers ? ok.outliers.indexes.length : null,
    stopped: ok?.stopped ?? null,
    db: row.db ?? null,
    repeats: row.repeats ?? null,
    // JSON like params: the names a probe reports vary, and the header must not change with them.
    blocking: ok?.blocking ? JSON.stringify(ok.blocking) : null,
    footprint: ok?.footprint ? JSON.stringify(ok.footprint) : null,
    params: JSON.stringify(row.params),
    harness_version: file.harness.version,
    harness_commit: file.harness.commit,
  };
}

/** One row per case of every file, in the order given. */
export function caseTable(
  files: readonly ResultsFile[],
  columns: readonly CaseColumn[] = CASE_COLUMNS,
): Table {
  return { columns, rows: [...caseRows(files, columns)] };
}

/** caseTable's rows one at a time, for a writer that streams them instead of holding them all. */
function* caseRows(
  files: readonly ResultsFile[],
  columns: readonly CaseColumn[] = CASE_COLUMNS,
): Generator<Cell[]> {
  for (const file of files) {
    for (const row of file.cases) {
      const cells = caseCells(file, row);
      yield columns.map((c) => cells[c]);
    }
  }
}

const SAMPLE_COLUMNS = [
  'run_id',
  'browser',
  'suite',
  'case',
  'adapter',
  'size',
  'operations',
  'status',
  'phase',
  'index',
  'ms',
  'per_op_ms',
  'outlier',
] as const;

/**
 * One row per sample: warm-up samples first (phase `warmup`), then the timed ones (`timed`),
 * each numbered from 1 in the order taken. Per-sample metrics (e.g. the concurrency suite's
 * latencies) follow as `metric_<name>` columns, empty where a row has no such metric; then a
 * `note` column where some row has per-sample notes (the quota suite's errors), and a `pass`
 * column where some row was sampled in several passes over the plan (the pass of each timed
 * sample, from 1). The rows come one at a time: millions of samples are written, never held.
 */
function samplesRows(files: readonly ResultsFile[]): {
  columns: readonly string[];
  rows: Iterable<Cell[]>;
} {
  const metricNames = [
    ...new Set(files.flatMap((f) => f.cases.flatMap((c) => Object.keys(c.metrics ?? {})))),
  ].sort();
  const noted = files.some((f) => f.cases.some((c) => c.notes !== undefined));
  const passed = files.some((f) => f.cases.some((c) => c.samplesPerPass !== undefined));
  const columns = [
    ...SAMPLE_COLUMNS,
    ...metricNames.map((m) => `metric_${m}`),
    ...(noted ? ['note'] : []),
    ...(passed ? ['pass'] : []),
  ];
  function* rows(): Generator<Cell[]> {
    for (const file of files) {
      for (const row of file.cases) {
        const flagged = row.status === 'ok' && row.outliers ? new Set(row.outliers.indexes) : null;
        const perOp = (ms: number) => (row.operations > 0 ? ms / row.operations : null);
        const head = (): Cell[] => [
          file.run.id,
          file.run.browser,
          row.suite,
          row.case,
          row.adapter,
          row.size,
          row.operations,
          row.status,
        ];
        const passOf = row.samplesPerPass
          ? row.samplesPerPass.flatMap((count, p) => new Array<number>(count).fill(p + 1))
          : [];
        for (let i = 0; i < row.warmup.length; i++) {
          const ms = row.warmup[i] as number;
          yield [
            ...head(),
            'warmup',
            i + 1,
            ms,
            perOp(ms),
            null,
            ...metricNames.map(() => null),
            ...(noted ? [null] : []),
            ...(passed ? [null] : []),
          ];
        }
        for (let i = 0; i < row.samples.length; i++) {
          const ms = row.samples[i] as number;
          const metrics = metricNames.map((m) =>
            row.metrics && Object.hasOwn(row.metrics, m) ? (row.metrics[m]?.[i] ?? null) : null,
          );
          yield [
            ...head(),
            'timed',
            i + 1,
            ms,
            perOp(ms),
            flagged ? flagged.has(i) : null,
            ...metrics,
            ...(noted ? [row.notes?.[i] ?? null] : []),
            ...(passed ? [passOf[i] ?? null] : []),
          ];
        }
      }
    }
  }
  return { columns, rows: rows() };
}

export const ENVIRONMENT_COLUMNS = [
  'run_id',
  'browser',
  'browser_name',
  'browser_version',
  'engine',
  'os',
  'user_agent',
  'cores',
  'device_memory_gb',
  'cross_origin_isolated',
  'timer_step_ms',
  'storage_quota_bytes',
  'storage_usage_bytes',
  'context',
  'started_at',
  'finished_at',
  'cancelled',
  'suites',
  'adapters',
  'sizes',
  'iterations',
  'warmup',
  'seed',
  'timeout_ms',
  'fixture',
  'params',
  'rows',
  'metric_notes',
  'adapter_notes',
  'harness_version',
  'harness_commit',
] as const;

/** One row per results document: where and how its numbers were measured. */
export function environmentTable(files: readonly ResultsFile[]): Table {
  const rows = files.map((file): Cell[] => {
    const env = file.environment;
    const plan = file.run.plan;
    const cells: Record<(typeof ENVIRONMENT_COLUMNS)[number], Cell> = {
      run_id: file.run.id,
      browser: file.run.browser,
      browser_name: env.browser.name,
      browser_version: env.browser.version,
      engine: env.browser.engine,
      os: env.os,
      user_agent: env.userAgent,
      cores: env.cores,
      device_memory_gb: env.deviceMemoryGb,
      cross_origin_isolated: env.crossOriginIsolated,
      timer_step_ms: env.timerStepMs,
      storage_quota_bytes: env.storageEstimate?.quota ?? null,
      storage_usage_bytes: env.storageEstimate?.usage ?? null,
      context: env.context,
      started_at: file.run.startedAt,
      finished_at: file.run.finishedAt,
      cancelled: file.run.cancelled,
      suites: plan.suites.join(','),
      adapters: plan.adapters.join(','),
      sizes: plan.sizes.join(','),
      iterations: plan.iterations,
      warmup: plan.warmup,
      seed: plan.seed,
      timeout_ms: plan.timeoutMs,
      fixture: plan.fixture,
      params: JSON.stringify(plan.params),
      rows: file.cases.length,
      metric_notes: env.metricNotes ? JSON.stringify(env.metricNotes) : null,
      adapter_notes: env.adapters ? JSON.stringify(env.adapters) : null,
      harness_version: file.harness.version,
      harness_commit: file.harness.commit,
    };
    return ENVIRONMENT_COLUMNS.map((c) => cells[c]);
  });
  return { columns: ENVIRONMENT_COLUMNS, rows };
}

/** The findings' columns: the cells the page shows (claim, store, browser, ratio, its interval, verdict), then why, size and the finding's id. */
export const FINDING_COLUMNS = [
  'claim',
  'store',
  'browser',
  'ratio',
  'lo',
  'hi',
  'method',
  'passes',
  'verdict',
  'why',
  'size',
  'finding',
] as const;

/**
 * One row per finding checked in a browser and store: the default plan's findings recomputed from
 * the rows (core/verdicts/default-findings.ts), as the page and the sweep show them, never read from a file.
 * `ratio` is slower ÷ faster per operation, `lo` and `hi` its 95% interval; `method` says how it was
 * reached (paired by pass over `passes` passes, or unpaired: the ratio of the two medians).
 */
export function findingsTable(files: readonly ResultsFile[]): Table {
  const rows = runFindings(files).map((f): Cell[] => {
    const cells: Record<(typeof FINDING_COLUMNS)[number], Cell> = {
      claim: f.claim,
      store: f.store,
      browser: f.browser,
      ratio: f.ratio,
      lo: f.lo,
      hi: f.hi,
      method: f.method ?? null,
      passes: f.passes ?? null,
      verdict: f.verdict,
      why: f.why,
      size: f.size,
      finding: f.finding,
    };
    return FINDING_COLUMNS.map((c) => cells[c]);
  });
  return { columns: FINDING_COLUMNS, rows };
}

/** Which table a CSV or TSV holds: one row per case, per raw sample, or per finding. */
export type ExportTable = 'cases' | 'samples' | 'findings';

/** The columns and rows of the table chosen; rows come one at a time where there can be millions (samples). */
export function exportTable(
  files: readonly ResultsFile[],
  which: ExportTable,
): { columns: readonly string[]; rows: Iterable<readonly Cell[]> } {
  if (which === 'samples') return samplesRows(files);
  if (which === 'findings') return findingsTable(files);
  return { columns: CASE_COLUMNS, rows: caseRows(files) };
}
