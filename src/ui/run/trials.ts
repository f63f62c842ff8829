/**
 * `window.__storebenchTrials`: the page's half of driven cases (src/core/driven.ts). A driver
 * outside the page calls these with page.evaluate between the steps only it can take, such as
 * killing the browser. Each call opens the store it names, does one step and answers in JSON.
 */
import type { StoreAdapter, StoreHandle } from '../../core/adapter.ts';
import { errorMessage } from '../../core/errors.ts';
import { adapterById } from '../../adapters/registry.ts';
import { fixtureShape, makeDocs } from '../../../fixtures/index.ts';
import { coldOpOf, coldSteps, type ColdSample } from '../../../suites/cold.ts';
import { crashWriteOf, survivors, writeAcknowledged } from '../../../suites/crash.ts';
import { fillUntilFull, type QuotaSample } from '../../../suites/quota.ts';
import { checkTabs, tabWork, writesOf, type TabReport, type TabsCheck } from '../../../suites/tabs.ts';
import { idbEvents, type IdbEvents } from './idb-events.ts';

/** Which database of which store a trial step works on. The driver names one database per trial. */
export interface StoreRequest {
  adapter: string;
  db: string;
}

/** A step that writes the plan's documents: their shape and seed. */
export interface FixtureRequest extends StoreRequest {
  fixture: string;
  seed: number;
}

/** A step of a case: its params (crash: durability and chunkSize; cold: op and state) and size. */
export interface CaseRequest extends FixtureRequest {
  params: Record<string, unknown>;
  size: number;
}

export interface StorebenchTrials {
  /**
   * Write the fixture's first `size` documents, calling `window.__storebenchAck(ids, ms)` (a
   * binding the driver exposes) after each acknowledged write. Resolves when all are written;
   * the driver usually kills the browser before that.
   */
  crashWrite(request: CaseRequest): Promise<'written'>;
  /** After the restart: which of `ids` the store holds, its document count; then it is destroyed. */
  crashSurvivors(request: StoreRequest & { params: Record<string, unknown>; ids: string[] }): Promise<{ present: string[]; count: number }>;
  /** Fill a fresh database for a cold read and build what the read uses; then close it. */
  coldFill(request: CaseRequest): Promise<'filled'>;
  /** Open the database, do the read once, close it: the two times in ms. */
  coldRead(request: CaseRequest): Promise<ColdSample>;
  /**
   * One tab of the tabs suite: wait until `startAt` (epoch ms), open the store, do its work,
   * close it; with the IndexedDB events this page saw meanwhile.
   */
  tabWork(request: TabRequest): Promise<TabReport & IdbEvents>;
  /** After every tab ended: lost and extra writes; then the database is deleted. */
  checkTabs(request: StoreRequest & { k: number; ops: number }): Promise<TabsCheck>;
  /** Fill a fresh database until a write fails (the quota suite); then delete it. */
  quotaFill(request: QuotaRequest): Promise<QuotaSample>;
  /** Delete a database by name. */
  destroy(request: StoreRequest): Promise<'destroyed'>;
}

export interface TabRequest extends FixtureRequest {
  tab: number;
  ops: number;
  /** Epoch ms at which every tab starts. */
  startAt: number;
}

export interface QuotaRequest extends FixtureRequest {
  maxDocs: number;
  /** ms the fill may take before it stops without a failure. */
  timeoutMs: number;
  /** Call navigator.storage.persist(): only where it cannot raise a prompt no one answers. */
  askPersist: boolean;
}

declare global {
  interface Window {
    __storebenchTrials: StorebenchTrials;
    __storebenchAck?: (ids: string[], ms: number) => void;
  }
}

export function installTrials(): void {
  window.__storebenchTrials = {
    async crashWrite(r) {
      const write = crashWriteOf(r.params);
      const handle = await adapterById(r.adapter).open(r.db, { durability: write.durability });
      const docs = makeDocs(fixtureShape(r.fixture), r.seed, r.size);
      const ack = window.__storebenchAck;
      if (!ack) throw new Error('window.__storebenchAck is not exposed: only a driver can run a crash trial');
      await writeAcknowledged(handle, docs, write, ack, () => performance.now());
      return 'written';
    },
    async crashSurvivors(r) {
      const adapter = adapterById(r.adapter);
      const handle: StoreHandle = await adapter.open(r.db, { durability: crashWriteOf(r.params).durability });
      try {
        return await survivors(handle, r.ids);
      } finally {
        await handle.destroy();
      }
    },
    async coldFill(r) {
      const { docs, op, field } = coldInputs(r);
      const handle = await adapterById(r.adapter).open(r.db);
      try {
        await coldSteps(handle, op, field, r.adapter).fill(docs);
      } finally {
        await handle.close();
      }
      return 'filled';
    },
    async coldRead(r) {
      // The documents are built before the clock starts: only the open and the read are timed.
      const { docs, op, field } = coldInputs(r);
      const adapter = adapterById(r.adapter);
      const t0 = performance.now();
      const handle = await adapter.open(r.db);
      const t1 = performance.now();
      try {
        // Checked for the op's methods between the two clocks, so neither time includes the check.
        const steps = coldSteps(handle, op, field, adapter.id);
        const t2 = performance.now();
        await steps.read(docs);
        return { openMs: t1 - t0, readMs: performance.now() - t2 };
      } finally {
        await handle.close();
      }
    },
    async tabWork(r) {
      const docs = makeDocs(fixtureShape(r.fixture), r.seed, Math.min(writesOf(r.ops), 100));
      const before = idbEvents();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, r.startAt - epochNow())));
      const handle = await adapterById(r.adapter).open(r.db);
      try {
        const report = await tabWork(handle, { tab: r.tab, ops: r.ops }, docs, epochNow);
        const after = idbEvents();
        return { ...report, blocked: after.blocked - before.blocked, versionchange: after.versionchange - before.versionchange };
      } finally {
        await handle.close();
      }
    },
    async checkTabs(r) {
      const handle = await adapterById(r.adapter).open(r.db);
      try {
        return await checkTabs(handle, r.k, r.ops, epochNow, (ms) => new Promise((resolve) => setTimeout(resolve, ms)));
      } finally {
        await handle.destroy();
      }
    },
    async quotaFill(r) {
      const shape = fixtureShape(r.fixture);
      const adapter = adapterById(r.adapter);
      const usage = async () => (navigator.storage?.estimate ? await navigator.storage.estimate() : null);
      const before = await usage();
      const deadline = performance.now() + r.timeoutMs;
      // A store that is full may fail to open, or close itself when a write fails: what it does
      // then is part of the finding, so every step after the fill is tried and told, not thrown.
      let filled: { docs: number; jsonBytes: number; writeMs: number; error: string };
      let handle: StoreHandle | null = null;
      try {
        handle = await adapter.open(r.db);
        filled = await fillUntilFull(handle, (start, count) => makeDocs(shape, r.seed, count, start), r.maxDocs, () => performance.now(), deadline);
      } catch (e) {
        filled = { docs: 0, jsonBytes: 0, writeMs: 0, error: `opening the store failed: ${errorMessage(e)}` };
      }
      const notes = [filled.error];
      const stored = await storedAfter(adapter, handle, r.db).catch((e: unknown) => (notes.push(`counting afterwards failed: ${errorMessage(e)}`), null));
      const after = await usage();
      const used = before?.usage != null && after?.usage != null ? after.usage - before.usage : null;
      const persisted = r.askPersist && navigator.storage?.persist ? Number(await navigator.storage.persist()) : null;
      await (handle ? handle.destroy() : Promise.reject(new Error('not open'))).catch(() => adapter.destroy(r.db)).catch((e: unknown) => notes.push(`deleting it failed: ${errorMessage(e)}`));
      return { ms: filled.writeMs, docs: filled.docs, stored, jsonBytes: filled.jsonBytes, usageBytes: used, quotaBytes: after?.quota ?? null, persisted, error: notes.join('; ') };
    },
    async destroy(r) {
      await adapterById(r.adapter).destroy(r.db);
      return 'destroyed';
    },
  };
}

/** The documents a store holds after a fill: on its handle, or on a new one if the store closed it. */
async function storedAfter(adapter: StoreAdapter, handle: StoreHandle | null, db: string): Promise<number> {
  if (handle) {
    try {
      return await handle.count();
    } catch {
      await handle.close().catch(() => {});
    }
  }
  const again = await adapter.open(db);
  try {
    return await again.count();
  } finally {
    await again.close();
  }
}

/** Epoch ms at sub-millisecond resolution, comparable between the tabs of one browser. */
const epochNow = () => performance.timeOrigin + performance.now();

/** What a cold read needs besides the store: the fixture's documents, the op, the field it queries. */
function coldInputs(r: CaseRequest) {
  const shape = fixtureShape(r.fixture);
  return { docs: makeDocs(shape, r.seed, r.size), op: coldOpOf(r.params).op, field: shape.indexedFields[0]! };
}
