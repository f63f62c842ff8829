/**
 * The results room (src/core/results/): results documents: reading and checking one, recomputing
 * what readers derive from its samples, building one from a run, merging several, and the inputs a
 * reader accepts. It imports the rooms below it (base to verdicts), nothing above.
 *
 * Reading a results file: its types (defined in schema/results-schema.ts, which also gives the
 * published results/schema.json), its JSON within the caps, and its check against that published
 * file and then the rules a schema cannot state. Bad input is refused with a message that says what
 * is wrong and where (a JSON path). Reading computes nothing: what readers derive from the samples
 * (statistics, the A/B summary, the findings) is recompute.ts's, so the file's types and check
 * depend on no verdict.
 */
import PUBLISHED from '../../../results/schema.json' with { type: 'json' };
import { canonicalJson } from '../base/canonical-json.ts';
import { textFault, valueFault } from '../schema/bounds.ts';
import { findFault, type Fault, type SchemaNode, type Says } from '../schema/check.ts';
import type { ResultsFile } from '../schema/results-schema.ts';
import { RESULTS_SCHEMA } from '../schema/vocabulary.ts';

export type {
  BrowserInfo,
  CaseResult,
  Environment,
  ResultsFile,
  RunInfo,
} from '../schema/results-schema.ts';

export {
  CASE_STATUSES,
  DB_MODES,
  RESULTS_SCHEMA,
  RESULTS_SCHEMA_ID,
  type CaseStatus,
  type StopReason,
} from '../schema/vocabulary.ts';
import { jsonWhere } from '../base/json-where.ts';

/** Results files larger than this are refused before parsing (a hostile or corrupt file). */
export const MAX_RESULTS_BYTES = 64 * 1024 * 1024;

export class ResultsError extends Error {
  override readonly name = 'ResultsError';
}

/**
 * The JSON of a results file, refused over the size cap, over a cap of schema/bounds.ts (checked on
 * the text, before JSON.parse builds a value of it), or when it is not JSON. `source` names the file in messages.
 */
export function parseResultsJson(text: string, source: string): unknown {
  if (text.length > MAX_RESULTS_BYTES) {
    throw new ResultsError(
      `${source}: ${text.length} bytes is larger than the ${MAX_RESULTS_BYTES}-byte limit for a results file`,
    );
  }
  const over = textFault(text);
  if (over) throw new ResultsError(`${source}: ${over.path}: ${over.what}`);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ResultsError(`${source}: not JSON ${jsonWhere(e, text)}`);
  }
}

/**
 * The published schema as the checker walks it: JSON's inferred type cannot hold a union of
 * objects with different fields (environment.placement), so it is read as nodes.
 */
const PUBLISHED_NODE = PUBLISHED as unknown as SchemaNode;

/** What readers recompute from an ok row's samples and so never read from a file. */
const DERIVED = ['stats', 'precision', 'noise', 'outliers'];
/**
 * What readers recompute of a whole document (recompute.ts): its A/B rows and its findings, whose
 * verdict words older files wrote otherwise (`unsure`, `too close to call`); never checked, so
 * those files still read.
 */
const DERIVED_IN_DOC = ['ab', 'findings'];

const CASES = PUBLISHED_NODE.properties?.cases as SchemaNode;
/** The published row variants: the ok row's, and the others'. */
const ROWS = (CASES.items as SchemaNode).anyOf ?? [];
const isOkRow = (row: SchemaNode) => row.properties?.status?.const === 'ok';

/** The published schema less DERIVED on ok rows: a file's claims about them are neither checked nor trusted. */
const AS_READ: SchemaNode = (() => {
  const lenient = (row: SchemaNode): SchemaNode =>
    isOkRow(row)
      ? {
          ...row,
          required: row.required?.filter((k) => !DERIVED.includes(k)),
          properties: Object.fromEntries(
            Object.entries(row.properties ?? {}).filter(([k]) => !DERIVED.includes(k)),
          ),
        }
      : row;
  const doc = PUBLISHED_NODE;
  const properties = Object.fromEntries(
    Object.entries(doc.properties ?? {}).filter(([k]) => !DERIVED_IN_DOC.includes(k)),
  );
  return {
    ...doc,
    required: doc.required?.filter((k) => !DERIVED_IN_DOC.includes(k)),
    properties: {
      ...properties,
      cases: { ...CASES, items: { ...(CASES.items as SchemaNode), anyOf: ROWS.map(lenient) } },
    },
  };
})();

/** The fields the schema refuses on rows that are not ok (`not: {}` there). */
const ONLY_OK = Object.entries(ROWS.find((row) => !isOkRow(row))?.properties ?? {}).flatMap(
  ([key, node]) => (node.not ? [key] : []),
);

/** The wording of faults a bare "expected a number" would leave unclear, by where they are. */
const says: Says = (path, value, row, got) => {
  const field = path.startsWith('$.cases[].') ? path.slice('$.cases[].'.length) : null;
  if (field === 'reason')
    return row.status === 'ok'
      ? `expected null for an ok case, got ${got}`
      : value === ''
        ? `a ${String(row.status)} case needs a reason`
        : undefined;
  if (field === 'samples' && Array.isArray(value) && value.length === 0)
    return 'an ok case needs at least one sample';
  if (field !== null && ONLY_OK.includes(field) && row.status !== 'ok')
    return `only an ok row has ${field}; this one is ${String(row.status)}`;
  if (field === 'series.samples[][]')
    return `expected an [x, y] pair, got ${Array.isArray(value) ? `${value.length} values` : got}`;
  return SAYS_AT[path]?.(got);
};

const SAYS_AT: Record<string, (got: string) => string> = {
  '$.schema': (got) =>
    `expected "${RESULTS_SCHEMA}", got ${got}; this reader understands only schema v1`,
  '$.run.plan.auto.targetRelCi': (got) =>
    `expected a fraction of the mean between 0 and 1, got ${got}`,
  '$.run.plan.study': (got) => `expected a study part such as pouchdb-2.2/paging, got ${got}`,
  '$.run.plan.cpuThrottle': (got) => `expected a rate of at least 1, got ${got}`,
};

/**
 * The document, checked: within the caps (before any work in proportion to its size), against the
 * schema, then the rules it cannot state; nothing recomputed (recompute.ts does that). For a
 * listing that only names what a file holds (results/index.json): recomputing every file's
 * statistics and findings takes seconds.
 */
export function checkedResults(data: unknown, source: string): ResultsFile {
  const over = valueFault(data);
  if (over) throw new ResultsError(`${source}: ${over.path}: ${over.what}`);
  const fault = findFault(AS_READ, data, says) ?? breaksARule(data as ResultsFile);
  if (fault) throw new ResultsError(`${source}: ${fault.path}: ${fault.what}`);
  return data as ResultsFile;
}

/** The rules a schema cannot state, on a document the schema accepted: the first one broken. */
function breaksARule(doc: ResultsFile): Fault | null {
  return (
    autoBounds(doc.run.plan.auto) ??
    shardInRange(doc.run.plan.shard) ??
    doc.cases.reduce<Fault | null>(
      (found, row, i) => found ?? perSampleLists(row, `$.cases[${i}]`),
      null,
    ) ??
    duplicateRow(doc)
  );
}

/** A row the document holds twice (suite, case, adapter, size and parameters): a reader would pool it with itself. */
function duplicateRow(doc: ResultsFile): Fault | null {
  const first = new Map<string, number>();
  for (let i = 0; i < doc.cases.length; i++) {
    const row = doc.cases[i] as ResultsFile['cases'][number];
    const key = JSON.stringify([
      row.suite,
      row.case,
      row.adapter,
      row.size,
      canonicalJson(row.params),
    ]);
    const seen = first.get(key);
    if (seen !== undefined)
      return {
        path: `$.cases[${i}]`,
        what: `the same suite, case, adapter, size and parameters as $.cases[${seen}]; a document holds each row once`,
      };
    first.set(key, i);
  }
  return null;
}

function autoBounds(auto: ResultsFile['run']['plan']['auto']): Fault | null {
  return auto && auto.maxN < auto.minN
    ? { path: '$.run.plan.auto.maxN', what: `is below minN ${auto.minN}` }
    : null;
}

function shardInRange(shard: ResultsFile['run']['plan']['shard']): Fault | null {
  return shard && shard.index > shard.count
    ? {
        path: '$.run.plan.shard.index',
        what: `is ${shard.index}, beyond the shard count ${shard.count}`,
      }
    : null;
}

/** What goes with each timed sample has one entry per sample, so it lines up with the sample it was taken in. */
function perSampleLists(row: ResultsFile['cases'][number], p: string): Fault | null {
  const n = row.samples.length;
  for (const [name, values] of Object.entries(row.metrics ?? {})) {
    if (values.length !== n)
      return {
        path: `${p}.metrics.${name}`,
        what: `has ${values.length} values but there are ${n} samples`,
      };
  }
  if (row.notes && row.notes.length !== n)
    return { path: `${p}.notes`, what: `has ${row.notes.length} notes but there are ${n} samples` };
  if (row.samplesPerPass) {
    let sum = 0;
    for (const count of row.samplesPerPass) sum += count;
    if (sum !== n)
      return { path: `${p}.samplesPerPass`, what: `adds up to ${sum} but there are ${n} samples` };
  }
  return null;
}
