/**
 * A study's report as data: every finding checked in every browser and store that ran it, the
 * published figures beside today's, and the change in speed between versions of a store. Pure:
 * results documents in, a model out; report-html.ts and report-markdown.ts only render it.
 *
 * Ratios are of medians per operation, with the 95% interval of the ratio from the two medians'
 * own intervals (stats.ratioOfMedians), so a verdict comes from the same intervals as every
 * other number storebench shows.
 */
import {
  findingCells,
  fmt,
  isOk,
  namedStores,
  perOperation,
  FINDING_VERDICTS,
  type Finding,
  type FindingCell,
  type RowRef,
  type FindingVerdict,
} from '../core/verdicts/findings.ts';
import type { CaseResult, ResultsFile } from '../core/results/results.ts';
import {
  median,
  medianCi,
  quantile,
  ratioOfMedians,
  type MedianRatio,
  type MedianWithCi,
} from '../core/stats/stats.ts';
import type { PublishedFigure, Reference, Study, StudyFinding } from './study.ts';
import { own } from '../core/base/own.ts';

export { fmt, formatRatio } from '../core/verdicts/findings.ts';
export type { FindingCell } from '../core/verdicts/findings.ts';

export interface FindingReport {
  finding: StudyFinding;
  cells: FindingCell[];
}

export interface ReferenceCell {
  browser: string;
  adapter: string;
  /** Median time of one sample (the whole operation), with its 95% interval. */
  medianMs: number;
  ci: { lo: number; hi: number } | null;
  n: number;
}

export interface ReferenceReport {
  reference: Reference;
  cells: ReferenceCell[];
}

/** Change in speed from an older version of a store to the current one, as the 2.2.0 report gave it. */
export interface VersionCell {
  part: string;
  suite: string;
  case: string;
  size: number;
  browser: string;
  store: string;
  older: string;
  newer: string;
  /** median(older) / median(newer): above 1 when the newer version is faster. */
  ratio: MedianRatio | null;
}

/** Every timed sample of one row, summarised as its histogram would read. */
export interface DistributionCell {
  browser: string;
  adapter: string;
  size: number;
  n: number;
  /** Minimum, quartiles, median, 95th percentile and maximum, ms per sample. */
  min: number;
  p25: number;
  median: number;
  p75: number;
  p95: number;
  max: number;
}

/** The first batches of a growth row against its last ones: median ms per batch of each, and their ratio. */
export interface GrowthCell {
  browser: string;
  adapter: string;
  batches: number;
  /** The size the store reached. */
  reached: number;
  first: MedianWithCi;
  last: MedianWithCi;
  /** median(last) / median(first): above 1 when batches got slower as the store grew. */
  ratio: MedianRatio | null;
}

export interface StudyReport {
  study: Study;
  browsers: string[];
  /** Per browser: what ran it, as the results file says. */
  environments: { browser: string; name: string; version: string; os: string; runIds: string[] }[];
  findings: FindingReport[];
  references: ReferenceReport[];
  versions: VersionCell[];
  distribution: DistributionCell[];
  growth: GrowthCell[];
  tally: Record<FindingVerdict, number>;
  /** Results documents of this study that the report read. */
  documents: number;
}

/** The part's documents per browser, the latest of each browser's if there are several. */
function partDocs(
  study: Study,
  part: string,
  docs: readonly ResultsFile[],
): Map<string, ResultsFile> {
  const out = new Map<string, ResultsFile>();
  for (const d of docs) {
    if (d.run.plan.study !== `${study.id}/${part}`) continue;
    const seen = out.get(d.run.browser);
    if (!seen || seen.run.finishedAt < d.run.finishedAt) out.set(d.run.browser, d);
  }
  return out;
}

/** The row a reference names, for one store, in one document: at its own largest size, or the one below. */
function findRow(doc: ResultsFile, ref: RowRef, adapter: string): CaseResult | undefined {
  const rows = doc.cases.filter(
    (c) => c.suite === ref.suite && c.case === ref.case && c.adapter === adapter,
  );
  const sizes = [...new Set(rows.map((c) => c.size))].sort((a, b) => a - b);
  const size =
    ref.size === 'largest' ? sizes.at(-1) : ref.size === 'next-largest' ? sizes.at(-2) : ref.size;
  return rows.find((c) => c.size === size);
}

/** The two stores a finding compares on one case (versions of a store), or null: it compares cases on each store. */
export function storePair(finding: Finding): { slower: string; faster: string } | null {
  const named = namedStores(finding);
  return named && named.slower !== named.faster ? named : null;
}

/**
 * A finding's cells by the one rule (core/verdicts/findings.ts), from the latest file of its part in each
 * browser; a version the study could not build is named in one cell instead.
 */
function studyFindingCells(
  study: Study,
  finding: Finding & { part: string },
  docs: readonly ResultsFile[],
  failures: Readonly<Record<string, string>>,
): FindingCell[] {
  if (finding.notMeasurable) return [];
  const pair = storePair(finding);
  const failed = pair && [pair.slower, pair.faster].find((a) => failures[a] !== undefined);
  if (pair && failed)
    return [
      {
        browser: 'every browser',
        adapter: `${pair.slower} → ${pair.faster}`,
        verdict: 'not measurable',
        ratio: null,
        why: `${failed} ${failures[failed]}`,
      },
    ];
  return findingCells(finding, [...partDocs(study, finding.part, docs).values()]);
}

function referenceCells(
  study: Study,
  reference: Reference,
  docs: readonly ResultsFile[],
): ReferenceCell[] {
  const cells: ReferenceCell[] = [];
  for (const [browser, doc] of partDocs(study, reference.part, docs)) {
    for (const adapter of new Set(doc.cases.map((c) => c.adapter))) {
      const row = findRow(doc, reference.row, adapter);
      if (isOk(row))
        cells.push({
          browser,
          adapter,
          medianMs: row.stats.median,
          ci: row.stats.medianCi ?? null,
          n: row.stats.n,
        });
    }
  }
  return cells;
}

/** The study's pairs of versions, or each `store@1.2.3` in the rows against the store (`idb@write-behind` is no version). */
function versionPairs(study: Study, doc: ResultsFile): { older: string; newer: string }[] {
  if (study.versions) return study.versions;
  const older = [...new Set(doc.cases.map((c) => c.adapter).filter((a) => /@\d/.test(a)))];
  return older.map((a) => ({ older: a, newer: a.slice(0, a.indexOf('@')) }));
}

/** A store's version as its results say (`environment.adapters`), else as its id says. */
function versionOf(doc: ResultsFile, adapter: string): string {
  return (
    own(doc.environment.adapters, adapter)?.version ??
    (adapter.includes('@') ? adapter.slice(adapter.indexOf('@') + 1) : 'current')
  );
}

function versionCells(study: Study, docs: readonly ResultsFile[]): VersionCell[] {
  const cells: VersionCell[] = [];
  for (const part of study.parts) {
    for (const [browser, doc] of partDocs(study, part.id, docs)) {
      for (const pair of versionPairs(study, doc)) {
        for (const older of doc.cases.filter((c) => c.adapter === pair.older)) {
          const newer = doc.cases.find(
            (c) =>
              c.adapter === pair.newer &&
              c.suite === older.suite &&
              c.case === older.case &&
              c.size === older.size,
          );
          if (!newer) continue;
          const ratio =
            isOk(older) && isOk(newer)
              ? ratioOfMedians(perOperation(newer), perOperation(older))
              : null;
          const store = pair.older.slice(0, pair.older.indexOf('@'));
          cells.push({
            part: part.id,
            suite: older.suite,
            case: older.case,
            size: older.size,
            browser,
            store,
            older: versionOf(doc, pair.older),
            newer: versionOf(doc, pair.newer),
            ratio,
          });
        }
      }
    }
  }
  return cells;
}

function distributionCells(study: Study, docs: readonly ResultsFile[]): DistributionCell[] {
  if (!study.distribution) return [];
  const cells: DistributionCell[] = [];
  for (const [browser, doc] of partDocs(study, study.distribution.part, docs)) {
    for (const row of doc.cases.filter(isOk)) {
      const xs = row.samples;
      cells.push({
        browser,
        adapter: row.adapter,
        size: row.size,
        n: xs.length,
        min: Math.min(...xs),
        p25: quantile(xs, 0.25),
        median: median(xs),
        p75: quantile(xs, 0.75),
        p95: quantile(xs, 0.95),
        max: Math.max(...xs),
      });
    }
  }
  return cells;
}

function growthCells(study: Study, docs: readonly ResultsFile[]): GrowthCell[] {
  if (!study.growth) return [];
  const k = study.growth.batches;
  const cells: GrowthCell[] = [];
  for (const [browser, doc] of partDocs(study, study.growth.part, docs)) {
    for (const row of doc.cases.filter(isOk)) {
      // Batches of every sample, in store-size order; each side takes up to k, never the same batch twice.
      const points = (row.series?.samples ?? []).flat().sort((a, b) => a[0] - b[0]);
      if (points.length < 2) continue;
      const take = Math.min(k, Math.floor(points.length / 2));
      const side = (ys: number[]): MedianWithCi => ({ median: median(ys), ci: medianCi(ys) });
      const first = side(points.slice(0, take).map((p) => p[1]));
      const last = side(points.slice(-take).map((p) => p[1]));
      cells.push({
        browser,
        adapter: row.adapter,
        batches: points.length,
        reached: points.at(-1)![0],
        first,
        last,
        ratio: ratioOfMedians(first, last),
      });
    }
  }
  return cells;
}

/**
 * The report of `study` from results documents. `failures`: the variants the study could not
 * build, each with the first line of why (src/cli/commands/study/build-page.ts), named in the findings that need them.
 */
export function studyReport(
  study: Study,
  docs: readonly ResultsFile[],
  failures: Readonly<Record<string, string>> = {},
): StudyReport {
  const mine = docs.filter((d) => d.run.plan.study?.startsWith(`${study.id}/`));
  const findings = study.findings.map((finding) => ({
    finding,
    cells: studyFindingCells(study, finding, mine, failures),
  }));
  const tally = Object.fromEntries(FINDING_VERDICTS.map((v) => [v, 0])) as Record<
    FindingVerdict,
    number
  >;
  for (const f of findings) {
    if (f.finding.notMeasurable) tally['not measurable']++;
    for (const c of f.cells) tally[c.verdict]++;
  }
  const browsers = [...new Set(mine.map((d) => d.run.browser))];
  return {
    study,
    browsers,
    environments: browsers.map((browser) => {
      const list = mine.filter((d) => d.run.browser === browser);
      const b = list[0]!.environment.browser;
      return {
        browser,
        name: b.name,
        version: b.version,
        os: list[0]!.environment.os,
        runIds: list.map((d) => d.run.id),
      };
    }),
    findings,
    references: study.references.map((reference) => ({
      reference,
      cells: referenceCells(study, reference, mine),
    })),
    versions: versionCells(study, mine),
    distribution: distributionCells(study, mine),
    growth: growthCells(study, mine),
    tally,
    documents: mine.length,
  };
}

/** A published figure in words: "8.04× (change in speed, ..., Chrome 34, IndexedDB)". */
export function formatPublished(p: PublishedFigure): string {
  return `${p.unit === 'ms' ? `${p.value.toLocaleString('en-US')} ms` : `${p.value}×`} (${p.where}; ${p.measuredIn})`;
}

/** What the claim asks of the ratio, in words. */
export function claimText(f: Finding): string {
  // The same case twice compares two stores or two sizes: say which.
  const size = (ref: RowRef) =>
    ref.size === 'largest'
      ? 'the largest size'
      : ref.size === 'next-largest'
        ? 'the next size down'
        : ref.size.toLocaleString('en-US');
  const name = (ref: RowRef) =>
    storePair(f)
      ? `${ref.adapter} ${ref.case}`
      : f.slower.case !== f.faster.case
        ? ref.case
        : `${ref.case} at ${size(ref)}`;
  const ratio = `${name(f.slower)} ÷ ${name(f.faster)}, per operation`;
  if (f.claim.kind === 'either') return `${ratio}, either way`;
  return f.claim.kind === 'faster'
    ? `${ratio} > 1`
    : `${ratio} within ${fmt(f.claim.value / f.claim.tolerance)} to ${fmt(f.claim.value * f.claim.tolerance)} (published ${fmt(f.claim.value)})`;
}
