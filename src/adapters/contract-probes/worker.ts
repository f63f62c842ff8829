/**
 * The adapter contract's dedicated Worker (probes.ts inWorker): the store, found in the registry
 * by id, opened here, given two documents, counted and read back, then destroyed.
 */
import { adapterById } from '../registry.ts';

self.onmessage = async (e: MessageEvent<{ id: string; name: string }>) => {
  try {
    const adapter = adapterById(e.data.id);
    const supported = await adapter.supported();
    if (supported !== true) throw new Error(`not supported in a Worker: ${supported}`);
    const h = await adapter.open(e.data.name);
    await h.put({ _id: 'a', n: 1 });
    await h.put({ _id: 'b', n: 2 });
    const result = { ok: true, count: await h.count(), doc: await h.get('b') };
    await h.destroy();
    postMessage(result);
  } catch (err) {
    postMessage({ ok: false, error: String((err instanceof Error && err.stack) || err) });
  }
};
