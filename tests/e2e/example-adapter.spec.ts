import { expect, test } from '@playwright/test';
import type { sessionStorageAdapter } from '../../src/adapters/web-storage/session-storage.ts';

/**
 * The README's example adapter (src/adapters/web-storage/session-storage.ts) does what the contract asks of
 * every store: get returns what put was given, close ends the handle, the data outlives it, and
 * destroy, by handle or by name, deletes. It is not registered, so the contract test never sees it.
 */

// The page imports the module by URL; naming the export here shows knip it is used.
type ExampleModule = { sessionStorageAdapter: typeof sessionStorageAdapter };

test('adapters - README example (sessionStorage)', async ({ page }) => {
  // Without Vite's HMR client, which would reload the page when any source file is saved.
  await page.route('**/tests/e2e/blank.html', async (route) => {
    const response = await route.fetch();
    await route.fulfill({
      response,
      body: (await response.text()).replace(/<script[^>]*\/@vite\/client[^>]*><\/script>/g, ''),
    });
  });
  await page.goto('/tests/e2e/blank.html');
  const seen = await page.evaluate(async (url) => {
    const { sessionStorageAdapter: adapter } = (await import(url)) as ExampleModule;
    const settle = (p: Promise<unknown>) =>
      p.then(
        () => 'resolved',
        () => 'rejected',
      );
    const name = `example-${Math.random().toString(36).slice(2)}`;
    const docs = [
      { _id: 'a', n: 1, tags: ['x'] },
      { _id: 'b', nested: { deep: true } },
    ];
    let h = await adapter.open(name);
    for (const d of docs) await h.put(d);
    const got = [await h.get('a'), await h.get('b'), await h.get('missing')];
    await h.close();
    const afterClose = await settle(h.get('a'));
    h = await adapter.open(name);
    const reopened = await h.count();
    await h.destroy();
    h = await adapter.open(name);
    const afterDestroy = await h.count();
    await h.put({ _id: 'c' });
    await adapter.destroy(name);
    const afterDestroyByName = Object.keys(sessionStorage).filter((k) =>
      k.startsWith(encodeURIComponent(name)),
    ).length;
    return {
      supported: await adapter.supported(),
      got,
      afterClose,
      reopened,
      afterDestroy,
      afterDestroyByName,
    };
  }, '/src/adapters/web-storage/session-storage.ts');
  expect(seen).toEqual({
    supported: true,
    got: [{ _id: 'a', n: 1, tags: ['x'] }, { _id: 'b', nested: { deep: true } }, undefined],
    afterClose: 'rejected',
    reopened: 2,
    afterDestroy: 0,
    afterDestroyByName: 0,
  });
});
