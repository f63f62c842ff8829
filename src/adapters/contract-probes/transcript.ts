/**
 * The adapter contract's main transcript: the same operations on any store, in the page, each
 * answer recorded with the contract (method) it checks. The store under test and the memory
 * store both run it with the tested store's capabilities, and every answer must agree
 * (src/core/store/contract/verdict.ts).
 */
import { fixtureShape, makeDocs } from '../../../fixtures/index.ts';
import type { Doc, KeyRange, StoreAdapter, StoreHandle } from '../../core/store/adapter.ts';
import type { Step } from '../../core/store/contract/report.ts';
import { CONTRACT_DOCS } from '../../core/store/contract/verdict.ts';

/** Hooks into the transcript of the store under test: its storage with the data in, and after destroy. */
export interface Look {
  filled(): Promise<void>;
  destroyed(): Promise<void>;
}

/** A database name of this run alone. */
export function uniqueName(id: string, tag: string): string {
  return `contract-${id}-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

/** 'resolved' or 'rejected': whether a call failed is the answer, not its message. */
export function settle(p: Promise<unknown>): Promise<string> {
  return p.then(
    () => 'resolved',
    () => 'rejected',
  );
}

/** What a transcript's parts share. */
interface Run {
  h: StoreHandle;
  has: (c: string) => boolean;
  docs: Doc[];
  at: (i: number) => string;
  note: (contract: string, name: string, value: unknown) => void;
}

export async function transcript(
  store: StoreAdapter,
  caps: readonly string[],
  look?: Look,
): Promise<Step[]> {
  const steps: Step[] = [];
  const docs = makeDocs(fixtureShape(CONTRACT_DOCS.shape), CONTRACT_DOCS.seed, CONTRACT_DOCS.count);
  const ids = docs.map((d) => d._id);
  const name = uniqueName(store.id, 'transcript');
  const run: Run = {
    h: await store.open(name),
    has: (c) => caps.includes(c),
    docs,
    at: (i) => ids[i] as string,
    note: (contract, step, value) => {
      steps.push({ contract, name: step, value });
    },
  };
  await writes(run);
  await ranges(run, 'range', firstRanges(run.at));
  await updates(run);
  await removes(run);
  await ranges(run, 'range after changes', laterRanges(run.at));
  await reopenAndDestroy(run, store, name, look);
  return steps;
}

async function writes(r: Run): Promise<void> {
  const { h, note, at, docs } = r;
  note('count', 'count, empty', await h.count());
  note('get', 'get, empty', await h.get(at(0)));
  for (const d of docs.slice(0, 10)) await h.put(d);
  note('count', 'count after 10 puts', await h.count());
  const rest = docs.slice(10);
  if (r.has('bulkWrite')) await h.bulkPut!(rest);
  else for (const d of rest) await h.put(d);
  note('count', 'count after 50', await h.count());
  note('get', 'get each', await Promise.all(docs.map((d) => h.get(d._id))));
  note('get', 'get missing', await h.get('doc-missing'));
  note(
    'put',
    'inputs left as given',
    docs.every((d) => Object.keys(d).every((k) => !k.startsWith('_') || k === '_id')),
  );
  if (r.has('getMany')) {
    note('getMany', 'getMany', await h.getMany!([at(3), 'doc-missing', at(40), at(3), at(49)]));
    note('getMany', 'getMany, no ids', await h.getMany!([]));
  }
}

function firstRanges(at: (i: number) => string): KeyRange[] {
  return [
    {},
    { gte: at(10), lte: at(20) },
    { gte: at(10), lte: at(20), descending: true },
    { gte: at(5), limit: 7 },
    { lte: at(30), skip: 3, limit: 4, descending: true },
    { gte: at(45), descending: true },
    { lte: at(2), descending: true },
    { skip: 45 },
    { skip: 60 },
    { skip: 48, limit: 10, descending: true },
    { limit: 0 },
    { gte: at(12), lte: at(12) },
    { gte: `${at(7)}5`, lte: `${at(12)}~` },
    { gte: 'a', lte: 'b' },
    { gte: at(20), lte: at(10) },
    { gte: at(20), lte: at(10), descending: true },
  ];
}

function laterRanges(at: (i: number) => string): KeyRange[] {
  return [
    { gte: at(5), limit: 5 },
    { lte: at(22), descending: true, skip: 1, limit: 4 },
    { skip: 5, limit: 3 },
  ];
}

async function ranges(r: Run, label: string, list: KeyRange[]): Promise<void> {
  if (!r.has('keyRange')) return;
  for (const q of list) r.note('range', `${label} ${JSON.stringify(q)}`, await r.h.range!(q));
}

async function updates(r: Run): Promise<void> {
  const { h, note, at, docs } = r;
  const doc = (i: number) => docs[i] as Doc;
  if (r.has('update')) {
    await h.update!({ ...doc(5), age: 99, note: 'updated' });
    await h.update!({ _id: at(6), replaced: true });
    note('update', 'get after update', [await h.get(at(5)), await h.get(at(6))]);
    note('update', 'update of a missing id', await settle(h.update!({ _id: 'doc-missing', x: 1 })));
    note('update', 'get missing after failed update', await h.get('doc-missing'));
    note('count', 'count after update', await h.count());
  }
  if (r.has('bulkUpdate')) {
    await h.bulkUpdate!([
      { ...doc(11), age: 1 },
      { _id: at(12), tiny: 'x' },
    ]);
    note('bulkUpdate', 'get after bulkUpdate', [await h.get(at(11)), await h.get(at(12))]);
    const missing = h.bulkUpdate!([
      { ...doc(13), age: 2 },
      { _id: 'doc-missing', y: 1 },
    ]);
    note('bulkUpdate', 'bulkUpdate with a missing id', await settle(missing));
    note('bulkUpdate', 'bulkUpdate with a missing id changed nothing', [
      await h.get(at(13)),
      await h.get('doc-missing'),
    ]);
  }
}

async function removes(r: Run): Promise<void> {
  const { h, note, at } = r;
  if (r.has('remove')) {
    await h.remove!(at(7));
    note('remove', 'get removed', await h.get(at(7)));
    note('remove', 'remove of a missing id', await settle(h.remove!('doc-missing')));
    note('count', 'count after remove', await h.count());
  }
  if (r.has('bulkRemove')) {
    await h.bulkRemove!([at(8), at(20), 'doc-missing', at(8)]);
    const gone = await Promise.all([at(8), at(20), at(21)].map((i) => h.get(i)));
    note('bulkRemove', 'get bulk-removed', gone);
    note('count', 'count after bulkRemove', await h.count());
    if (r.has('getMany'))
      note('bulkRemove', 'getMany after removes', await h.getMany!([at(7), at(8), at(9)]));
  }
}

async function reopenAndDestroy(
  r: Run,
  store: StoreAdapter,
  name: string,
  look: Look | undefined,
): Promise<void> {
  const { note, at } = r;
  const everything = (h: StoreHandle) =>
    r.has('keyRange') ? h.range!({}) : Promise.all(r.docs.map((d) => h.get(d._id)));
  note('count', 'count before close', await r.h.count());
  note('close', 'all documents before close', await everything(r.h));
  await r.h.close();
  note('close', 'get after close', await settle(r.h.get(at(0))));
  let h = await store.open(name);
  note('count', 'count after reopen', await h.count());
  note('close', 'all documents after reopen', await everything(h));
  await look?.filled();
  await h.destroy();
  await look?.destroyed();
  h = await store.open(name);
  note('count', 'count after destroy and reopen', await h.count());
  note('destroy', 'get after destroy and reopen', await h.get(at(0)));
  await h.destroy();
}
