/**
 * The forest plot of an A/B run (core/verdicts/ab.ts): one line per row and browser, B/A with its 95%
 * interval on a log axis, the ±threshold band around 1, the verdicts and the rows that fail the
 * run, and the run's one verdict. Pure: results documents in, positions in [0, 1] and words out;
 * the plot (charts/chart-forest.ts) and the table (results/ab-view.ts) draw the same model.
 */
import { abDecision, abRows, type AbDecision, type AbRow } from '../../core/verdicts/ab.ts';
import { AB_LAUNCH_RULE } from '../../core/plan/ab-plan.ts';
import type { ParamValue } from '../../core/base/identity.ts';
import type { ChangeVerdict } from '../../core/schema/vocabulary.ts';
import { runPassesText } from '../../core/verdicts/ab-size.ts';
import { shownDetectable } from '../../core/verdicts/change.ts';
import type { ResultsFile } from '../../core/results/results.ts';

/** Where on the axis, 0 (left) to 1 (right); an end past the axis stops at it and says so. */
export interface ForestSpan {
  point: number;
  lo: number;
  hi: number;
  loCut: boolean;
  hiCut: boolean;
}

export interface ForestLine {
  /** Unique within its forest: browser, suite, case, size and parameters. */
  key: string;
  browser: string;
  /** `suite/case`. */
  row: string;
  size: number;
  /** The case's parameters as `name=value`, or '' for none. */
  params: string;
  verdict: ChangeVerdict;
  /** Slower beyond the threshold over every row and browser (core/verdicts/change.ts): it fails the run. */
  fails: boolean;
  /** The smallest B/A the run would have caught in this row with 80% probability; null without an interval or when shown slower (change.shownDetectable). */
  detectable: number | null;
  ratio: { ratio: number; lo: number; hi: number; passes: number } | null;
  /** Why there is no ratio. */
  why: string | null;
  at: ForestSpan | null;
}

export interface ForestTick {
  value: number;
  at: number;
  label: string;
  /** Kept on a narrow plot; the others only where there is room. */
  major: boolean;
}

export interface ForestAxis {
  min: number;
  max: number;
  ticks: ForestTick[];
  /** Where 1 (B as fast as A) is. */
  one: number;
  /** The ±threshold band: 1 − t to 1 + t. */
  band: { lo: number; hi: number };
}

/** One A/B run: its documents, one per browser. */
export interface AbForest {
  /** The run id, A, B and the threshold: documents of one run share it. */
  key: string;
  runId: string;
  a: string;
  b: string;
  thresholdPct: number;
  browsers: string[];
  lines: ForestLine[];
  axis: ForestAxis;
  decision: AbDecision;
  /** The decision's line, worded for where the passes ran (see scopedLine). */
  line: string;
  /** Browsers whose passes all ran in one browser launch (the page's runs): their intervals leave out how launches differ. */
  oneLaunch: string[];
  /** The passes the question needs and the run had, or how --budget auto sized it (verdicts/ab-size.ts). */
  passes: string | null;
}

/** A ratio as the table and the plot write it: ×1.234, ×12.3, ×250. */
export function times(x: number): string {
  return `×${x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(3)}`;
}

/** The A/B runs among these documents, in the order first seen; documents of other plans are left out. */
export function abForests(docs: readonly ResultsFile[]): AbForest[] {
  const groups = new Map<string, ResultsFile[]>();
  for (const doc of docs) {
    const key = runKey(doc);
    if (key !== null) groups.set(key, [...(groups.get(key) ?? []), doc]);
  }
  return [...groups].map(([key, group]) => forestOf(key, group));
}

function runKey(doc: ResultsFile): string | null {
  const ab = doc.run.plan.ab;
  const [a, b] = doc.run.plan.adapters;
  return ab && a && b ? JSON.stringify([doc.run.id, a, b, ab.thresholdPct]) : null;
}

function forestOf(key: string, docs: readonly ResultsFile[]): AbForest {
  const first = docs[0] as ResultsFile;
  const [a, b] = first.run.plan.adapters as [string, string];
  const thresholdPct = first.run.plan.ab?.thresholdPct as number;
  const decision = abDecision(
    sortRows(docs.flatMap(abRows)),
    thresholdPct,
    first.run.plan.ab?.detectPct ?? null,
  );
  const rows = decision.rows;
  const axis = forestAxis(
    rows.flatMap((r) => (r.ratio ? [r.ratio] : [])),
    thresholdPct,
  );
  const oneLaunch = [
    ...new Set(docs.filter((d) => (d.run.launches ?? 1) <= 1).map((d) => d.run.browser)),
  ];
  const browsers = [...new Set(docs.map((d) => d.run.browser))];
  return {
    key,
    runId: first.run.id,
    a,
    b,
    thresholdPct,
    browsers,
    lines: rows.map((r) => lineOf(r, axis)),
    axis,
    decision,
    line: scopedLine(
      decision.line,
      oneLaunch.length === 0
        ? 'launches'
        : oneLaunch.length === browsers.length
          ? 'one-launch'
          : 'mixed',
    ),
    oneLaunch,
    passes: runPassesText(rows, docs),
  };
}

/** A case's browsers side by side: rows by case in the order first seen, then by browser in the order first seen. */
function sortRows(rows: readonly AbRow[]): AbRow[] {
  const caseKey = (r: AbRow) => JSON.stringify([r.suite, r.case, r.size, r.params]);
  const cases = [...new Set(rows.map(caseKey))];
  const browsers = [...new Set(rows.map((r) => r.browser))];
  return [...rows].sort(
    (x, y) =>
      cases.indexOf(caseKey(x)) - cases.indexOf(caseKey(y)) ||
      browsers.indexOf(x.browser) - browsers.indexOf(y.browser),
  );
}

function lineOf(r: AbRow, axis: ForestAxis): ForestLine {
  const ratio = r.ratio
    ? { ratio: r.ratio.ratio, lo: r.ratio.lo, hi: r.ratio.hi, passes: r.ratio.passes }
    : null;
  return {
    key: JSON.stringify([r.browser, r.suite, r.case, r.size, r.params]),
    browser: r.browser,
    row: `${r.suite}/${r.case}`,
    size: r.size,
    params: paramsText(r.params),
    verdict: r.verdict,
    fails: r.verdict === 'slower',
    detectable: shownDetectable(r),
    ratio,
    why: ratio ? null : (r.why ?? 'no interval'),
    at: ratio ? spanOf(ratio, axis) : null,
  };
}

function paramsText(params: Record<string, ParamValue>): string {
  return Object.entries(params)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join(' ');
}

/** 0 at the axis' min, 1 at its max, on a log scale. */
export function axisAt(value: number, axis: Pick<ForestAxis, 'min' | 'max'>): number {
  return Math.log(value / axis.min) / Math.log(axis.max / axis.min);
}

function spanOf(r: { ratio: number; lo: number; hi: number }, axis: ForestAxis): ForestSpan {
  const at = (v: number) => Math.min(1, Math.max(0, axisAt(v, axis)));
  return {
    point: at(r.ratio),
    lo: at(r.lo),
    hi: at(r.hi),
    loCut: r.lo < axis.min,
    hiCut: r.hi > axis.max,
  };
}

/**
 * The axis: every point and the band, and the intervals as far as they go, but not further than
 * as wide again as the points and band span (at least ×2 either side): an interval of two passes
 * can reach a hundredfold, and would squeeze every other line into a few pixels. Its cut ends
 * are marked instead.
 */
export function forestAxis(
  ratios: readonly { ratio: number; lo: number; hi: number }[],
  thresholdPct: number,
): ForestAxis {
  const t = thresholdPct / 100;
  const points = ratios.map((r) => r.ratio).filter((v) => v > 0 && Number.isFinite(v));
  const coreMin = Math.min(1 - t, ...points);
  const coreMax = Math.max(1 + t, ...points);
  const reach = Math.max(coreMax / coreMin, 2);
  const lows = ratios.map((r) => r.lo).filter((v) => v > 0 && Number.isFinite(v));
  const highs = ratios.map((r) => r.hi).filter((v) => Number.isFinite(v));
  const lo = Math.max(Math.min(coreMin, ...lows), coreMin / reach);
  const hi = Math.min(Math.max(coreMax, ...highs), coreMax * reach);
  // A margin of 4% of the width on each side, so no point or tick sits on the edge.
  const pad = (hi / lo) ** 0.04;
  const bounds = { min: lo / pad, max: hi * pad };
  return {
    ...bounds,
    ticks: forestTicks(bounds.min, bounds.max),
    one: axisAt(1, bounds),
    band: { lo: axisAt(1 - t, bounds), hi: axisAt(1 + t, bounds) },
  };
}

/** Tick values' leading digits, roundest first: a tick is kept only where it leaves room for its label. */
const MANTISSAS = [1, 2, 5, 1.5, 3, 1.2, 7, 1.1, 9, 8, 1.05, 9.5, 4, 6, 2.5];
/** Gaps between ticks, as a share of the axis: major ticks fit a phone, the rest a wider plot. */
const MAJOR_GAP = 0.2;
const MINOR_GAP = 0.1;

/** Ticks on a log axis: 1 first, then the roundest values that keep their distance from the ones taken. */
export function forestTicks(min: number, max: number): ForestTick[] {
  const candidates = new Map<number, number>([[1, -1]]);
  for (let e = Math.floor(Math.log10(min)) - 1; e <= Math.ceil(Math.log10(max)); e++) {
    MANTISSAS.forEach((m, rank) => {
      const v = Number((m * 10 ** e).toPrecision(6));
      if (!candidates.has(v)) candidates.set(v, rank);
    });
  }
  const order = [...candidates].filter(([v]) => v >= min && v <= max).sort((x, y) => x[1] - y[1]);
  const taken: ForestTick[] = [];
  for (const gap of [MAJOR_GAP, MINOR_GAP]) {
    for (const [v] of order) {
      const at = axisAt(v, { min, max });
      if (taken.some((t) => Math.abs(t.at - at) < gap)) continue;
      taken.push({ value: v, at, label: `×${Number(v.toPrecision(3))}`, major: gap === MAJOR_GAP });
    }
  }
  return taken.sort((x, y) => x.value - y.value);
}

/**
 * abDecision's line says its intervals are over launches, as a sweep's are, and its advice gives
 * a sweep's flags and how a sweep spends its budget. In the page every pass runs in the one
 * launch of its tab: its line says so instead, and names the page's own settings. The phrases are
 * checked against abDecision's own words in a test.
 */
export const LAUNCH_PHRASES = {
  intervals: '95% intervals over launches',
  budget: AB_LAUNCH_RULE,
  passes: '--auto=passes:',
} as const;

export function scopedLine(line: string, scope: 'launches' | 'one-launch' | 'mixed'): string {
  if (scope === 'launches') return line;
  const intervals =
    scope === 'one-launch'
      ? '95% intervals over passes in one browser launch'
      : '95% intervals over passes, in one launch or over launches as each browser ran them';
  return line
    .replace(LAUNCH_PHRASES.intervals, intervals)
    .replace(
      new RegExp(`, with --budget \\S+ or more, ${escapeRegExp(LAUNCH_PHRASES.budget)}`, 'g'),
      '',
    )
    .replace(/--auto=/g, 'the setting ')
    .replace(/--budget/g, 'budget')
    .replace(/\(--detect (\S+)\)/g, '(the setting detect=$1)');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
