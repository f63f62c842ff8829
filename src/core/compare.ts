/**
 * Comparison of two sets of results, case by case: did a store get slower or faster, and is the
 * change bigger than the noise? Pure: results in, a comparison out. The CLI (`npm run compare`)
 * and the page ("compare with…") render it each in their own way.
 *
 * Cases match on browser (run.browser), suite, case, adapter and size. The change is in the mean
 * time per sample, as a percentage of the base mean, with a 95% interval from Welch's t on the raw
 * samples. A change is significant when its interval excludes 0; a regression is a significant
 * slowdown whose change is beyond the threshold.
 */
import type { CaseResult, ResultsFile } from './results.ts';
import { mean, median, welch } from './stats.ts';

export const DEFAULT_THRESHOLD_PCT = 5;

export type Verdict =
  /** Significantly slower, by more than the threshold: the comparison fails. */
  | 'regression'
  /** Significantly slower, within the threshold. */
  | 'slower'
  | 'faster'
  /** The interval includes 0 and the change is within the threshold: no change the samples can tell from noise. */
  | 'same'
  /**
   * The interval includes 0, but the change is beyond the threshold: too few or too noisy samples
   * to tell either way. Not a failure; the remedy is more samples (a longer --budget).
   */
  | 'inconclusive'
  /** ok in the base, error or timeout now: the comparison fails. */
  | 'broke'
  /** The status changed some other way (e.g. unsupported now, or ok again). */
  | 'status changed'
  /** Both sides present, but no interval can be had (too few samples, different parameters, not ok). */
  | 'not comparable'
  | 'only in base'
  | 'only in new';

/** Verdicts that make the comparison fail. */
export const FAILING_VERDICTS: readonly Verdict[] = ['regression', 'broke'];

export interface Side {
  status: CaseResult['status'];
  n: number;
  /** NaN without samples. */
  mean: number;
  median: number;
  /** How many results documents the row came from (more than 1: their samples were pooled). */
  files: number;
}

export interface CaseComparison {
  browser: string;
  suite: string;
  case: string;
  adapter: string;
  size: number;
  base: Side | null;
  next: Side | null;
  /** Change of the mean as a percentage of the base mean, with its 95% interval. */
  change: { pct: number; low: number; high: number } | null;
  verdict: Verdict;
  /** Why there is no interval, or what else the reader should know. */
  note: string | null;
}

export interface Comparison {
  thresholdPct: number;
  rows: CaseComparison[];
  /** Differences between the sides worth knowing before trusting a row (browser version, timer step). */
  notes: string[];
  /** True when some row is a regression or broke. */
  failed: boolean;
  counts: Record<Verdict, number>;
}

/** A threshold as given on the command line or in the page: `5%` or `5` (percent), 0 to 1000. */
export function parseThreshold(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  const pct = m ? Number(m[1]) : NaN;
  if (!(pct >= 0 && pct <= 1000)) throw new RangeError(`threshold: "${text}" is not a percentage from 0% to 1000%, e.g. 5%`);
  return pct;
}

interface Pooled {
  row: CaseResult;
  samples: number[];
  files: number;
  params: string;
}

const keyOf = (browser: string, r: Pick<CaseResult, 'suite' | 'case' | 'adapter' | 'size'>) => JSON.stringify([browser, r.suite, r.case, r.adapter, r.size]);

/** The rows of one side by key; a case run in several files pools its samples. */
function pool(side: readonly ResultsFile[]): Map<string, Pooled> {
  const out = new Map<string, Pooled>();
  for (const file of side) {
    for (const row of file.cases) {
      const key = keyOf(file.run.browser, row);
      const seen = out.get(key);
      if (!seen) {
        out.set(key, { row, samples: [...row.samples], files: 1, params: JSON.stringify(row.params) });
        continue;
      }
      seen.files++;
      // Pooling repeated runs counts their spread between runs as noise too: the honest choice.
      if (row.status === 'ok' && seen.row.status === 'ok') seen.samples.push(...row.samples);
      else if (row.status !== 'ok') seen.row = row; // a failure anywhere is the row's status
    }
  }
  return out;
}

function sideOf(p: Pooled): Side {
  const ok = p.row.status === 'ok';
  return { status: p.row.status, n: ok ? p.samples.length : 0, mean: ok ? mean(p.samples) : NaN, median: ok ? median(p.samples) : NaN, files: p.files };
}

export function compareResults(base: readonly ResultsFile[], next: readonly ResultsFile[], thresholdPct = DEFAULT_THRESHOLD_PCT): Comparison {
  const a = pool(base);
  const b = pool(next);
  const rows: CaseComparison[] = [];
  const keys = [...a.keys(), ...[...b.keys()].filter((k) => !a.has(k))];
  for (const key of keys) {
    const [browser, suite, caseId, adapter, size] = JSON.parse(key) as [string, string, string, string, number];
    const pa = a.get(key);
    const pb = b.get(key);
    const row: CaseComparison = { browser, suite, case: caseId, adapter, size, base: pa ? sideOf(pa) : null, next: pb ? sideOf(pb) : null, change: null, verdict: 'not comparable', note: null };
    rows.push(row);
    if (!pa || !pb) {
      row.verdict = pa ? 'only in base' : 'only in new';
      continue;
    }
    const sa = pa.row.status;
    const sb = pb.row.status;
    if (sa !== 'ok' || sb !== 'ok') {
      if (sa === 'ok' && (sb === 'error' || sb === 'timeout')) row.verdict = 'broke';
      else if (sa !== sb) row.verdict = 'status changed';
      // Unsupported in both, say, is no news; a change of status is.
      if (sa !== sb) row.note = `${sa} → ${sb}${sb !== 'ok' ? `: ${oneLine(pb.row.reason ?? '')}` : ''}`;
      continue;
    }
    if (pa.params !== pb.params) {
      row.note = `parameters differ: ${pa.params} → ${pb.params}`;
      continue;
    }
    const d = welch(pa.samples, pb.samples);
    const baseMean = mean(pa.samples);
    if (!d) {
      row.note = 'needs 2 or more samples on each side for an interval';
      continue;
    }
    if (!(baseMean > 0)) {
      row.note = 'the base mean is 0 ms (under the timer step): no percentage; use bigger sizes';
      continue;
    }
    const pct = (x: number) => (100 * x) / baseMean;
    // The interval of the difference, scaled by the base mean (as tachometer reports it); the
    // base's own noise is in the interval through its variance.
    row.change = { pct: pct(d.diff), low: pct(d.diff - d.halfWidth), high: pct(d.diff + d.halfWidth) };
    const { low, high } = row.change;
    if (low > 0) row.verdict = row.change.pct > thresholdPct ? 'regression' : 'slower';
    else if (high < 0) row.verdict = 'faster';
    else if (Math.abs(row.change.pct) > thresholdPct) {
      row.verdict = 'inconclusive';
      row.note = `the interval is too wide to tell whether it changed (n = ${pa.samples.length} and ${pb.samples.length}); take more samples, e.g. with a longer --budget`;
    } else row.verdict = 'same';
    if (pa.files > 1 || pb.files > 1) row.note = `${row.note ? `${row.note}; ` : ''}samples pooled from ${pa.files} base and ${pb.files} new results`;
  }

  const counts = Object.fromEntries(
    (['regression', 'slower', 'faster', 'same', 'inconclusive', 'broke', 'status changed', 'not comparable', 'only in base', 'only in new'] as Verdict[]).map((v) => [v, rows.filter((r) => r.verdict === v).length]),
  ) as Record<Verdict, number>;
  return { thresholdPct, rows, notes: environmentNotes(base, next), failed: rows.some((r) => FAILING_VERDICTS.includes(r.verdict)), counts };
}

/** Per browser: what differs between the sides' environments and could explain a change. */
function environmentNotes(base: readonly ResultsFile[], next: readonly ResultsFile[]): string[] {
  const notes: string[] = [];
  const first = (side: readonly ResultsFile[], browser: string) => side.find((f) => f.run.browser === browser)?.environment;
  const browsers = [...new Set([...base, ...next].map((f) => f.run.browser))];
  for (const browser of browsers) {
    const ea = first(base, browser);
    const eb = first(next, browser);
    if (!ea || !eb) continue;
    const diffs: string[] = [];
    if (ea.browser.version !== eb.browser.version) diffs.push(`version ${ea.browser.version} → ${eb.browser.version}`);
    if (ea.timerStepMs !== eb.timerStepMs) diffs.push(`timer step ${ea.timerStepMs} → ${eb.timerStepMs} ms`);
    if (ea.crossOriginIsolated !== eb.crossOriginIsolated) diffs.push(`cross-origin isolated ${ea.crossOriginIsolated} → ${eb.crossOriginIsolated}`);
    if (ea.context !== eb.context) diffs.push(`ran in ${ea.context} → ${eb.context}`);
    if (ea.os !== eb.os || ea.cores !== eb.cores) diffs.push(`machine ${ea.os}/${ea.cores ?? '?'} cores → ${eb.os}/${eb.cores ?? '?'} cores`);
    if (diffs.length > 0) notes.push(`${browser}: ${diffs.join('; ')}`);
  }
  return notes;
}

function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
