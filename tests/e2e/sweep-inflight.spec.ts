/**
 * No request of the harness is in flight while the page times a sample. The page runs a plan as
 * a sweep runs it (collector mode, autorun), served by the sweep's own server with a collector;
 * the collector logs when each request arrived and when its answer went (an option only tests
 * set), and the page logs its timed windows (window.__storebenchTimedWindows, each holding one
 * sample's setup, timed runs and teardown). Both in wall-clock ms. A request whose interval
 * meets a window was in flight during a sample: its answer's tasks could land in the timed section.
 *
 * Only the causal order is allowed for: the page opens a window only after its requests settled,
 * so every request ends before a window opens or arrives after it closed.
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPage } from '../../src/cli/build/build-page.ts';
import { COLLECT_PATH, startServer, type RequestTimes } from '../../src/cli/server/page-server.ts';
import { PAGE_QUERY, type CollectorMessage } from '../../src/core/run/collector.ts';
import type { TimedWindow } from '../../src/ui/host/timed-windows.ts';
import { settled } from './page-state.ts';
import { REPO_ROOT } from './sweep-process.ts';

test('sweep in-flight - no collector request overlaps a timed sample', async ({ page }) => {
  test.setTimeout(300_000);
  const dist = mkdtempSync(join(tmpdir(), 'storebench-inflight-'));
  const requests: RequestTimes[] = [];
  const messages: string[] = [];
  const token = 'inflight-test-token';
  try {
    const nodeEnv = process.env.NODE_ENV;
    await buildPage(REPO_ROOT, dist);
    // The build leaves the process as it found it: Vite alone would set NODE_ENV to production.
    expect(process.env.NODE_ENV).toBe(nodeEnv);
    const server = await startServer({
      root: dist,
      collector: {
        token,
        onMessage: (m: CollectorMessage) => void messages.push(m.type),
        onRequestTimes: (t) => requests.push(t),
      },
    });
    try {
      // Samples of tens of ms on IndexedDB: the page posts progress about four times a second,
      // and redraws its progress more often, so some posts leave with no paint to wait for.
      const query = new URLSearchParams({
        [PAGE_QUERY.collector]: COLLECT_PATH,
        [PAGE_QUERY.token]: token,
        [PAGE_QUERY.browser]: 'chromium',
        [PAGE_QUERY.autorun]: '1',
        suites: 'insert',
        cases: 'serial',
        adapters: 'idb,indexeddb-raw',
        sizes: '50',
        iterations: '40',
        warmup: '1',
        seed: '42',
      });
      await page.goto(`${server.origin}/?${query}`);
      const end = await settled(page, 240_000);
      expect(end.status, end.error).toBe('done');
      const windows = await page.evaluate(
        () =>
          (window as unknown as { __storebenchTimedWindows?: TimedWindow[] })
            .__storebenchTimedWindows ?? [],
      );
      // 2 stores × (1 warm-up + 40 timed) samples, each in a window of its own.
      expect(windows.filter((w) => w.closedBy.startsWith('sample ')).length).toBe(82);
      const first = Math.min(...windows.map((w) => w.start));
      const last = Math.max(...windows.map((w) => w.end));
      const during = requests.filter(
        (r) => r.method === 'POST' && r.endedAt > first && r.arrivedAt < last,
      );
      // The run did post while it sampled: else no overlap would prove nothing.
      expect(
        during.length,
        `posts during the run: ${during.length}; messages: ${messages.join(', ')}`,
      ).toBeGreaterThanOrEqual(5);
      const overlaps = during.flatMap((r) =>
        windows
          .filter((w) => r.arrivedAt < w.end && w.start < r.endedAt)
          .map(
            (w) =>
              `a request from ${(r.arrivedAt - first).toFixed(1)} to ${(r.endedAt - first).toFixed(1)} ms met the window from ${(w.start - first).toFixed(1)} to ${(w.end - first).toFixed(1)} ms (closed by ${w.closedBy})`,
          ),
      );
      expect(
        overlaps,
        `${overlaps.length} of ${during.length} posts were in flight during a timed window`,
      ).toEqual([]);
    } finally {
      await server.close();
    }
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});
