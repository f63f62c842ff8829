// What the sweep reads of a grid's answers. Selenium Grid 3 runs in the e2e tests
// (tests/e2e/sweep-grid.spec.ts); Grid 4 cannot run here (no Grid 4 jar on npm), so its /status is
// read here from an answer of the shape Selenium's documentation gives, as a stand-in for one.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { askGrid, describeOffers, grid4Node, grid4View } from '../../../../src/cli/drivers/grid.ts';
import { oneLine } from '../../../../src/cli/drivers/webdriver-http.ts';

const slot = (browserName: string, sessionId: string | null) => ({
  lastStarted: '1970-01-01T00:00:00Z',
  session: sessionId === null ? null : { sessionId, start: '2026-11-27T14:00:00Z' },
  id: { hostId: 'h', id: `${browserName}-${sessionId}` },
  stereotype: { browserName, platformName: 'LINUX' },
});
const status = {
  value: {
    ready: true,
    message: 'Selenium Grid ready.',
    nodes: [
      {
        id: 'n1',
        uri: 'http://node1:5555',
        availability: 'UP',
        slots: [slot('chrome', 'abc'), slot('firefox', null)],
      },
      { id: 'n2', uri: 'http://node2:5555', availability: 'UP', slots: [slot('chrome', null)] },
      // A node that is down offers nothing.
      { id: 'n3', uri: 'http://node3:5555', availability: 'DOWN', slots: [slot('safari', null)] },
    ],
  },
};

describe('cli grid - Grid 4 /status', () => {
  it('reads what the nodes that are up offer, and the free slots of one browser or of all', () => {
    const all = grid4View(status);
    expect(all?.offers).toEqual([
      { browserName: 'chrome', platformName: 'LINUX', slots: 2, nodes: 2 },
      { browserName: 'firefox', platformName: 'LINUX', slots: 1, nodes: 1 },
    ]);
    expect(all?.slots).toEqual({ free: 2, total: 3 });
    expect(grid4View(status, 'chrome')?.slots).toEqual({ free: 1, total: 2 });
    expect(grid4View(status, 'safari')?.slots).toEqual({ free: 0, total: 0 });
    expect(describeOffers(all?.offers ?? [])).toBe(
      'chrome on LINUX (2 slots on 2 nodes), firefox on LINUX (1 slot on 1 node)',
    );
  });

  it('finds the node a session runs on', () => {
    expect(grid4Node(status, 'abc')).toBe('http://node1:5555');
    expect(grid4Node(status, 'gone')).toBeNull();
  });

  it('a status without nodes is no Grid 4 (Grid 3, a bare driver, a cloud farm)', () => {
    expect(grid4View({ value: { ready: true, message: 'Hub has capacity' } })).toBeNull();
    expect(grid4View('not json')).toBeNull();
    expect(describeOffers([])).toBe('no browser (no node is registered)');
  });
});

describe('cli grid - a message from elsewhere on one line', () => {
  it("keeps chromedriver's reason on its second line, drops Selenium's diagnostics, escapes controls", () => {
    expect(
      oneLine(
        "session not created\nfrom unknown error: no chrome binary at /opt/x\u001b[31m\nBuild info: version: '3.141.59'\nSystem info: host: 'vm'\nDriver info: driver.version: unknown\nremote stacktrace: #0 0x55",
      ),
    ).toBe('session not created from unknown error: no chrome binary at /opt/x\\u001b[31m');
    expect(oneLine(`${'x'.repeat(500)}\nBuild info: v`)).toBe(`${'x'.repeat(400)}…`);
  });
});

describe('cli grid - what a grid offers, bounded', () => {
  it('a grid offering 20,000 browsers is said in one short line, the first few and how many more', async () => {
    // A real endpoint answering /status as Grid 4 does: one node, 20,000 slots, each a browser of its own.
    const names = Array.from({ length: 20_000 }, (_, i) => `browser-${String(i).padStart(5, '0')}`);
    const slots = names.map((browserName) => ({ session: null, stereotype: { browserName } }));
    const body = JSON.stringify({
      value: { ready: true, nodes: [{ id: 'n1', uri: 'http://node1:5555', slots }] },
    });
    const grid = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((ok) => grid.listen(0, '127.0.0.1', ok));
    try {
      const { offers } = await askGrid(`http://127.0.0.1:${(grid.address() as AddressInfo).port}`);
      expect(offers).toHaveLength(20_000);
      expect(describeOffers(offers ?? [])).toBe(
        'browser-00000 (1 slot on 1 node), browser-00001 (1 slot on 1 node), browser-00002 (1 slot on 1 node), browser-00003 (1 slot on 1 node), browser-00004 (1 slot on 1 node) and 19,995 more',
      );
    } finally {
      grid.close();
    }
  });
});
