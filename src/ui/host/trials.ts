/**
 * `window.__storebenchTrials`: the page's half of driven cases (src/core/run/driver-cases.ts). A driver
 * outside the page calls these with page.evaluate between the steps only it can take, such as
 * killing the browser. Each call opens the store it names, does one step and answers in JSON.
 * The steps are each driven suite's (suites/driven.ts, DrivenSteps), under its id.
 */
import type { StoreAdapter, StoreHandle } from '../../core/store/adapter.ts';
import type { CaseRequest } from '../../core/run/driver-cases.ts';
import { errorMessage } from '../../core/base/errors.ts';
import { adapterById } from '../../adapters/registry.ts';
import { fixtureShape, makeDocs } from '../../../fixtures/index.ts';
import { coldOpOf, coldSteps, type ColdSteps } from '../../../suites/cold.ts';
import {
  crashWriteOf,
  survivors,
  writeAcknowledged,
  type CrashSteps,
} from '../../../suites/crash.ts';
import type { StorebenchTrials } from '../../../suites/driven.ts';
import { fillUntilFull, type QuotaSteps } from '../../../suites/quota.ts';
import { checkTabs, tabWork, writesOf, type TabsSteps } from '../../../suites/tabs.ts';
import { idbEvents } from './idb-events.ts';

const crash: CrashSteps = {
  async write(r) {
    const write = crashWriteOf(r.params);
    const handle = await adapterById(r.adapter).open(r.db, { durability: write.durability });
    const docs = makeDocs(fixtureShape(r.fixture), r.seed, r.size);
    const ack = window.__storebenchAck;
    if (!ack)
      throw new Error('window.__storebenchAck is not exposed: only a driver can run a crash trial');
    await writeAcknowledged(handle, docs, write, ack, () => performance.now());
    return 'written';
  },
  async survivors(r) {
    const adapter = adapterById(r.adapter);
    const handle: StoreHandle = await adapter.open(r.db, {
      durability: crashWriteOf(r.params).durability,
    });
    try {
      return await survivors(handle, r.ids);
    } finally {
      await handle.destroy();
    }
  },
};

const cold: ColdSteps = {
  async fill(r) {
    const { docs, op, field } = coldInputs(r);
    const handle = await adapterById(r.adapter).open(r.db);
    try {
      await coldSteps(handle, op, field, r.adapter).fill(docs);
    } finally {
      await handle.close();
    }
    return 'filled';
  },
  async read(r) {
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
};

const tabs: TabsSteps = {
  async work(r) {
    const docs = makeDocs(fixtureShape(r.fixture), r.seed, Math.min(writesOf(r.ops), 100));
    const before = idbEvents();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, r.startAt - epochNow())));
    const handle = await adapterById(r.adapter).open(r.db);
    try {
      const report = await tabWork(handle, { tab: r.tab, ops: r.ops }, docs, epochNow);
      const after = idbEvents();
      return {
        ...report,
        blocked: after.blocked - before.blocked,
        versionchange: after.versionchange - before.versionchange,
      };
    } finally {
      await handle.close();
    }
  },
  async check(r) {
    const handle = await adapterById(r.adapter).open(r.db);
    try {
      return await checkTabs(
        handle,
        r.k,
        r.ops,
        epochNow,
        (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      );
    } finally {
      await handle.destroy();
    }
  },
};

const quota: QuotaSteps = {
  async fill(r) {
    const shape = fixtureShape(r.fixture);
    const adapter = adapterById(r.adapter);
    const usage = async () =>
      navigator.storage?.estimate ? await navigator.storage.estimate() : null;
    const before = await usage();
    const deadline = performance.now() + r.timeoutMs;
    // A store that is full may fail to open, or close itself when a write fails: what it does
    // then is part of the finding, so every step after the fill is tried and told, not thrown.
    let filled: { docs: number; jsonBytes: number; writeMs: number; error: string };
    let handle: StoreHandle | null = null;
    try {
      handle = await adapter.open(r.db);
      filled = await fillUntilFull(
        handle,
        (start, count) => makeDocs(shape, r.seed, count, start),
        r.maxDocs,
        () => performance.now(),
        deadline,
      );
    } catch (e) {
      filled = {
        docs: 0,
        jsonBytes: 0,
        writeMs: 0,
        error: `opening the store failed: ${errorMessage(e)}`,
      };
    }
    const notes = [filled.error];
    const stored = await storedAfter(adapter, handle, r.db).catch(
      (e: unknown) => (notes.push(`counting afterwards failed: ${errorMessage(e)}`), null),
    );
    const after = await usage();
    const used = before?.usage != null && after?.usage != null ? after.usage - before.usage : null;
    const persisted =
      r.askPersist && navigator.storage?.persist ? Number(await navigator.storage.persist()) : null;
    await (handle ? handle.destroy() : Promise.reject(new Error('not open')))
      .catch(() => adapter.destroy(r.db))
      .catch((e: unknown) => notes.push(`deleting it failed: ${errorMessage(e)}`));
    return {
      ms: filled.writeMs,
      docs: filled.docs,
      stored,
      jsonBytes: filled.jsonBytes,
      usageBytes: used,
      quotaBytes: after?.quota ?? null,
      persisted,
      error: notes.join('; '),
    };
  },
};

/** Every driven suite's page steps, by its id. */
const PAGE_STEPS: StorebenchTrials = {
  crash,
  cold,
  tabs,
  quota,
  async destroy(r) {
    await adapterById(r.adapter).destroy(r.db);
    return 'destroyed';
  },
};

export function installTrials(): void {
  window.__storebenchTrials = PAGE_STEPS;
}

/** The documents a store holds after a fill: on its handle, or on a new one if the store closed it. */
async function storedAfter(
  adapter: StoreAdapter,
  handle: StoreHandle | null,
  db: string,
): Promise<number> {
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
  return {
    docs: makeDocs(shape, r.seed, r.size),
    op: coldOpOf(r.params).op,
    field: shape.indexedFields[0]!,
  };
}
