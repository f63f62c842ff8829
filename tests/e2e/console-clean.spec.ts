/**
 * The harness's own deletes are never blocked: before a store's connection is closed and its
 * database deleted, its last transaction has ended (src/adapters/indexeddb/drain.ts). Without
 * that, Dexie logs "Dexie.delete(...) was blocked" and localForage "dropInstance blocked ..." in
 * Chromium after every sample whose last read had not yet ended. An insert run of every built-in
 * store, each case's samples on fresh databases, logs no warning or error at all.
 */
import { expect, test } from '@playwright/test';
import { settled } from './page-state.ts';

test('an insert run of every built-in store logs no console warning or error', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') messages.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => messages.push(`page error: ${e.message}`));
  // Every built-in store (the page's default adapters), a short budget: each still takes its
  // samples on databases of its own, so each is opened, filled, read back and deleted many times.
  await page.goto('/?suites=insert&budget=10s&autorun=1');
  const s = await settled(page, 110_000);
  expect(s.status, s.error).toBe('done');
  const rows = s.results?.cases ?? [];
  expect(rows.filter((r) => r.status === 'ok').length).toBeGreaterThan(10);
  expect(messages).toEqual([]);
});
