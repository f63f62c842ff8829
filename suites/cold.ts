import type { Doc, Scalar, StoreHandle } from '../src/core/store/adapter.ts';
import type { Capability } from '../src/core/store/capabilities.ts';
import {
  assertMethods,
  type Guaranteed,
  type HandleFor,
} from '../src/core/store/capability-methods.ts';
import type { CaseIdentity } from '../src/core/base/identity.ts';
import type { CaseResult } from '../src/core/results/results.ts';
import { measuredRow, type CaseRequest, type DrivenSuite } from '../src/core/run/driver-cases.ts';
import { defineCase, type BenchCase, type Suite } from '../src/core/store/suite.ts';
import { writeAll } from './prefill.ts';

/**
 * cold: the same read in three states of the browser. `warm`: in the tab that just wrote the
 * data. `reload`: after the page is reloaded. `restart`: after the browser is closed and started
 * again on the same profile. Each sample opens the store and does the read once; its time is
 * both together (the first answer a user waits for), with the open and the read recorded apart.
 *
 * Driven (src/core/run/driver-cases.ts): the sweep's Playwright driver fills a fresh database in the page,
 * then reads it warm, reloads and reads, restarts and reads, so one sample of each state comes
 * from the same database. The page does the work (`coldSteps`: fill, then read).
 */
export const COLD_OPS = ['get', 'page', 'view', 'find'] as const;
export type ColdOp = (typeof COLD_OPS)[number];
export const COLD_STATES = ['warm', 'reload', 'restart'] as const;
export type ColdState = (typeof COLD_STATES)[number];

const NEEDS = {
  get: [],
  page: ['keyRange'],
  view: ['mapReduce'],
  find: ['query', 'secondaryIndex'],
} as const satisfies Record<ColdOp, readonly Capability[]>;

/** A handle with the methods that `op` reads with. */
type ColdHandle<Op extends ColdOp> = HandleFor<Guaranteed<(typeof NEEDS)[Op]>>;

const WHAT: Record<ColdOp, string> = {
  get: 'get one document by id',
  page: 'read a page of 10 in _id order',
  view: 'query a persisted view by key',
  find: 'an indexed equality query',
};

const STATE_TEXT: Record<ColdState, string> = {
  warm: 'in the tab that wrote the data',
  reload: 'after a page reload',
  restart: 'after a browser restart',
};

const VIEW = 'cold_by_field';

/** A cold case's id, as `get-restart`. */
export const coldCaseId = (op: ColdOp, state: ColdState): string => `${op}-${state}`;

/** The op and state of a cold case's id, or null when it is not one. */
export function coldCaseOf(caseId: string): { op: ColdOp; state: ColdState } | null {
  for (const op of COLD_OPS)
    for (const state of COLD_STATES) if (coldCaseId(op, state) === caseId) return { op, state };
  return null;
}

function coldCase(op: ColdOp, state: ColdState): BenchCase {
  return defineCase({
    id: coldCaseId(op, state),
    title: `open, then ${WHAT[op]}, ${STATE_TEXT[state]}`,
    needs: NEEDS[op],
    params: { op, state },
    driven:
      'reload the page and restart the browser on the same profile between writing the data and reading it',
    supports: (adapter) =>
      adapter.backend === 'memory'
        ? `${adapter.id} keeps nothing across a reload or a restart`
        : true,
    operations: () => 1,
    run: () =>
      Promise.reject(new Error('the cold suite is run by the sweep driver, not in the page')),
  });
}

/** The op a cold row measures, from its params. */
export function coldOpOf(params: Readonly<Record<string, unknown>>): {
  op: ColdOp;
  state: ColdState;
} {
  const { op, state } = params;
  if (!COLD_OPS.includes(op as ColdOp) || !COLD_STATES.includes(state as ColdState))
    throw new RangeError(`not the params of a cold case: ${JSON.stringify(params)}`);
  return { op: op as ColdOp, state: state as ColdState };
}

/** What the read looks for: the middle document, and its value of the first indexed field. */
function target(docs: readonly Doc[], field: string): { id: string; value: Scalar } {
  const doc = docs[Math.floor(docs.length / 2)]!;
  return { id: doc._id, value: doc[field] as Scalar };
}

/** Per op, a step on a handle with that op's methods (a table, so each op's handle type follows it). */
type PerOp<Step> = {
  [Op in ColdOp]: (
    handle: ColdHandle<Op>,
    target: { id: string; value: Scalar },
    field: string,
  ) => Promise<Step>;
};

/** What each read uses, built before it: the view's index, the secondary index. */
const BUILD: PerOp<void> = {
  get: async () => {},
  page: async () => {},
  async view(handle, { value }, field) {
    await handle.createView(VIEW, field);
    await handle.queryView(VIEW, { key: value, limit: 1 });
  },
  async find(handle, { value }, field) {
    await handle.createIndex([field]);
    await handle.find({ where: [{ field, eq: value }], limit: 1 });
  },
};

const READ: PerOp<unknown[]> = {
  get: async (handle, { id }) => [await handle.get(id)].filter(Boolean),
  page: (handle, { id }) => handle.range({ gte: id, limit: 10 }),
  view: (handle, { value }) => handle.queryView(VIEW, { key: value }),
  find: (handle, { value }, field) => handle.find({ where: [{ field, eq: value }] }),
};

/** The two steps of a cold sample that run in the page, on one store's handle. */
export interface ColdStoreSteps {
  /** Fill the store and build what the read uses (the view's index, the secondary index), untimed. */
  fill(docs: readonly Doc[]): Promise<void>;
  /** The read itself; throws when it finds nothing, so a store that lost its data cannot look fast. */
  read(docs: readonly Doc[]): Promise<void>;
}

/**
 * The steps of `op` over `field` on `handle`, which is checked here to have the methods `op`
 * uses (`store` is its adapter's id): call it before the clock starts. The handle and the op go
 * in together, so no read can run on a handle checked for another op.
 */
export function coldSteps<Op extends ColdOp>(
  handle: StoreHandle,
  op: Op,
  field: string,
  store: string,
): ColdStoreSteps {
  // The type argument is spelled out so that the narrowed type is ColdHandle<Op> itself.
  assertMethods<(typeof NEEDS)[Op]>(handle, NEEDS[op], store);
  return {
    async fill(docs) {
      await writeAll(handle, docs);
      await BUILD[op](handle, target(docs, field), field);
    },
    async read(docs) {
      const { id, value } = target(docs, field);
      const found = await READ[op](handle, { id, value }, field);
      if (found.length === 0)
        throw new Error(
          `${WHAT[op]} found nothing after ${op === 'get' ? id : `${field} = ${JSON.stringify(value)}`}`,
        );
    },
  };
}

/** One cold read as the page measured it. */
export interface ColdSample {
  openMs: number;
  readMs: number;
}

/** The page's steps of the cold suite (window.__storebenchTrials.cold, suites/driven.ts). */
export interface ColdSteps {
  /** Fill a fresh database (coldSteps' fill); then close it. */
  fill(request: CaseRequest): Promise<'filled'>;
  /** Open the database, do coldSteps' read, close it: the two times in ms. */
  read(request: CaseRequest): Promise<ColdSample>;
}

/** The row of a cold case: a sample per read, open plus read, with each recorded apart. */
export function coldRow(identity: CaseIdentity, samples: readonly ColdSample[]): CaseResult {
  const times = samples.map((s) => s.openMs + s.readMs);
  return measuredRow(identity, times, {
    metrics: { openMs: samples.map((s) => s.openMs), readMs: samples.map((s) => s.readMs) },
  });
}

export const coldSuite: Suite<'cold'> = {
  id: 'cold',
  title: 'Cold start',
  description:
    'Open the store and do one read (get by id, a page of allDocs, a persisted-view query, an indexed find) in the tab that wrote the data, after a page reload, and after a browser restart on the same profile. Driven by the sweep (Chromium, Firefox).',
  params: {
    restarts: {
      kind: 'int',
      default: 6,
      min: 1,
      sampling: true,
      help: 'samples per row: each fills a fresh store, then reads it warm, after a reload and after a restart',
    },
  },
  cases: () => COLD_OPS.flatMap((op) => COLD_STATES.map((state) => coldCase(op, state))),
};

export const coldDriven: DrivenSuite<'cold'> = {
  suite: coldSuite,
  // The time is the finding: open plus read, with each recorded apart.
  finding: null,
  timedSection: true,
};
