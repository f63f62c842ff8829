/**
 * Results files as series over time: one series per row (browser, suite, case, store, size,
 * parameters), one point per run (by date) or per build of the code (by commit), in the order the
 * runs started. Runs come from other machines and hours, which move every row of a browser
 * together: each point is the row's median net of the shift its run shares with the other rows
 * of its browser, as `compare` estimates it (compare.ts) against one reference run, and keeps its
 * raw median beside it.
 */
import { rowScatter } from '../stats/between-runs.ts';
import { canonicalJson } from '../base/canonical-json.ts';
import {
  compareResults,
  type CaseComparison,
  type Comparison,
  type RunToRun,
} from '../verdicts/compare.ts';
import type { ParamValue } from '../base/identity.ts';
import type { Environment, ResultsFile } from '../results/results.ts';
import { type Interval, type LogRatio, type MedianWithCi } from '../stats/stats.ts';
import type { LogPoint } from './weighted-test.ts';
import { own } from '../base/own.ts';

/** One results document and where it came from (a file name, for the click through to it). */
export interface HistoryInput {
  doc: ResultsFile;
  source: string;
}

export type HistoryBy = 'commit' | 'date';
export const HISTORY_BY: readonly HistoryBy[] = ['commit', 'date'];

export interface RowKey {
  browser: string;
  suite: string;
  case: string;
  adapter: string;
  size: number;
  params: Record<string, ParamValue>;
}

export interface HistoryPoint {
  /** What the point is on the axis: the harness commit (and the store's build), or the run's start. */
  label: string;
  /** The harness commit, and the store's build where its run recorded one. */
  commit: string;
  store: string | null;
  /** The earliest start of the point's runs (ISO 8601). */
  startedAt: string;
  runIds: string[];
  sources: string[];
  /** Samples behind the median. */
  n: number;
  /** The row's own median and its 95% interval (stats.medianCi); pooled over the point's runs. */
  raw: MedianWithCi;
  /** The shift every row of the browser shares against the reference run, on the log scale; null below 10 rows in common. */
  shift: LogRatio | null;
  /** The median net of the shift, with the 95% interval of the two together (quadrature on the log scale). */
  net: MedianWithCi;
  /** The net median on the log scale with its standard error: what the detector reads; null without an interval. */
  log: LogPoint | null;
  /** The machines, browser builds and ways of measuring the point's runs record (machineOf, buildOf, setupOf). */
  machines: string[];
  builds: string[];
  setups: string[];
}

export interface Series {
  id: string;
  key: RowKey;
  points: HistoryPoint[];
  /** The run every point's shift is measured against. */
  reference: string;
}

/** One point of a browser's series: a run (by date) or the runs of one build (by commit), and its shift. */
export interface HistoryRun {
  browser: string;
  label: string;
  commit: string;
  startedAt: string;
  runIds: string[];
  sources: string[];
  /** The shift every row shares against the reference run, as `compare` gives it; null below 10 rows in common. */
  shift: NonNullable<RunToRun['shift']> | null;
  /** Rows ok in both this run and the reference, which the shift is the median of. */
  common: number;
  reference: boolean;
  machines: string[];
  builds: string[];
  setups: string[];
}

export interface HistorySeries {
  series: Series[];
  runs: HistoryRun[];
}

const Z975 = 1.959963984540054;

/** The machine as a results file records it: the system, cores and memory the page could see. */
function machineOf(env: Environment): string {
  const memory = env.deviceMemoryGb !== null ? `, ${env.deviceMemoryGb} GiB` : '';
  return `${env.os}, ${env.cores ?? '?'} cores${memory}`;
}

/** The browser build as a results file records it: name, version and user agent. */
function buildOf(env: Environment): string {
  return `${env.browser.name} ${env.browser.version} (${env.userAgent})`;
}

/**
 * How the run was measured, where it changes the numbers: browser launches (a fresh browser per
 * pass starts each from another state), the thread, cross-origin isolation and its timer step,
 * and CPU throttling.
 */
function setupOf(doc: ResultsFile): string {
  const env = doc.environment;
  const launches = doc.run.launches ?? 1;
  const throttle = doc.run.plan.cpuThrottle;
  return [
    `${launches} browser launch${launches === 1 ? '' : 'es'}`,
    env.context === 'worker' ? 'Worker' : 'main thread',
    `${env.crossOriginIsolated ? 'isolated' : 'not isolated'}, step ${env.timerStepMs} ms`,
    ...(throttle !== undefined && throttle > 1 ? [`CPU ×${throttle}`] : []),
  ].join(', ');
}

/** A series' id, stable across readers: the row's identity as canonical JSON. */
const seriesId = (k: RowKey) =>
  canonicalJson([k.browser, k.suite, k.case, k.adapter, k.size, k.params]);

/** The store's build as a run records it (version, commit or integrity), or null. */
function storeOf(doc: ResultsFile, adapter: string): string | null {
  const facts = own(doc.environment.adapters, adapter);
  if (!facts) return null;
  const build = facts.commit ?? facts.version ?? facts.integrity;
  return build === undefined ? null : build;
}

/** The key a point groups runs by: the run (by date), or the code every store ran (by commit). */
function groupKey(doc: ResultsFile, by: HistoryBy): string {
  return by === 'date'
    ? doc.run.id
    : canonicalJson([doc.harness.commit, doc.environment.adapters ?? {}]);
}

interface Group {
  inputs: HistoryInput[];
  startedAt: string;
}

/** A browser's documents grouped into points, in the order their first run started. */
function groupsOf(inputs: readonly HistoryInput[], by: HistoryBy): Group[] {
  const groups = new Map<string, Group>();
  for (const input of inputs) {
    const key = groupKey(input.doc, by);
    const g = groups.get(key);
    if (!g) groups.set(key, { inputs: [input], startedAt: input.doc.run.startedAt });
    else {
      g.inputs.push(input);
      if (input.doc.run.startedAt < g.startedAt) g.startedAt = input.doc.run.startedAt;
    }
  }
  return [...groups.values()].sort((a, b) =>
    a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : 0,
  );
}

/** The ok rows of a group, by identity. */
function okKeys(g: Group): Set<string> {
  const keys = new Set<string>();
  for (const { doc } of g.inputs)
    for (const c of doc.cases)
      if (c.status === 'ok') keys.add(canonicalJson([c.suite, c.case, c.adapter, c.size]));
  return keys;
}

/**
 * The reference run: the point sharing the most ok rows with all the others (the earliest among
 * equals), so that the most points have a shift against it (10 rows in common at least).
 */
function referenceOf(groups: readonly Group[]): Group {
  const keys = groups.map(okKeys);
  let best = 0;
  let bestScore = -1;
  keys.forEach((mine, i) => {
    let score = 0;
    for (const theirs of keys) for (const k of mine) if (theirs.has(k)) score++;
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return groups[best] as Group;
}

/**
 * The net median and its log-scale point: the raw median less the shift, its error the median's
 * own, the shift's, and `scatter`, in quadrature.
 */
function netOf(
  raw: MedianWithCi,
  shift: LogRatio | null,
  scatter: number,
): Pick<HistoryPoint, 'net' | 'log'> {
  const y = Math.log(raw.median) - (shift?.y ?? 0);
  const ci = raw.ci;
  if (!ci || !(ci.lo > 0)) return { net: { median: Math.exp(y), ci: null }, log: null };
  const own = Math.log(ci.hi / ci.lo) / (2 * Z975);
  const se = Math.sqrt(own ** 2 + (shift?.se ?? 0) ** 2 + scatter ** 2);
  const net: Interval = { lo: Math.exp(y - Z975 * se), hi: Math.exp(y + Z975 * se) };
  return { net: { median: Math.exp(y), ci: net }, log: { y, se } };
}

/** Row identities held twice in one document (other parameters): compare neither pools nor compares them. */
function heldTwice(g: Group): Set<string> {
  const twice = new Set<string>();
  for (const { doc } of g.inputs) {
    const seen = new Set<string>();
    for (const c of doc.cases) {
      const k = canonicalJson([c.suite, c.case, c.adapter, c.size]);
      if (seen.has(k)) twice.add(k);
      seen.add(k);
    }
  }
  return twice;
}

/** The point of one compared row in one group, or null when it has no median. */
function pointOf(
  row: CaseComparison,
  g: Group,
  run: HistoryRun,
  by: HistoryBy,
): { key: RowKey; point: HistoryPoint } | null {
  const side = row.next;
  if (!side || side.status !== 'ok' || !(side.median > 0)) return null;
  const same = (c: ResultsFile['cases'][number]) =>
    c.suite === row.suite &&
    c.case === row.case &&
    c.adapter === row.adapter &&
    c.size === row.size;
  const first = g.inputs.find((i) => i.doc.cases.some(same))?.doc as ResultsFile;
  const store = storeOf(first, row.adapter);
  const raw = { median: side.median, ci: side.medianCi };
  const shift = run.shift?.estimate ?? null;
  return {
    key: {
      browser: row.browser,
      suite: row.suite,
      case: row.case,
      adapter: row.adapter,
      size: row.size,
      params: first.cases.find(same)?.params ?? {},
    },
    point: {
      label: by === 'commit' && store ? `${run.label} · ${store}` : run.label,
      commit: run.commit,
      store,
      startedAt: run.startedAt,
      runIds: run.runIds,
      sources: run.sources,
      n: side.n,
      raw,
      shift,
      // compare widens a row's change between two runs by this scatter; one run carries 1/√2 of it.
      ...netOf(raw, shift, rowScatter(row.browser, row.adapter) / Math.SQRT2),
      machines: run.machines,
      builds: run.builds,
      setups: run.setups,
    },
  };
}

/** A group as a run of the browser's series, with its shift against the reference. */
function runOf(g: Group, by: HistoryBy, c: Comparison, reference: boolean): HistoryRun {
  const docs = g.inputs.map((i) => i.doc);
  const browser = docs[0]?.run.browser ?? '';
  const commits = [...new Set(docs.map((d) => d.harness.commit))];
  return {
    browser,
    label: by === 'commit' ? commits.join('+') : `${g.startedAt.slice(0, 16).replace('T', ' ')}`,
    commit: commits.join('+'),
    startedAt: g.startedAt,
    runIds: [...new Set(docs.map((d) => d.run.id))],
    sources: [...new Set(g.inputs.map((i) => i.source))],
    shift: c.runToRun.find((r) => r.browser === browser)?.shift ?? null,
    common: c.coverage.okInBoth,
    reference,
    machines: [...new Set(docs.map((d) => machineOf(d.environment)))],
    builds: [...new Set(docs.map((d) => buildOf(d.environment)))],
    setups: [...new Set(docs.map(setupOf))],
  };
}

/** One browser's series: every group compared with the reference, as `compare` compares two runs. */
function browserSeries(
  inputs: readonly HistoryInput[],
  by: HistoryBy,
  into: Map<string, Series>,
): HistoryRun[] {
  const groups = groupsOf(inputs, by);
  const reference = referenceOf(groups);
  const refDocs = reference.inputs.map((i) => i.doc);
  return groups.map((g) => {
    const c = compareResults(
      refDocs,
      g.inputs.map((i) => i.doc),
    );
    const run = runOf(g, by, c, g === reference);
    const twice = heldTwice(g);
    for (const row of c.rows) {
      if (twice.has(canonicalJson([row.suite, row.case, row.adapter, row.size]))) continue;
      const made = pointOf(row, g, run, by);
      if (!made) continue;
      const id = seriesId(made.key);
      const series = into.get(id) ?? { id, key: made.key, points: [], reference: '' };
      series.reference = refDocs[0]?.run.id ?? '';
      series.points.push(made.point);
      into.set(id, series);
    }
    return run;
  });
}

/** Every row's series, browser by browser, in the order the rows first appear, and each browser's runs. */
export function buildSeries(inputs: readonly HistoryInput[], by: HistoryBy): HistorySeries {
  const browsers = [...new Set(inputs.map((i) => i.doc.run.browser))];
  const out = new Map<string, Series>();
  const runs = browsers.flatMap((browser) =>
    browserSeries(
      inputs.filter((i) => i.doc.run.browser === browser),
      by,
      out,
    ),
  );
  return { series: [...out.values()], runs };
}
