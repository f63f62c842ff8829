/**
 * The adapter contract's verdict on one report (report.ts): every check the contract makes of a
 * store, each failure with what was expected and what came back. Pure, so the contract test and
 * `storebench check` judge a store by the one definition. The checks, in order: a store that
 * cannot run here refuses to open; each declared capability has its methods and no method goes
 * undeclared; every answer equals the memory store's given the same operations; anchors that hold
 * whatever the reference says; destroy really deletes; queries, durability and the Worker, each
 * only where the store declares the capability.
 */
import { fixtureShape, makeDocs } from '../../../../fixtures/index.ts';
import type { Capability } from '../capabilities.ts';
import { CAPABILITY_METHODS } from '../capability-methods.ts';
import type {
  ContractFailure,
  ContractReport,
  Footprint,
  QueryReport,
  Step,
  SupportedReport,
} from './report.ts';
import { sameValue, showDifference } from './values.ts';

/** The handle methods each capability promises; `skip` is a native skip of `range`, so it needs `range` too. */
const METHODS: Readonly<Record<Capability, readonly string[]>> = {
  ...CAPABILITY_METHODS,
  skip: ['range'],
};

/** Optional methods that must not exist without their capability (a runner would never call them). */
const GATED: Readonly<Record<string, Capability>> = {
  bulkPut: 'bulkWrite',
  getMany: 'getMany',
  range: 'keyRange',
  update: 'update',
  bulkUpdate: 'bulkUpdate',
  remove: 'remove',
  bulkRemove: 'bulkRemove',
};

/** Where a store of each backend puts its data, for "it stores its data there". */
const STORED_IN: Partial<Record<string, keyof Footprint>> = {
  indexeddb: 'idb',
  localstorage: 'localStorage',
  memory: 'memory',
};

/** The documents the transcript writes: `get each` must return exactly these. */
export const CONTRACT_DOCS = { shape: 'person', seed: 42, count: 50 } as const;

class Failures {
  readonly list: ContractFailure[] = [];
  /** Expect `actual` to equal `expected`; the values are shown in words when not. */
  equal(contract: string, check: string, actual: unknown, expected: unknown): void {
    if (sameValue(actual, expected)) return;
    const [e, a] = showDifference(expected, actual);
    this.list.push({ contract, check, expected: e, actual: a });
  }
  /** Expect a condition; `expected` and `actual` say it in words. */
  hold(contract: string, check: string, ok: boolean, expected: string, actual: string): void {
    if (!ok) this.list.push({ contract, check, expected, actual });
  }
}

/** Every failed check of the report; none when the store keeps the contract. */
export function contractFailures(report: ContractReport): ContractFailure[] {
  const f = new Failures();
  if (report.supported !== true) {
    f.hold(
      'supported',
      'open() of a store that says it cannot run here',
      report.openWhenUnsupported === 'rejected',
      'rejected',
      report.openWhenUnsupported,
    );
    return f.list;
  }
  checkMethods(f, report);
  checkSteps(f, 'transcript', report.reference, report.steps);
  checkAnchors(f, report);
  checkDeletes(f, report);
  if (report.capabilities.includes('query')) checkQueries(f, report);
  if (report.capabilities.includes('durability')) checkDurability(f, report);
  if (report.capabilities.includes('worker'))
    f.equal('worker', 'put, count and get in a dedicated Worker', report.worker, {
      ok: true,
      count: 2,
      doc: { _id: 'b', n: 2 },
    });
  return f.list;
}

function checkMethods(f: Failures, r: SupportedReport): void {
  for (const c of r.capabilities)
    for (const m of METHODS[c] ?? [])
      f.hold('capabilities', `declares ${c}`, r.methods.includes(m), `a ${m}() method`, 'none');
  for (const m of r.methods) {
    const needs = GATED[m];
    if (needs)
      f.hold(
        'capabilities',
        `has ${m}()`,
        r.capabilities.includes(needs),
        `${needs} declared`,
        `not declared (capabilities: ${r.capabilities.join(', ') || 'none'})`,
      );
  }
}

/** The same steps as the memory store's, and the same answer at every step. */
function checkSteps(f: Failures, what: string, reference: Step[], steps: Step[]): void {
  const names = (list: Step[]) => list.map((s) => s.name);
  if (!sameValue(names(steps), names(reference))) {
    f.equal(what, 'the steps taken', names(steps), names(reference));
    return;
  }
  steps.forEach((s, i) => f.equal(s.contract, s.name, s.value, reference[i]?.value));
}

/** Anchors that do not depend on the reference being right. */
function checkAnchors(f: Failures, r: SupportedReport): void {
  const step = (name: string) => r.steps.find((s) => s.name === name)?.value;
  const docs = makeDocs(fixtureShape(CONTRACT_DOCS.shape), CONTRACT_DOCS.seed, CONTRACT_DOCS.count);
  f.equal('count', 'count after 50 puts', step('count after 50'), 50);
  f.equal('get', 'get returns exactly what was put', step('get each'), docs);
  f.equal('get', 'get of a missing id', step('get missing'), undefined);
  f.equal('close', 'get after close', step('get after close'), 'rejected');
  f.equal('count', 'count after reopen', step('count after reopen'), step('count before close'));
  f.equal(
    'close',
    'all documents after reopen',
    step('all documents after reopen'),
    step('all documents before close'),
  );
  f.equal('count', 'count after destroy and reopen', step('count after destroy and reopen'), 0);
  f.equal(
    'destroy',
    'get after destroy and reopen',
    step('get after destroy and reopen'),
    undefined,
  );
}

/** What `later` holds that `earlier` did not, per kind of storage. */
function added(later: Footprint, earlier: Footprint): Footprint {
  const diff = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));
  return {
    idb: diff(later.idb, earlier.idb),
    localStorage: diff(later.localStorage, earlier.localStorage),
    memory: diff(later.memory, earlier.memory),
  };
}

const NOTHING: Footprint = { idb: [], localStorage: [], memory: [] };

/** destroy really deletes: whatever the store created is gone afterwards, however it is deleted. */
function checkDeletes(f: Failures, r: SupportedReport): void {
  const where = STORED_IN[r.backend];
  if (where)
    f.hold(
      'backend',
      `stores its data in ${r.backend}`,
      added(r.filled, r.before)[where].length > 0,
      `something new in ${where}`,
      'nothing new there',
    );
  const left = (check: string, after: Footprint) =>
    f.equal('destroy', check, added(after, r.before), NOTHING);
  left('left after handle.destroy()', r.afterDestroy);
  left('left after the transcript', r.afterSecondDestroy);
  left('left after adapter.destroy(name)', r.byNameClosed.footprint);
  left('left after adapter.destroy(name) with a handle open', r.byNameOpen.footprint);
  left('left after the Worker', r.afterWorker);
  // Counts are a count's answer, whatever they follow: a count off by one is one failed contract.
  f.equal('count', 'count after destroy(name), reopened', r.byNameClosed.countWhenReopened, 0);
  f.equal(
    'count',
    'count after destroy(name) with a handle open, reopened',
    r.byNameOpen.countWhenReopened,
    0,
  );
}

/**
 * Queries: the same answers as the memory store and as applyFind over the documents, with and
 * without indexes, and no index or view shows up as a document.
 */
function checkQueries(f: Failures, r: SupportedReport): void {
  const q = r.queries;
  if (!q) {
    f.hold('find', 'the query transcript', false, 'a transcript', 'none');
    return;
  }
  checkSteps(f, 'queries', q.reference, q.steps);
  const phases = new Set<string>();
  for (const s of q.steps) {
    const [phase, kind, n] = s.name.split(' | ');
    phases.add(phase as string);
    if (phase === 'after changes' || phase === 'after reopening') continue;
    checkQueryStep(f, q, s, kind, Number(n));
  }
  if (r.capabilities.includes('secondaryIndex'))
    f.equal('createIndex', 'queried with and without indexes (phases)', phases.size, 5);
  f.hold(
    'find',
    'some query finds documents',
    q.expected.find.some((docs) => docs.length > 0),
    'some',
    'none',
  );
  for (const v of q.views ?? []) f.equal('queryView', v.name, v.actual, v.expected);
  if (r.capabilities.includes('mapReduce'))
    f.hold(
      'queryView',
      'views checked',
      (q.views?.length ?? 0) > 40,
      'more than 40',
      String(q.views?.length ?? 0),
    );
  f.equal('destroy', 'left after the query stores', added(q.left, r.before), NOTHING);
}

function checkQueryStep(
  f: Failures,
  q: QueryReport,
  s: Step,
  kind: string | undefined,
  n: number,
): void {
  if (kind === 'find') f.equal('find', `${s.name} equals applyFind`, s.value, q.expected.find[n]);
  if (kind === 'count')
    f.equal('countWhere', `${s.name} equals countMatches`, s.value, q.expected.count[n]);
  if (kind === 'count()') f.equal('count', s.name, s.value, q.docCount);
  if (kind === 'range {}') f.equal('range', s.name, s.value, q.ids);
}

function checkDurability(f: Failures, r: SupportedReport): void {
  const seen = r.durability;
  for (const level of ['relaxed', 'strict', 'default'] as const) {
    const list = seen?.[level] ?? [];
    f.hold(
      'durability',
      `${level}: readwrite transactions seen`,
      list.length > 0,
      'at least one',
      'none',
    );
    for (const d of list)
      f.hold('durability', `a transaction opened with durability ${level}`, d === level, level, d);
  }
}

/** The failures of each contract, first one first: for one line per failed contract. */
export function byContract(failures: readonly ContractFailure[]): ContractFailure[][] {
  const groups = new Map<string, ContractFailure[]>();
  for (const x of failures) groups.set(x.contract, [...(groups.get(x.contract) ?? []), x]);
  return [...groups.values()];
}
