import { expect, test, type Page } from '@playwright/test';
import type {
  sqliteOpfsAdapter,
  sqliteOpfsFileNames,
} from '../../src/adapters/sqlite/sqlite-opfs.ts';

/**
 * What the contract test cannot see of sqlite-opfs: its files live in an OPFS pool, not in
 * IndexedDB or localStorage, so these checks ask the pool itself; the VFS it records; that it
 * runs without cross-origin isolation (opfs-sahpool needs no SharedArrayBuffer); and that the
 * pool, which one context of the origin holds at a time, passes between the page (whose engine
 * runs in a SQLite worker of its own) and a Worker (whose engine runs in the Worker's thread).
 */

// The page imports the module by URL; naming its exports here shows knip they are used.
type SqliteModule = {
  sqliteOpfsAdapter: typeof sqliteOpfsAdapter;
  sqliteOpfsFileNames: typeof sqliteOpfsFileNames;
};

const MODULE = '/src/adapters/sqlite/sqlite-opfs.ts';

/** The test page without Vite's HMR client; optionally without the isolation headers. */
async function openPage(page: Page, isolated: boolean): Promise<void> {
  await page.route('**/*', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    if (!isolated) {
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
    }
    const html = route.request().url().endsWith('/tests/e2e/blank.html');
    const body = html
      ? (await response.text()).replace(/<script[^>]*\/@vite\/client[^>]*><\/script>/g, '')
      : await response.body();
    await route.fulfill({ response, headers, body });
  });
  await page.goto('/tests/e2e/blank.html');
}

for (const isolated of [true, false]) {
  test(`sqlite-opfs - files, VFS and deletion, ${isolated ? 'cross-origin isolated' : 'not isolated'}`, async ({
    page,
  }) => {
    await openPage(page, isolated);
    const seen = await page.evaluate(async (url) => {
      const { sqliteOpfsAdapter: adapter, sqliteOpfsFileNames: files } = (await import(
        url
      )) as SqliteModule;
      const supported = await adapter.supported();
      const describedBefore = await adapter.describe?.();
      const name = `sqlite-test-${Math.random().toString(36).slice(2)}`;
      const h = await adapter.open(name);
      await h.bulkPut!([
        { _id: 'a', n: 1 },
        { _id: 'b', n: 2 },
      ]);
      await h.createIndex!(['n']);
      const whileOpen = await files();
      // A second handle on the same database shares its connection; closing one leaves the other working.
      const h2 = await adapter.open(name);
      await h2.close();
      const countAfterOtherClosed = await h.count();
      await h.destroy();
      const afterDestroy = await files();
      // Deleted by name with a handle still open: the handle is closed for good, the file gone.
      const h3 = await adapter.open(name);
      await h3.put({ _id: 'c' });
      await adapter.destroy(name);
      const afterDestroyByName = await files();
      const useAfterDestroy = await h3.get('c').then(
        () => 'resolved',
        () => 'rejected',
      );
      const again = await adapter.open(name);
      const countReopened = await again.count();
      await again.destroy();
      return {
        isolated: crossOriginIsolated,
        supported,
        describedBefore,
        described: await adapter.describe?.(),
        whileOpen,
        countAfterOtherClosed,
        afterDestroy,
        afterDestroyByName,
        useAfterDestroy,
        countReopened,
        left: await files(),
        name,
      };
    }, MODULE);
    expect(seen.isolated).toBe(isolated);
    expect(seen.supported).toBe(true);
    expect(seen.describedBefore, 'nothing is claimed before SQLite ran').toEqual({});
    expect(seen.described).toEqual({
      vfs: 'opfs-sahpool',
      sqlite: expect.stringMatching(/^3\.\d+\.\d+$/),
      runsIn: 'a SQLite worker of its own',
    });
    expect(seen.whileOpen).toContain(`/${seen.name}.sqlite3`);
    expect(seen.countAfterOtherClosed).toBe(2);
    expect(seen.afterDestroy).toEqual([]);
    expect(seen.afterDestroyByName).toEqual([]);
    expect(seen.useAfterDestroy).toBe('rejected');
    expect(seen.countReopened).toBe(0);
    expect(seen.left).toEqual([]);
  });
}

test('sqlite-opfs - the pool passes between the page and a Worker', async ({ page }) => {
  await openPage(page, true);
  const seen = await page.evaluate(async (url) => {
    const { sqliteOpfsAdapter: adapter } = (await import(url)) as SqliteModule;
    const roundTrip = async (tag: string) => {
      const h = await adapter.open(`pool-${tag}-${Math.random().toString(36).slice(2)}`);
      await h.put({ _id: tag });
      const n = await h.count();
      await h.destroy();
      return n;
    };
    const inPage = await roundTrip('page');
    // A Worker of the same page, as the plan Worker is: its engine, in the Worker's own thread,
    // needs the pool that the page's SQLite worker holds, idle now.
    // It reports each step, so a Worker that never answers says where it stopped.
    const source = `
      try {
        const { sqliteOpfsAdapter: adapter } = await import(${JSON.stringify(new URL(url, location.href).href)});
        postMessage({ step: 'imported' });
        const h = await adapter.open('pool-worker-' + Math.random());
        postMessage({ step: 'opened' });
        await h.put({ _id: 'w' });
        const n = await h.count();
        await h.destroy();
        postMessage({ ok: true, n, described: await adapter.describe() });
      } catch (e) {
        postMessage({ ok: false, error: String((e && e.stack) || e) });
      }`;
    const blob = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const worker = new Worker(blob, { type: 'module' });
    const steps: string[] = [];
    const inWorker = await new Promise((resolve) => {
      // A step report, or the Worker's answer.
      worker.onmessage = (e: MessageEvent<{ step?: string }>) =>
        e.data.step ? steps.push(e.data.step) : resolve(e.data);
      worker.onerror = (e) => resolve({ ok: false, error: e.message });
      setTimeout(
        () =>
          resolve({
            ok: false,
            error: `no answer in 30 s; steps done: ${steps.join(', ') || 'none'}`,
          }),
        30_000,
      );
    });
    worker.terminate();
    URL.revokeObjectURL(blob);
    // And back: the page's worker takes the pool again once the Worker is gone.
    const backInPage = await roundTrip('back');
    return { inPage, inWorker, backInPage };
  }, MODULE);
  expect(seen).toEqual({
    inPage: 1,
    inWorker: {
      ok: true,
      n: 1,
      described: {
        vfs: 'opfs-sahpool',
        sqlite: expect.any(String),
        runsIn: 'the Worker that uses the store',
      },
    },
    backInPage: 1,
  });
});
