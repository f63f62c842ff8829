/**
 * `window.__storebenchTrials`: the page's half of driven cases (src/core/driven.ts). A driver
 * outside the page calls these with page.evaluate between the steps only it can take, such as
 * killing the browser. Each call opens the store it names, does one step and answers in JSON.
 */
import type { StoreHandle } from '../../core/adapter.ts';
import { adapterById } from '../../adapters/registry.ts';
import { fixtureShape, makeDocs } from '../../../fixtures/index.ts';
import { crashWriteOf, survivors, writeAcknowledged } from '../../../suites/crash.ts';

export interface CrashWriteRequest {
  adapter: string;
  /** The database of this kill: the driver names one per kill and destroys it after counting. */
  db: string;
  /** The crash case's params (durability, chunkSize). */
  params: Record<string, unknown>;
  fixture: string;
  seed: number;
  size: number;
}

export interface StorebenchTrials {
  /**
   * Write the fixture's first `size` documents, calling `window.__storebenchAck(ids, ms)` (a
   * binding the driver exposes) after each acknowledged write. Resolves when all are written;
   * the driver usually kills the browser before that.
   */
  crashWrite(request: CrashWriteRequest): Promise<'written'>;
  /** After the restart: which of `ids` the store holds, its document count; then it is destroyed. */
  crashSurvivors(request: { adapter: string; db: string; params: Record<string, unknown>; ids: string[] }): Promise<{ present: string[]; count: number }>;
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
  };
}
