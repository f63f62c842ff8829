/**
 * The verdicts room (src/core/verdicts/): results in, decisions out: findings, comparisons and
 * their pooling, baselines, A/B, precision, row ratios and the gate. It imports base, stats, plan
 * and schema (a document's types), nothing above: it never reads a file, and reading one never
 * needs it.
 *
 * Findings: one rule for every claim storebench checks against results, the default plan's
 * (default-findings.ts) and the published studies' (src/studies/) alike. A finding is the ratio
 * of two rows, median(slower) / median(faster) per operation, with the 95% interval of that ratio
 * from the two medians' own intervals (stats.ratioOfMedians, after Price and Bonett), a claim,
 * and a verdict that comes from the interval alone. Pure: results documents in, cells out.
 */
import type { Plan } from '../plan/plan.ts';
import type { CaseResult, FindingLine, ResultsFile } from '../schema/results-schema.ts';
import { FINDING_VERDICTS, type FindingVerdict } from '../schema/vocabulary.ts';
import { plannedLooksOf } from '../plan/plan.ts';
import { noIntervalWhy, perOperation, rowRatio, type RowRatio } from './row-ratio.ts';
import type { MedianRatio } from '../stats/stats.ts';

export { FINDING_VERDICTS, type FindingVerdict };

/** A row of the results, found by its case and size, in any store or one. */
export interface RowRef {
  suite: string;
  case: string;
  /**
   * Which size: an exact one, or the largest (or next-largest) size at which the store has a row
   * of either side, so both sides are read at one size.
   */
  size: number | 'largest' | 'next-largest';
  /**
   * Only this store; absent: every store that ran either side. A finding whose two sides both
   * name a store compares those (two versions of a store, a store against raw IndexedDB) on its
   * cases, once per browser.
   */
  adapter?: string;
}

/**
 * A claim about the ratio median(slower) / median(faster):
 * - `faster`: `faster` takes less time than `slower` (the ratio is above 1);
 * - `about`: the ratio is `value`, within ÷/× `tolerance`;
 * - `either`: no direction claimed (a store against raw IndexedDB): the verdict names it.
 */
export type Claim =
  { kind: 'faster' } | { kind: 'about'; value: number; tolerance: number } | { kind: 'either' };

/**
 * The margin within which two rows read `same`: 5%, the gate's default threshold, a difference
 * smaller than any a maintainer acts on.
 */
const FINDING_MARGIN_PCT = 5;

/** Verdicts that settle a finding: a row whose findings all have one stops at a planned look. */
export const DECIDED_VERDICTS: readonly FindingVerdict[] = [
  'holds',
  'reversed',
  'differs',
  'slower',
  'faster',
  'same',
];

export interface Finding {
  /** Unique in its list: `startkey-over-skip`, `fastest:paginate/ref-skip`. */
  id: string;
  /** The claim in words. */
  says: string;
  /** The ratio is median(slower) / median(faster): above 1 when the claim holds. */
  slower: RowRef;
  faster: RowRef;
  claim: Claim;
  /** The two sides in a sentence ("startkey paging", "skip/limit paging"); the case ids without. */
  names?: { slower: string; faster: string };
  /** The heading it is listed under with others like it (`fastest`); its own id without. */
  topic?: string;
  /** When both sides name their store: the store the finding is about (the fastest one, the one set against raw IndexedDB); without it, `slower → faster`. */
  store?: string;
  /** Only in this browser: a finding chosen from that browser's rows. */
  browser?: string;
  /** Why it cannot be measured here, if it cannot: its verdict is `not measurable`, with this reason. */
  notMeasurable?: string;
}

/**
 * The verdict of a claim from the 95% interval [lo, hi] of its ratio; null: no interval.
 * - `faster` claims: `holds` when the interval lies wholly above 1, `reversed` wholly below,
 *   `same` wholly within ±FINDING_MARGIN_PCT, else `undecided`;
 * - `about` claims: `holds` within the band, `differs` wholly outside it, else `undecided`;
 * - `either`: `slower` wholly above 1 + the margin, `faster` wholly below 1 − the margin, `same`
 *   wholly within ±the margin, else `undecided`;
 * - no interval: `undecided`.
 */
export function verdictOf(
  claim: Claim,
  interval: { lo: number; hi: number } | null,
): FindingVerdict {
  if (interval === null) return 'undecided';
  const up = 1 + FINDING_MARGIN_PCT / 100;
  const down = 1 - FINDING_MARGIN_PCT / 100;
  const within = interval.lo >= down && interval.hi <= up;
  if (claim.kind === 'either') {
    if (interval.lo > up) return 'slower';
    if (interval.hi < down) return 'faster';
    return within ? 'same' : 'undecided';
  }
  if (claim.kind === 'faster') {
    if (interval.lo > 1) return 'holds';
    if (interval.hi < 1) return 'reversed';
    return within ? 'same' : 'undecided';
  }
  const low = claim.value / claim.tolerance;
  const high = claim.value * claim.tolerance;
  if (interval.lo >= low && interval.hi <= high) return 'holds';
  if (interval.hi < low || interval.lo > high) return 'differs';
  return 'undecided';
}

/** A finding checked in one browser and store. */
export interface FindingCell {
  browser: string;
  adapter: string;
  /** The size both rows were read at; null when a row is missing before any size was found; absent when no row was read. */
  size?: number | null;
  verdict: FindingVerdict;
  /** median(slower) / median(faster), per operation, with its 95% interval and how it was reached (row-ratio.ts); null without one. */
  ratio: RowRatio | null;
  /** The ratio the interval belongs to (`ratio.ratio`), or without an interval the ratio of the medians; absent when no row was read. */
  point?: number | null;
  /** Why there is no ratio, or why the interval is missing. */
  why?: string;
}

/** The rows of one browser: its documents' rows (the newest of each), and the plans that asked for them. */
export interface BrowserRows {
  browser: string;
  rows: CaseResult[];
  plans: Plan[];
}

/**
 * The documents as browsers: the documents of one browser are one browser's rows when they
 * measured different rows (shards of a plan); otherwise each is its own, `browser (run id)`, so
 * that no ratio sets a row of one run against a row of another.
 */
export function browsersOf(docs: readonly ResultsFile[]): BrowserRows[] {
  const byBrowser = new Map<string, ResultsFile[]>();
  for (const d of docs) byBrowser.set(d.run.browser, [...(byBrowser.get(d.run.browser) ?? []), d]);
  const out: BrowserRows[] = [];
  for (const [browser, list] of byBrowser) {
    const keys = list.flatMap((d) => d.cases.map(rowKey));
    if (list.length === 1 || new Set(keys).size === keys.length)
      out.push({ browser, rows: list.flatMap((d) => d.cases), plans: list.map((d) => d.run.plan) });
    else
      for (const d of list)
        out.push({ browser: `${browser} (${d.run.id})`, rows: d.cases, plans: [d.run.plan] });
  }
  return out;
}

const rowKey = (c: CaseResult) =>
  `${c.suite}\u0000${c.case}\u0000${c.adapter}\u0000${c.size}\u0000${JSON.stringify(c.params)}`;

/** Whether a plan asked for a case: its suite, and the case unless the plan names other cases. */
function asked(plans: readonly Plan[], suite: string, kase: string): boolean {
  return plans.some((p) => p.suites.includes(suite) && (!p.cases || p.cases.includes(kase)));
}

/** Whether the plans ran the case's suite but chose other cases of it (the default plan's list, --cases). */
function leftOut(plans: readonly Plan[], suite: string, kase: string): boolean {
  return plans.some((p) => p.suites.includes(suite)) && !asked(plans, suite, kase);
}

/** The finding checked in every browser and store of the documents that ran either side. */
export function findingCells(finding: Finding, docs: readonly ResultsFile[]): FindingCell[] {
  return cellsIn(finding, browsersOf(docs));
}

/** The finding checked in every browser and store of these rows. */
function cellsIn(finding: Finding, browsers: readonly BrowserRows[]): FindingCell[] {
  if (finding.notMeasurable) return [];
  return browsers.flatMap((b) =>
    finding.browser === undefined || finding.browser === b.browser ? browserCells(finding, b) : [],
  );
}

/** The two stores a finding compares when both its sides name one, or null: it is checked on each store. */
export function namedStores(finding: Finding): { slower: string; faster: string } | null {
  const { slower, faster } = finding;
  return slower.adapter !== undefined && faster.adapter !== undefined
    ? { slower: slower.adapter, faster: faster.adapter }
    : null;
}

/** What a cell of a finding about named stores is called: its store, or `slower → faster`. */
function storeLabel(finding: Finding, named: { slower: string; faster: string }): string {
  return (
    finding.store ??
    (named.slower === named.faster ? named.slower : `${named.slower} → ${named.faster}`)
  );
}

function browserCells(finding: Finding, b: BrowserRows): FindingCell[] {
  const named = namedStores(finding);
  if (named) return [cellOf(finding, b, storeLabel(finding, named))];
  const sides = [finding.slower, finding.faster];
  const ran = b.rows
    .filter((c) => sides.some((s) => c.suite === s.suite && c.case === s.case))
    .map((c) => c.adapter);
  // A store the plan asked for either side of, with no row of it, is missing too, not left out.
  const plannedStores = sides.some((s) => asked(b.plans, s.suite, s.case))
    ? b.plans.flatMap((p) => p.adapters)
    : [];
  // In the plan's order of stores, as the run took them; stores it did not name after them.
  const order = [...new Set([...b.plans.flatMap((p) => p.adapters), ...ran])];
  const stores = new Set([...ran, ...plannedStores]);
  return order.filter((store) => stores.has(store)).map((store) => cellOf(finding, b, store));
}

function cellOf(finding: Finding, b: BrowserRows, store: string): FindingCell {
  const of = (ref: RowRef) => ({ ...ref, adapter: ref.adapter ?? store });
  const [slowerRef, fasterRef] = [of(finding.slower), of(finding.faster)];
  const size = sizeOf(b.rows, slowerRef, fasterRef);
  const find = (ref: Required<RowRef>) =>
    b.rows.find(
      (c) =>
        c.suite === ref.suite &&
        c.case === ref.case &&
        c.adapter === ref.adapter &&
        c.size === size,
    );
  const [slower, faster] = [find(slowerRef), find(fasterRef)];
  const base = { browser: b.browser, adapter: store, size: size ?? null };
  if (!isOk(slower) || !isOk(faster)) {
    const why = !isOk(slower)
      ? notOk(finding, slowerRef, slower, b.plans, size)
      : notOk(finding, fasterRef, faster, b.plans, size);
    return { ...base, verdict: 'missing', ratio: null, point: null, why };
  }
  const [a, z] = [perOperation(faster), perOperation(slower)];
  const ratio = rowRatio(slower, faster, plannedLooksOf(b.plans[0]?.auto));
  // The statistic the interval belongs to: paired, the geometric mean of the passes' ratios.
  const point = ratio ? ratio.ratio : a.median > 0 && z.median > 0 ? z.median / a.median : null;
  const why = ratio
    ? undefined
    : a.median > 0 && z.median > 0 && (!a.ci || !z.ci || a.ci.lo > 0)
      ? noIntervalWhy(slower, faster)
      : "a median's interval reaches 0 (samples below the timer step), where a ratio has no bound";
  return {
    ...base,
    verdict: verdictOf(finding.claim, ratio),
    ratio,
    point,
    ...(why ? { why } : {}),
  };
}

/** The size both sides are read at: exact, or the largest (next-largest) at which the store has a row of either side. */
function sizeOf(
  rows: readonly CaseResult[],
  slower: Required<RowRef>,
  faster: Required<RowRef>,
): number | undefined {
  const size = slower.size;
  if (typeof size === 'number') return size;
  const sizes = [
    ...new Set(
      rows
        .filter((c) =>
          [slower, faster].some(
            (s) => c.suite === s.suite && c.case === s.case && c.adapter === s.adapter,
          ),
        )
        .map((c) => c.size),
    ),
  ].sort((x, y) => x - y);
  return size === 'largest' ? sizes.at(-1) : sizes.at(-2);
}

export { perOperation };

export function isOk(row: CaseResult | undefined): row is CaseResult & { status: 'ok' } {
  return row?.status === 'ok';
}

/** Which side is missing and why: its status and reason, or that it did not run (or that the plan chose other cases). */
function notOk(
  finding: Finding,
  ref: Required<RowRef>,
  row: CaseResult | undefined,
  plans: readonly Plan[],
  size: number | undefined,
): string {
  const label = namedStores(finding) ? `${ref.adapter} ${ref.case}` : ref.case;
  if (row) return `${label} is ${row.status}${row.reason ? `: ${row.reason}` : ''}`;
  if (leftOut(plans, ref.suite, ref.case)) return `${label} was not in the plan`;
  return `${label} did not run${size !== undefined ? ` at ${size.toLocaleString('en-US')} documents` : ''}`;
}

/** "2.31× [2.10, 2.55]": a ratio with its 95% interval. */
export function formatRatio(r: MedianRatio | null): string {
  if (!r) return 'no interval';
  return `${fmt(r.ratio)}× [${fmt(r.lo)}, ${fmt(r.hi)}]`;
}

/** A cell's ratio as a list shows it: with its interval, or alone and saying it has none. */
export function formatCellRatio(cell: FindingCell): string {
  if (cell.ratio) return formatRatio(cell.ratio);
  return cell.point === null || cell.point === undefined
    ? 'no ratio'
    : `${fmt(cell.point)}× (no interval)`;
}

/** Three significant figures, as a factor reads. */
export function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return x >= 100 ? Math.round(x).toLocaleString('en-US') : x.toPrecision(3);
}

/** Where a cell is, in words: "on idb in chromium", or for a finding about named stores "at paginate ref-skip in chromium". */
function whereOf(finding: Finding, cell: FindingCell): string {
  return namedStores(finding)
    ? `at ${finding.slower.suite} ${finding.slower.case} in ${cell.browser}`
    : `on ${cell.adapter} in ${cell.browser}`;
}

/**
 * The cell in one sentence: "startkey paging is 6.83× [6.12, 7.51] faster than skip/limit paging
 * on pouchdb-idb in chromium: holds". A ratio below 1 reads "as fast as", never "0.5× faster".
 * A finding without a claimed direction names it: "idb is 1.05× [0.98, 1.12] slower than raw
 * IndexedDB at insert serial in chromium: undecided".
 */
export function findingSentence(finding: Finding, cell: FindingCell): string {
  const names = finding.names ?? { slower: finding.slower.case, faster: finding.faster.case };
  const where = whereOf(finding, cell);
  if (cell.verdict === 'missing')
    return `${names.faster} against ${names.slower} ${where}: missing (${cell.why ?? 'a row is absent'})`;
  const none = cell.ratio ? '' : `: ${cell.why ?? 'no interval'}`;
  if (finding.claim.kind === 'either') return eitherSentence(names, cell, where, none);
  const value = cell.point ?? 0;
  const relation = value >= 1 ? 'faster than' : 'as fast as';
  const interval = cell.ratio ? ` [${fmt(cell.ratio.lo)}, ${fmt(cell.ratio.hi)}]` : '';
  const band =
    finding.claim.kind === 'about' ? ` (claimed: about ${fmt(finding.claim.value)}×)` : '';
  // A small factor is hard to read: say the other way round too.
  const turned = value > 0 && value < 1 ? ` (${names.slower} is ${fmt(1 / value)}× faster)` : '';
  return `${names.faster} is ${fmt(value)}×${interval} ${relation} ${names.slower}${turned}${band} ${where}: ${cell.verdict}${none}`;
}

/** "localstorage is 33.3× [30.1, 36.9] faster than raw IndexedDB …: faster": the subject is the `slower` side, its ratio read the way it goes. */
function eitherSentence(
  names: { slower: string; faster: string },
  cell: FindingCell,
  where: string,
  none: string,
): string {
  const value = cell.point ?? 0;
  const slower = value >= 1;
  const factor = slower ? value : value > 0 ? 1 / value : 0;
  const r = cell.ratio;
  const interval = r
    ? slower
      ? ` [${fmt(r.lo)}, ${fmt(r.hi)}]`
      : ` [${fmt(1 / r.hi)}, ${fmt(1 / r.lo)}]`
    : '';
  return `${names.slower} is ${fmt(factor)}×${interval} ${slower ? 'slower' : 'faster'} than ${names.faster} ${where}: ${cell.verdict}${none}`;
}

/** One line of the results file's `findings`: a finding checked in one browser and store. */
function findingLine(finding: Finding, cell: FindingCell): FindingLine {
  return {
    finding: finding.id,
    topic: finding.topic ?? finding.id,
    claim: finding.says,
    store: cell.adapter,
    browser: cell.browser,
    size: cell.size ?? null,
    ratio: cell.point ?? null,
    lo: cell.ratio?.lo ?? null,
    hi: cell.ratio?.hi ?? null,
    method: cell.ratio?.method ?? null,
    passes: cell.ratio?.passes ?? null,
    verdict: cell.verdict,
    why: cell.why ?? null,
    text: findingSentence(finding, cell),
  };
}

/** A finding with its cells: checked in every browser and store that ran it. */
export interface CheckedFinding {
  finding: Finding;
  cells: FindingCell[];
}

/** Every finding checked in these browsers' rows, in the findings' order; those no store ran are left out. */
export function checkFindingsIn(
  findings: readonly Finding[],
  browsers: readonly BrowserRows[],
): CheckedFinding[] {
  return findings
    .map((finding) => ({ finding, cells: cellsIn(finding, browsers) }))
    .filter((c) => c.cells.length > 0);
}

/** Every finding checked in every browser and store of the documents, as lines, in the findings' order. */
export function findingLines(checked: readonly CheckedFinding[]): FindingLine[] {
  return checked.flatMap(({ finding, cells }) => cells.map((cell) => findingLine(finding, cell)));
}
