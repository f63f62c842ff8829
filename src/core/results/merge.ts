/**
 * Merging results: shard files of one plan, and files of the same plan from other machines and
 * browsers, into one results set. Pure: documents in, documents and notes out.
 *
 * A results set is a JSON array of results documents (`storebench/results@1`), each unchanged:
 * every row keeps the environment it was measured in, which one combined document could not
 * say. Every reader that takes a results file takes a set too (src/core/results/input.ts), and
 * the CSV exporter writes one row per case of every document.
 *
 * Merging refuses what does not belong in one set: documents of another schema version,
 * documents of another plan (shards of one plan differ only in `plan.shard`), and two documents
 * that measured the same row of the same browser on the same machine. The same document given
 * twice is kept once.
 */
import { canonicalJson } from '../base/canonical-json.ts';
import { RESULTS_SCHEMA, ResultsError, type ResultsFile } from './results.ts';
import { PARTIAL_SCHEMA } from '../schema/vocabulary.ts';
import { validateResultsInput } from './input.ts';
import { formatShard } from '../plan/shard.ts';
import type { Plan } from '../plan/plan.ts';

export class MergeError extends Error {
  override readonly name = 'MergeError';
}

/** One input file: its name for messages, and its parsed JSON (a document or an array of them). */
export interface MergeInput {
  source: string;
  data: unknown;
}

export interface MergeOutcome {
  documents: ResultsFile[];
  /** What the merge did and what the set lacks (skipped files, missing shards, mixed commits). */
  notes: string[];
}

interface Doc {
  source: string;
  doc: ResultsFile;
}

export function mergeResults(inputs: readonly MergeInput[]): MergeOutcome {
  if (inputs.length === 0)
    throw new MergeError('no files to merge; give one or more results files');
  const notes: string[] = [];
  const raw = withoutPartials(inputs, notes);
  checkOneSchema(raw);
  const docs = validated(raw);
  checkOnePlan(docs);
  const kept = withoutTwins(docs, notes);
  checkRowsOnce(kept);
  const ordered = [...kept].sort(
    (a, b) =>
      a.doc.run.browser.localeCompare(b.doc.run.browser) ||
      (a.doc.run.plan.shard?.index ?? 0) - (b.doc.run.plan.shard?.index ?? 0) ||
      a.doc.run.startedAt.localeCompare(b.doc.run.startedAt),
  );
  notes.push(...coverageNotes(ordered), ...commitNotes(ordered));
  return { documents: ordered.map((d) => d.doc), notes };
}

/** The inputs less a sweep's partial files, each skipped with a note. */
function withoutPartials(inputs: readonly MergeInput[], notes: string[]): MergeInput[] {
  return inputs.filter((input) => {
    if (schemaOf(input.data) !== PARTIAL_SCHEMA) return true;
    notes.push(
      `skipped ${input.source}: rows of a browser run that did not finish (${PARTIAL_SCHEMA}), not a results document`,
    );
    return false;
  });
}

/**
 * Schema versions first, by the field alone: a newer document would fail validation with a
 * message about some other field, which hides the real reason.
 */
function checkOneSchema(raw: readonly MergeInput[]): void {
  const schemas = new Map<string, string[]>();
  for (const { source, data } of raw) {
    for (const schema of Array.isArray(data) ? data.map(schemaOf) : [schemaOf(data)]) {
      const key = schema ?? '(no schema field)';
      const files = schemas.get(key) ?? [];
      if (!files.includes(source)) files.push(source);
      schemas.set(key, files);
    }
  }
  if (schemas.size > 1) {
    const list = [...schemas]
      .map(([schema, files]) => `${schema} in ${files.join(', ')}`)
      .join('; ');
    throw new MergeError(
      `the files are of different schema versions (${list}); a results set holds one version, and this build reads ${RESULTS_SCHEMA}`,
    );
  }
  const only = [...schemas.keys()][0];
  if (only !== undefined && only !== RESULTS_SCHEMA) {
    throw new MergeError(
      `${[...schemas.values()].flat().join(', ')}: schema ${only}; this build reads and merges only ${RESULTS_SCHEMA}`,
    );
  }
}

/** Every document of every input, validated, named by its file (and its place in a set). */
function validated(raw: readonly MergeInput[]): Doc[] {
  const docs: Doc[] = [];
  for (const { source, data } of raw) {
    let parsed: ResultsFile[];
    try {
      parsed = validateResultsInput(data, source);
    } catch (e) {
      if (e instanceof ResultsError) throw new MergeError(e.message);
      throw e;
    }
    parsed.forEach((doc, i) =>
      docs.push({ source: parsed.length === 1 ? source : `${source} [document ${i}]`, doc }),
    );
  }
  if (docs.length === 0)
    throw new MergeError('no results documents to merge; every file was skipped');
  return docs;
}

/** One plan: shards of it differ only in `shard`. */
function checkOnePlan(docs: readonly Doc[]): void {
  const first = docs[0] as Doc;
  const firstPlan = planKey(first.doc.run.plan);
  for (const d of docs.slice(1)) {
    if (planKey(d.doc.run.plan) !== firstPlan) {
      throw new MergeError(
        `${first.source} and ${d.source} come from different plans (${planDifference(first.doc.run.plan, d.doc.run.plan, first.source, d.source)}); ` +
          'a results set holds the shards and browsers of one plan: run every machine and shard with the same flags',
      );
    }
  }
}

/** The same document twice (a file given twice, or a set that already holds it) is kept once. */
function withoutTwins(docs: readonly Doc[], notes: string[]): Doc[] {
  const kept: Doc[] = [];
  for (const d of docs) {
    const twin = kept.find((k) => sameDocument(k.doc, d.doc));
    if (twin)
      notes.push(`skipped ${d.source}: the same run as ${twin.source} (${describeDoc(d.doc)})`);
    else kept.push(d);
  }
  return kept;
}

/** No row twice for one browser on one machine: which of the two would a reader believe? */
function checkRowsOnce(kept: readonly Doc[]): void {
  const seen = new Map<string, Doc>();
  for (const d of kept) {
    for (const row of d.doc.cases) {
      const key = [machineKey(d.doc), row.suite, row.case, row.adapter, row.size].join('\u0000');
      const other = seen.get(key);
      if (other && other !== d) {
        throw new MergeError(
          `${other.source} and ${d.source} both hold ${d.doc.run.browser}'s row ${row.suite}/${row.case} ${row.adapter} size ${row.size} from the same machine (${describeDoc(other.doc)}; ${describeDoc(d.doc)}); ` +
            'a results set holds each row of a browser once: leave one of them out, or rerun the one that is wrong',
        );
      }
      seen.set(key, d);
    }
  }
}

function schemaOf(data: unknown): string | undefined {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
  const schema = (data as { schema?: unknown }).schema;
  return typeof schema === 'string' ? schema : undefined;
}

/** The plan without its shard, as canonical JSON (keys sorted), so field order never matters. */
function planKey(plan: Plan): string {
  const { shard: _shard, ...rest } = plan;
  return canonicalJson(rest);
}

/** Which plan fields differ, with both values, e.g. `sizes: 100,1000 in a.json, 100 in b.json`. */
function planDifference(a: Plan, b: Plan, aSource: string, bSource: string): string {
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => k !== 'shard')
    .sort();
  const show = (v: unknown) =>
    v === undefined
      ? 'absent'
      : Array.isArray(v)
        ? v.join(',')
        : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
          ? String(v)
          : canonicalJson(v);
  const diffs = fields
    .filter(
      (k) =>
        canonicalJson((a as unknown as Record<string, unknown>)[k]) !==
        canonicalJson((b as unknown as Record<string, unknown>)[k]),
    )
    .map(
      (k) =>
        `${k}: ${show((a as unknown as Record<string, unknown>)[k])} in ${aSource}, ${show((b as unknown as Record<string, unknown>)[k])} in ${bSource}`,
    );
  return diffs.join('; ');
}

function sameDocument(a: ResultsFile, b: ResultsFile): boolean {
  return (
    a.run.id === b.run.id &&
    a.run.browser === b.run.browser &&
    a.run.startedAt === b.run.startedAt &&
    shardText(a) === shardText(b)
  );
}

/** One browser on one machine, as far as a document can tell. */
function machineKey(doc: ResultsFile): string {
  return [
    doc.run.browser,
    doc.environment.userAgent,
    doc.environment.os,
    doc.environment.cores ?? '',
  ].join('\u0000');
}

function shardText(doc: ResultsFile): string {
  return doc.run.plan.shard ? formatShard(doc.run.plan.shard) : 'whole plan';
}

function describeDoc(doc: ResultsFile): string {
  return `run ${doc.run.id}, ${doc.run.browser}, ${shardText(doc)}`;
}

/** For each browser, the shards present and missing: a set short of a shard lacks its rows. */
function coverageNotes(docs: readonly Doc[]): string[] {
  const notes: string[] = [];
  const browsers = [...new Set(docs.map((d) => d.doc.run.browser))].sort();
  for (const browser of browsers) {
    const mine = docs.filter((d) => d.doc.run.browser === browser);
    const counts = [...new Set(mine.map((d) => d.doc.run.plan.shard?.count ?? 1))];
    const rows = mine.reduce((n, d) => n + d.doc.cases.length, 0);
    const shards = mine.map((d) => shardText(d.doc));
    let line = `${browser}: ${mine.length} document${mine.length === 1 ? '' : 's'} (${shards.join(', ')}), ${rows} row${rows === 1 ? '' : 's'}`;
    if (counts.length === 1 && (counts[0] as number) > 1) {
      const count = counts[0] as number;
      const have = new Set(mine.map((d) => d.doc.run.plan.shard?.index));
      const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !have.has(i));
      if (missing.length > 0)
        line += `; MISSING shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')}: their rows are not in the set`;
    } else if (counts.length > 1) {
      line += '; the plan was split in different ways on different runs, so the set may lack rows';
    }
    notes.push(line);
  }
  return notes;
}

/** Different harness commits measure with different code; worth knowing, not a reason to refuse. */
function commitNotes(docs: readonly Doc[]): string[] {
  const commits = [...new Set(docs.map((d) => d.doc.harness.commit))];
  return commits.length > 1
    ? [
        `note: the documents come from different harness commits (${commits.join(', ')}); suites or stores may have changed between them`,
      ]
    : [];
}
