/**
 * What names a case and its row, shared by the plan, the suites and the results: kept below all
 * three, so that none of them imports another for it.
 */

/** Parameter values a suite can take from the plan (e.g. chunk sizes, page size, K). */
export type ParamValue = number | string | readonly number[];

/** `fresh`: a new database for each sample; `shared`: one filled once for all of a row's samples. */
export type DbMode = 'fresh' | 'shared';

/** What names a row, whatever its status: the case, the store, the size and what they depend on. */
export interface CaseIdentity {
  suite: string;
  case: string;
  title: string;
  adapter: string;
  size: number;
  params: Record<string, ParamValue>;
  /** Operations one sample covers: per-operation time is sample / operations. */
  operations: number;
}
