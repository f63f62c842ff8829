/**
 * A result row's numbers in words, for the page's tables and chart tooltips: the median with its
 * own 95% interval, the mean with its own, and how the row was sampled. One place, so every view
 * names the statistic behind a number and never puts one statistic's interval beside another.
 * Pure: text out, no DOM.
 */
import { formatPrecision, rowPrecision } from '../../core/verdicts/precision.ts';
import type { CaseResult, StopReason } from '../../core/results/results.ts';
import { shareNote } from '../../core/run/sampling/share.ts';
import { MEDIAN_CI_MIN_N, type Stats } from '../../core/stats/stats.ts';
import { formatMs } from '../../core/base/format.ts';

type OkCase = Extract<CaseResult, { status: 'ok' }>;

/** Why a median has no interval, in a few words (`null`: it has one). */
function noMedianInterval(row: OkCase): string | null {
  const ci = row.stats.medianCi;
  if (ci === undefined) return 'no 95% CI of the median: not recorded in this file';
  if (ci === null) return `no 95% CI of the median: fewer than ${MEDIAN_CI_MIN_N} samples`;
  return null;
}

/** `4.10 – 4.30`: the median's interval in ms, or null when it has none. */
export function formatMedianInterval(row: OkCase): string | null {
  const ci = row.stats.medianCi;
  return ci ? `${formatMs(ci.lo)} – ${formatMs(ci.hi)}` : null;
}

/** `±2.6%`: the larger side of the median's interval over the median, or null when it has none. */
function medianPlusMinus(row: OkCase): string | null {
  const p = rowPrecision(row);
  return p === null || !Number.isFinite(p) ? null : formatPrecision(p);
}

/**
 * The median's interval in a few characters, for a cell beside the median: `±2.6%`; `n<6` with
 * too few samples; `no CI` in a file from before it was recorded; the interval itself around a
 * 0 ms median, which has no relative size.
 */
export function shortMedianInterval(row: OkCase): string {
  const ci = row.stats.medianCi;
  if (ci === undefined) return 'no CI';
  if (ci === null) return `n<${MEDIAN_CI_MIN_N}`;
  return medianPlusMinus(row) ?? `[${formatMedianInterval(row) ?? ''}]`;
}

/** `median 4.21 ms, 95% CI 4.10 – 4.30 ms (±2.6%)`, or the median and why it has no interval. */
export function describeMedian(row: OkCase): string {
  const median = `median ${formatMs(row.stats.median)} ms`;
  const interval = formatMedianInterval(row);
  if (interval === null) return `${median}; ${noMedianInterval(row) ?? ''}`;
  const pm = medianPlusMinus(row);
  return `${median}, 95% CI of the median ${interval} ms${pm ? ` (${pm})` : ''}`;
}

/** `mean 4.50 ms ± 0.300 ms (Student-t 95% CI of the mean)`: always labelled as the mean. */
export function describeMean(stats: Pick<Stats, 'mean' | 'ci95' | 'n'>): string {
  const mean = `mean ${formatMs(stats.mean)} ms`;
  return stats.ci95 === null
    ? `${mean} (no interval of the mean with ${stats.n} sample${stats.n === 1 ? '' : 's'})`
    : `${mean} ± ${formatMs(stats.ci95)} ms (Student-t 95% CI of the mean)`;
}

const STOPPED: Record<StopReason, string | null> = {
  // With a fixed count this is every row; the adaptive case is worded in stopNote.
  iterations: null,
  'ci-target': 'reached its precision target',
  decided: 'stopped once its change from the baseline was decided against the threshold',
  'time-cap': 'stopped at its time cap (max-ms) before its precision target',
  budget: 'stopped when its share of the time budget was spent',
  cancelled: 'the run was cancelled; the row keeps the samples it had taken',
  share: 'costly: it sampled in fewer passes',
  settled:
    'stopped at a planned look: every comparison it is in was decided, so its time went to the rows still open',
};

/** Why sampling stopped, when it says something: `adaptive` tells a sample cap from a fixed count. */
export function stopNote(row: OkCase, adaptive: boolean): string | null {
  if (row.stopped === 'iterations')
    return adaptive ? 'stopped at its sample cap (max-n) before its precision target' : null;
  if (row.stopped === 'share' && row.share)
    return shareNote(row.share, row.stats.n, row.samplesPerPass);
  return row.stopped ? STOPPED[row.stopped] : null;
}

/** `shared database`, `fresh database per sample`, `40 runs per sample`: how each sample ran. */
export function samplingNotes(row: CaseResult): string[] {
  const notes: string[] = [];
  if (row.db === 'shared') notes.push('shared database');
  else if (row.db === 'fresh') notes.push('fresh database per sample');
  if (row.repeats !== undefined && row.repeats > 1)
    notes.push(`${row.repeats.toLocaleString()} runs per sample (times are per run)`);
  return notes;
}

/** The notes on precision and sampling for an ok row: `median ±2.6%, reached its precision target; shared database`. */
export function precisionNotes(row: OkCase, adaptive: boolean): string[] {
  const pm = medianPlusMinus(row);
  const precision = pm ? `median ${pm}` : noMedianInterval(row);
  const stop = stopNote(row, adaptive);
  return [
    [precision, stop].filter((x): x is string => x !== null).join(', '),
    ...samplingNotes(row),
  ].filter((x) => x !== '');
}
