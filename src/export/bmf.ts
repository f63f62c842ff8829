/**
 * Bencher Metric Format (BMF), the JSON benchmark trackers read:
 * `{ BENCHMARK: { MEASURE: { value, lower_value, upper_value } } }`. One benchmark per row that
 * has a median, named `suite/case/size/store/browser` (plus its parameters, when the row records
 * any); its measure is `latency`, Bencher's built-in measure, in nanoseconds as Bencher counts it:
 * the median time per sample, and the 95% interval of that median as its bounds. A row without
 * an interval (fewer than 6 samples) gives the value alone. An A/B run's file adds, per row, B/A
 * with its 95% interval (`b-over-a`), the number its verdict is read from, and the smallest B/A
 * the run would have caught in that row (`detectable`, core/verdicts/change.ts), so a tracker can
 * alert on a run too weak to have seen a slowdown. Pure: documents in, text out.
 */
import type { CaseResult, ResultsFile } from '../core/results/results.ts';
import { abRows } from '../core/verdicts/ab.ts';

/** Bencher's built-in measure of time per operation; its unit is the nanosecond. */
const BMF_MEASURE = 'latency';

export interface BmfMetric {
  value: number;
  lower_value?: number;
  upper_value?: number;
}

export type Bmf = Record<string, Record<string, BmfMetric>>;

/** B/A of an A/B run, a measure of its own: a ratio, no unit. */
const AB_MEASURE = 'b-over-a';
/** The smallest B/A the run would have caught in the row with 80% probability: a ratio. */
const DETECTABLE_MEASURE = 'detectable';

/**
 * The row's parameters as `name=value` pairs, by name: a tracker's name for the row, which a
 * JSON object's quotes and braces made hard to read and to type in a query.
 */
function paramsPart(params: CaseResult['params'] | undefined): string {
  const entries = Object.entries(params ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return entries.length > 0 ? `/${entries.map(([k, v]) => `${k}=${String(v)}`).join(',')}` : '';
}

/** The benchmark's name: where the row comes from, so the same row of the next run has it too. */
function bmfName(c: CaseResult, browser: string): string {
  return `${c.suite}/${c.case}/${c.size}/${c.adapter}/${browser}${paramsPart(c.params)}`;
}

/**
 * Milliseconds as nanoseconds, to 12 significant digits: a median of 50.2075 ms came out as
 * 50207499.999989524 ns, digits of binary arithmetic that no timer measured (the finest a
 * browser gives is 5 µs). Twelve digits keep every digit a timer can give and drop that noise.
 */
export const nanoseconds = (ms: number): number => Number((ms * 1e6).toPrecision(12));

/** A/B rows with an interval: B/A with its 95% interval, named by both sides. */
function abMetrics(doc: ResultsFile, out: Bmf): void {
  for (const r of abRows(doc)) {
    if (!r.ratio) continue;
    const name = `${r.suite}/${r.case}/${r.size}/${r.b} over ${r.a}/${doc.run.browser}${paramsPart(r.params)}`;
    out[name] = {
      [AB_MEASURE]: { value: r.ratio.ratio, lower_value: r.ratio.lo, upper_value: r.ratio.hi },
      ...(r.detectable === null ? {} : { [DETECTABLE_MEASURE]: { value: r.detectable } }),
    };
  }
}

export function toBmf(docs: readonly ResultsFile[]): Bmf {
  const out: Bmf = {};
  for (const doc of docs) {
    for (const c of doc.cases) {
      if (c.status !== 'ok' || !c.stats) continue;
      const ci = c.stats.medianCi;
      const metric: BmfMetric = { value: nanoseconds(c.stats.median) };
      if (ci) {
        metric.lower_value = nanoseconds(ci.lo);
        metric.upper_value = nanoseconds(ci.hi);
      }
      out[bmfName(c, doc.run.browser)] = { [BMF_MEASURE]: metric };
    }
    abMetrics(doc, out);
  }
  return out;
}

export function bmfText(docs: readonly ResultsFile[]): string {
  return `${JSON.stringify(toBmf(docs), null, 2)}\n`;
}
