/**
 * Bencher Metric Format (BMF), the JSON benchmark trackers read:
 * `{ BENCHMARK: { MEASURE: { value, lower_value, upper_value } } }`. One benchmark per row that
 * has a median, named `suite/case/size/store/browser` (plus its parameters, when the row records
 * any); its measure is `latency`, Bencher's built-in measure, in nanoseconds as Bencher counts it:
 * the median time per sample, and the 95% interval of that median as its bounds. A row without
 * an interval (fewer than 6 samples) gives the value alone. Pure: documents in, text out.
 */
import type { CaseResult, ResultsFile } from '../core/results/results.ts';

/** Bencher's built-in measure of time per operation; its unit is the nanosecond. */
const BMF_MEASURE = 'latency';
const NS_PER_MS = 1e6;

export interface BmfMetric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

export type Bmf = Record<string, Record<string, BmfMetric>>;

/** The benchmark's name: where the row comes from, so the same row of the next run has it too. */
function bmfName(c: CaseResult, browser: string): string {
  const params = Object.keys(c.params ?? {}).length > 0 ? ` ${JSON.stringify(c.params)}` : '';
  return `${c.suite}/${c.case}/${c.size}/${c.adapter}/${browser}${params}`;
}

export function toBmf(docs: readonly ResultsFile[]): Bmf {
  const out: Bmf = {};
  for (const doc of docs)
    for (const c of doc.cases) {
      if (c.status !== 'ok' || !c.stats) continue;
      const ci = c.stats.medianCi;
      const metric: BmfMetric = { value: c.stats.median * NS_PER_MS };
      if (ci) {
        metric.lower_value = ci.lo * NS_PER_MS;
        metric.upper_value = ci.hi * NS_PER_MS;
      }
      out[bmfName(c, doc.run.browser)] = { [BMF_MEASURE]: metric };
    }
  return out;
}

export function bmfText(docs: readonly ResultsFile[]): string {
  return `${JSON.stringify(toBmf(docs), null, 2)}\n`;
}
