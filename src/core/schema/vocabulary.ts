/**
 * The words a results file is written in: its schema id, the statuses of a row and why a row
 * stopped sampling. Values, kept apart from the schema's definition (results-schema.ts) so that a
 * reader takes them without the library the definition is written with.
 */
import type { DbMode } from '../base/identity.ts';

export const RESULTS_SCHEMA = 'storebench/results@1';
/** Written by the sweep next to results: rows of a browser run that did not finish, not a results document. */
export const PARTIAL_SCHEMA = 'storebench/partial@1';
/** The `$id` of the published JSON Schema of results files (results/schema.json). */
export const RESULTS_SCHEMA_ID = 'urn:storebench:results@1';

const STATUSES = ['ok', 'unsupported', 'error', 'timeout'] as const;
export type CaseStatus = (typeof STATUSES)[number];
export const CASE_STATUSES: readonly CaseStatus[] = STATUSES;

export const DB_MODES: readonly DbMode[] = ['fresh', 'shared'];

/** Why a row stopped taking samples; the schema's `stopped` says what each means. */
const STOPS = [
  'iterations',
  'ci-target',
  'decided',
  'time-cap',
  'budget',
  'cancelled',
  'share',
  'settled',
] as const;
export type StopReason = (typeof STOPS)[number];
export const STOP_REASONS: readonly StopReason[] = STOPS;

/**
 * A finding's verdict in one browser and store (core/verdicts/findings.ts says how each is
 * reached): a claim `holds`, is `reversed` or `differs` from its value; two stores compared
 * without a claim read `slower`, `faster` or `same`; `same` also for a claim whose sides are within
 * the margin; `undecided` has no interval, or one that reaches across a bound; `missing` names a
 * row that is absent or not ok; `not measurable` is a study's own declaration.
 */
const FINDING_VERDICT_WORDS = [
  'holds',
  'reversed',
  'differs',
  'slower',
  'faster',
  'same',
  'undecided',
  'missing',
  'not measurable',
] as const;
export type FindingVerdict = (typeof FINDING_VERDICT_WORDS)[number];
export const FINDING_VERDICTS: readonly FindingVerdict[] = FINDING_VERDICT_WORDS;

/**
 * A change's verdict: B against A in one run (--ab), a new run against a base (compare), a
 * series' newest change (history). core/verdicts/change.ts says how each is reached: `slower`
 * fails the gate, `faster` and `same` are decided, `undecided` is neither, with the slowdown the
 * run could have caught.
 */
const CHANGE_VERDICT_WORDS = ['slower', 'faster', 'same', 'undecided'] as const;
export type ChangeVerdict = (typeof CHANGE_VERDICT_WORDS)[number];
export const CHANGE_VERDICTS: readonly ChangeVerdict[] = CHANGE_VERDICT_WORDS;

/**
 * The words files written before one vocabulary used for "not decided" (and `compare`'s
 * `regression` for slower beyond the threshold), and the word each now reads as.
 */
export const LEGACY_VERDICT_WORDS = {
  'too close to call': 'undecided',
  unsure: 'undecided',
  inconclusive: 'undecided',
  regression: 'slower',
} as const satisfies Record<string, FindingVerdict | ChangeVerdict>;
