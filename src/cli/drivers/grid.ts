/**
 * What a WebDriver grid says about itself: the browsers its nodes offer, its free slots, and the
 * node a session runs on. Selenium Grid 4 says all of it in /status; Selenium Grid 3 in its
 * /grid/api (slots, a session's node, a node's configuration) and its console page (the node ids).
 * A cloud farm may say none of it: every answer here is then null and the sweep goes by what
 * session creation answers.
 */
import { getJson, getText } from './webdriver-http.ts';
import { clipped } from '../../core/base/shown.ts';
import { listedFew, printableField } from '../terminal/escape.ts';

const ASK_MS = 5_000;

/** One kind of browser a grid offers, over all its nodes. */
export interface GridOffer {
  browserName: string;
  platformName: string | null;
  slots: number;
  nodes: number;
}

export interface GridView {
  /** What the nodes offer; null when the grid does not say. */
  offers: GridOffer[] | null;
  /** Slots free and in all (Grid 3 counts them over every browser); null when the grid does not say. */
  slots: { free: number; total: number } | null;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/** The most Grid 3 nodes asked what they offer, one request each: a grid of a few dozen is large. */
const MAX_NODES = 100;
/** The most of one name a grid gives that is kept: a browser, platform or node name is short. */
const MAX_NAME = 100;

/**
 * A name the grid gives, as it is printed and recorded: one line, control characters escaped,
 * cut to MAX_NAME (a grid offered a 5 kB browser name holding a newline and escape codes).
 */
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? printableField(clipped(v, MAX_NAME)) : null;

/** Grid 3 serves its own API at the server's root, beside /wd/hub. */
const atRoot = (endpoint: string, path: string) => new URL(path, `${endpoint}/`).toString();

/** Grid 4's nodes in its /status answer, or null when it lists none (Grid 3, a cloud farm). */
function grid4Nodes(status: unknown): Obj[] | null {
  const nodes = isObj(status) && isObj(status.value) ? status.value.nodes : undefined;
  return Array.isArray(nodes) ? nodes.filter(isObj) : null;
}

const getStatus = (endpoint: string) => getJson(`${endpoint}/status`, ASK_MS);

/** One capability set of a node (a Grid 4 slot's stereotype, a Grid 3 node's capabilities entry). */
interface NodeCaps {
  node: string;
  browserName: string;
  platformName: string | null;
  slots: number;
  free: number;
}

function grid4Caps(nodes: Obj[]): NodeCaps[] {
  return nodes
    .filter((n) => n.availability === undefined || n.availability === 'UP')
    .flatMap((n) =>
      (Array.isArray(n.slots) ? n.slots.filter(isObj) : []).flatMap((slot) => {
        const s = isObj(slot.stereotype) ? slot.stereotype : {};
        const browserName = str(s.browserName);
        return browserName
          ? [
              {
                node: str(n.uri) ?? str(n.id) ?? '?',
                browserName,
                platformName: str(s.platformName),
                slots: 1,
                free: slot.session ? 0 : 1,
              },
            ]
          : [];
      }),
    );
}

/** Grid 3: the node ids from its console page, then each node's capabilities from its API. */
async function grid3Caps(endpoint: string): Promise<NodeCaps[] | null> {
  const console = await getText(atRoot(endpoint, '/grid/console'), ASK_MS);
  if (console === undefined) return null;
  const ids = [...console.matchAll(/class='proxyid'>id : (\S+?),/g)].map((m) => m[1] as string);
  // One request per node: past MAX_NODES the grid is taken as saying nothing (its answer to the
  // session request says what it lacks), rather than as offering only what its first nodes do.
  if (ids.length > MAX_NODES) return null;
  const nodes = await Promise.all(
    ids.map((id) =>
      getJson(atRoot(endpoint, `/grid/api/proxy?id=${encodeURIComponent(id)}`), ASK_MS),
    ),
  );
  return nodes.flatMap((answer, i) => {
    const request = isObj(answer) && isObj(answer.request) ? answer.request : {};
    const config = isObj(request.configuration) ? request.configuration : {};
    const caps = Array.isArray(config.capabilities) ? config.capabilities.filter(isObj) : [];
    return caps.flatMap((c) => {
      const browserName = str(c.browserName);
      const slots = typeof c.maxInstances === 'number' ? c.maxInstances : 1;
      const platformName = str(c.platformName) ?? str(c.platform);
      return browserName
        ? [{ node: ids[i] as string, browserName, platformName, slots, free: 0 }]
        : [];
    });
  });
}

function offersOf(caps: readonly NodeCaps[]): GridOffer[] {
  const offers = new Map<string, GridOffer & { nodeSet: Set<string> }>();
  for (const c of caps) {
    const key = `${c.browserName}\u0000${c.platformName ?? ''}`;
    const o = offers.get(key) ?? { ...c, slots: 0, nodes: 0, nodeSet: new Set<string>() };
    o.slots += c.slots;
    o.nodeSet.add(c.node);
    o.nodes = o.nodeSet.size;
    offers.set(key, o);
  }
  return [...offers.values()].map(({ browserName, platformName, slots, nodes }) => ({
    browserName,
    platformName,
    slots,
    nodes,
  }));
}

/**
 * What Grid 4's /status answer says: what its nodes that are up offer, and their slots free and in
 * all (of `browserName` alone, when given). Null when the answer lists no nodes.
 */
export function grid4View(status: unknown, browserName?: string): GridView | null {
  const nodes = grid4Nodes(status);
  if (!nodes) return null;
  const caps = grid4Caps(nodes).filter(
    (c) => browserName === undefined || sameName(c.browserName, browserName),
  );
  const total = caps.reduce((n, c) => n + c.slots, 0);
  const free = caps.reduce((n, c) => n + c.free, 0);
  return { offers: offersOf(caps), slots: { free, total } };
}

/** The node of a session in Grid 4's /status answer; null when no node lists it. */
export function grid4Node(status: unknown, sessionId: string): string | null {
  const node = (grid4Nodes(status) ?? []).find(
    (n) =>
      Array.isArray(n.slots) &&
      n.slots.some((s) => isObj(s) && isObj(s.session) && s.session.sessionId === sessionId),
  );
  return node ? (str(node.uri) ?? str(node.id)) : null;
}

/** Grid 3's slots, free and in all, over every browser; null when it is not a Grid 3. */
async function grid3Slots(endpoint: string): Promise<GridView['slots']> {
  const hub = await getJson(atRoot(endpoint, '/grid/api/hub'), ASK_MS);
  const counts = isObj(hub) && isObj(hub.slotCounts) ? hub.slotCounts : null;
  return counts && typeof counts.free === 'number' && typeof counts.total === 'number'
    ? { free: counts.free, total: counts.total }
    : null;
}

/** What the grid at `endpoint` (the URL given to --remote) says it offers, and its free slots. */
export async function askGrid(endpoint: string): Promise<GridView> {
  const grid4 = grid4View(await getStatus(endpoint));
  if (grid4) return grid4;
  const slots = await grid3Slots(endpoint);
  if (!slots) return { offers: null, slots: null };
  const caps = await grid3Caps(endpoint);
  return { offers: caps ? offersOf(caps) : null, slots };
}

/** Free slots for `browserName`: Grid 4 counts them per browser, Grid 3 over every browser. */
export async function freeSlots(endpoint: string, browserName: string): Promise<GridView['slots']> {
  return grid4View(await getStatus(endpoint), browserName)?.slots ?? grid3Slots(endpoint);
}

export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The node a session runs on, as the grid names it; null when the grid does not say. */
export async function nodeOfSession(endpoint: string, sessionId: string): Promise<string | null> {
  const status = await getStatus(endpoint);
  if (grid4Nodes(status)) return grid4Node(status, sessionId);
  const answer = await getJson(
    atRoot(endpoint, `/grid/api/testsession?session=${encodeURIComponent(sessionId)}`),
    ASK_MS,
  );
  return isObj(answer) ? str(answer.proxyId) : null;
}

/** What the grid offers, in words: `chrome on LINUX (2 slots on 2 nodes)`; the first few, then how many more. */
export function describeOffers(offers: readonly GridOffer[]): string {
  if (offers.length === 0) return 'no browser (no node is registered)';
  return listedFew(
    offers.map(
      (o) =>
        `${o.browserName}${o.platformName ? ` on ${o.platformName}` : ''} (${o.slots} slot${o.slots === 1 ? '' : 's'} on ${o.nodes} node${o.nodes === 1 ? '' : 's'})`,
    ),
  );
}
