import type { Doc, StoreHandle } from '../src/core/store/adapter.ts';
import type { CaseIdentity } from '../src/core/base/identity.ts';
import type { CaseResult } from '../src/core/results/results.ts';
import {
  measuredRow,
  type DrivenSuite,
  type FixtureRequest,
  type StoreRequest,
} from '../src/core/run/driver-cases.ts';
import { quantile } from '../src/core/stats/stats.ts';
import { defineCase, type BenchCase, type Suite } from '../src/core/store/suite.ts';

/**
 * tabs: K tabs of one browser, each opening the same database at the same moment and doing the
 * same mix of writes and reads on it. Driven (src/core/run/driver-cases.ts): the sweep's Playwright driver
 * opens the K pages in one browser context and starts them together; each page runs `tabWork`
 * and reports every operation's latency and the IndexedDB `blocked` and `versionchange` events it
 * saw; the first tab then checks that every write is there once (`checkTabs`).
 *
 * A sample is one such run: its time is from the first tab's start to the last tab's end, over
 * K × ops operations, so ops/s is the total throughput. The `hidden-K` cases put every tab but
 * the first in the background, where the browser lets the driver do that.
 */
export type TabsVisibility = 'visible' | 'hidden';

/** What a tabs case measures: K tabs, whether all but the first are in the background, operations per tab. */
export interface TabsCase {
  k: number;
  visibility: TabsVisibility;
  ops: number;
}

/** The tabs case of a row's params, or null when they are not a tabs case's. */
export function tabsCaseOf(params: Readonly<Record<string, unknown>>): TabsCase | null {
  const { k, visibility, ops } = params;
  return typeof k === 'number' &&
    typeof ops === 'number' &&
    (visibility === 'visible' || visibility === 'hidden')
    ? { k, visibility, ops }
    : null;
}

function tabsCase({ k, visibility, ops }: TabsCase): BenchCase {
  return defineCase({
    id: `${visibility}-${k}`,
    title: `${k} tab${k === 1 ? '' : 's'} writing and reading one store${visibility === 'hidden' ? ', all but one in the background' : ''}`,
    needs: [],
    params: { k, visibility, ops },
    driven: `open ${k} tab${k === 1 ? '' : 's'} of one browser on the same store and start them together`,
    supports: (adapter) =>
      adapter.backend === 'memory'
        ? `${adapter.id} is private to each tab, so tabs share nothing`
        : true,
    operations: () => k * ops,
    run: () =>
      Promise.reject(new Error('the tabs suite is run by the sweep driver, not in the page')),
  });
}

/** What one tab does: `ops` operations, writes and reads in turn, on its own documents. */
export interface TabPlan {
  tab: number;
  ops: number;
}

/** What one tab saw. Times are epoch ms (performance.timeOrigin + now), comparable across tabs. */
export interface TabReport {
  startedAt: number;
  endedAt: number;
  /** ms of each operation, in order. */
  latencies: number[];
}

/** The id of the j-th document tab `tab` writes. */
export const tabDocId = (tab: number, j: number): string =>
  `tab-${tab}-${String(j).padStart(6, '0')}`;

/** Writes a tab makes in `ops` operations: the even ones. */
export const writesOf = (ops: number): number => Math.ceil(ops / 2);

/**
 * One tab's work: operation i writes this tab's next document when i is even, and reads back the
 * document it wrote last when i is odd (so every read hits). `docs` supplies the bodies.
 */
export async function tabWork(
  handle: StoreHandle,
  plan: TabPlan,
  docs: readonly Doc[],
  now: () => number,
): Promise<TabReport> {
  const latencies: number[] = [];
  const startedAt = now();
  let written = 0;
  for (let i = 0; i < plan.ops; i++) {
    // The document is built before the clock starts: only the store's call is timed.
    const doc =
      i % 2 === 0 ? { ...docs[written % docs.length], _id: tabDocId(plan.tab, written) } : null;
    const t0 = now();
    if (doc) {
      await handle.put(doc);
      written++;
    } else if ((await handle.get(tabDocId(plan.tab, written - 1))) === undefined) {
      throw new Error(
        `tab ${plan.tab} could not read back ${tabDocId(plan.tab, written - 1)}, which it wrote`,
      );
    }
    latencies.push(now() - t0);
  }
  return { startedAt, endedAt: now(), latencies };
}

/** How long the check waits for other tabs' writes to become visible before it calls them lost. */
export const SETTLE_MS = 5_000;

/** What the first tab found after every tab ended. */
export interface TabsCheck {
  /** Writes of any tab the first tab could not see at once (another tab's write still on its way). */
  unseen: number;
  /** ms until it saw them all (0 when it saw them at once; SETTLE_MS when it never did). */
  settleMs: number;
  /** Writes still missing after SETTLE_MS. */
  lost: number;
  /** Documents beyond those written (a duplicate, or a document nobody wrote). */
  extra: number;
}

/**
 * After every tab ended: which writes the first tab can read. localStorage, for one, shows another
 * tab's writes only some time later, so a write not seen at once is `unseen`, and `lost` only
 * when still missing after SETTLE_MS.
 */
export async function checkTabs(
  handle: StoreHandle,
  k: number,
  ops: number,
  now: () => number,
  wait: (ms: number) => Promise<void>,
): Promise<TabsCheck> {
  const missing = async () => {
    let n = 0;
    for (let tab = 0; tab < k; tab++)
      for (let j = 0; j < writesOf(ops); j++)
        if ((await handle.get(tabDocId(tab, j))) === undefined) n++;
    return n;
  };
  const t0 = now();
  const unseen = await missing();
  let lost = unseen;
  while (lost > 0 && now() - t0 < SETTLE_MS) {
    await wait(50);
    lost = await missing();
  }
  const settleMs = unseen === 0 ? 0 : Math.min(now() - t0, SETTLE_MS);
  return { unseen, settleMs, lost, extra: (await handle.count()) - (k * writesOf(ops) - lost) };
}

/** One tab's step of a sample: its plan and the moment (epoch ms) every tab starts. */
export interface TabRequest extends FixtureRequest {
  tab: number;
  ops: number;
  startAt: number;
}

/** What one tab's page reports: its work, and the IndexedDB events it saw meanwhile. */
export interface TabOutcome extends TabReport {
  blocked: number;
  versionchange: number;
}

/** The page's steps of the tabs suite (window.__storebenchTrials.tabs, suites/driven.ts). */
export interface TabsSteps {
  /** One tab: wait until `startAt`, open the store, do `tabWork`, close it. */
  work(request: TabRequest): Promise<TabOutcome>;
  /** After every tab ended, in the first: `checkTabs`; then the database is deleted. */
  check(request: StoreRequest & { k: number; ops: number }): Promise<TabsCheck>;
}

/** One sample: every tab's report, the IndexedDB events the tabs saw, and the check after. */
export interface TabsSample extends TabsCheck {
  tabs: TabReport[];
  blocked: number;
  versionchange: number;
}

/**
 * The row of a tabs case: per sample, the wall time over all tabs, and the metrics `p50Ms`,
 * `p95Ms`, `maxMs` (per operation, over every tab), `blocked`, `versionchange`, `unseen`,
 * `settleMs`, `lost`, `extra` (TabsCheck).
 * A sample that lost or duplicated a write makes the row an error: the store broke its contract.
 */
export function tabsRow(identity: CaseIdentity, samples: readonly TabsSample[]): CaseResult {
  const wall = samples.map(
    (s) => Math.max(...s.tabs.map((t) => t.endedAt)) - Math.min(...s.tabs.map((t) => t.startedAt)),
  );
  const all = samples.map((s) => s.tabs.flatMap((t) => t.latencies));
  const metrics = {
    p50Ms: all.map((l) => quantile(l, 0.5)),
    p95Ms: all.map((l) => quantile(l, 0.95)),
    maxMs: all.map((l) => Math.max(...l)),
    blocked: samples.map((s) => s.blocked),
    versionchange: samples.map((s) => s.versionchange),
    unseen: samples.map((s) => s.unseen),
    settleMs: samples.map((s) => s.settleMs),
    lost: samples.map((s) => s.lost),
    extra: samples.map((s) => s.extra),
  };
  const broken = samples.findIndex((s) => s.lost > 0 || s.extra !== 0);
  const s = samples[broken];
  if (s) {
    return {
      ...identity,
      samples: wall,
      warmup: [],
      metrics,
      status: 'error',
      reason: `sample ${broken + 1}: ${s.lost} write${s.lost === 1 ? '' : 's'} lost (still unseen ${SETTLE_MS / 1000} s after the tabs ended) and ${s.extra} document${s.extra === 1 ? '' : 's'} beyond those written, with ${String(identity.params.k)} tabs`,
    };
  }
  return measuredRow(identity, wall, { metrics });
}

export const tabsSuite: Suite<'tabs'> = {
  id: 'tabs',
  title: 'Several tabs',
  description:
    'K tabs of one browser writing and reading the same store at once: total throughput, p50/p95/max latency per operation, IndexedDB blocked and versionchange events, and a check that no write is lost or duplicated; also with all but one tab in the background where the browser allows. Driven by the sweep (Chromium, Firefox).',
  params: {
    tabs: { kind: 'ints', default: [1, 2, 4], min: 1, help: 'numbers of tabs (K)' },
    ops: {
      kind: 'int',
      default: 200,
      min: 2,
      help: 'operations per tab per sample, writes and reads in turn',
    },
    rounds: { kind: 'int', default: 6, min: 1, sampling: true, help: 'samples per row' },
  },
  cases: (params) => {
    const ks = params.tabs as readonly number[];
    const ops = params.ops as number;
    return [
      ...ks.map((k) => tabsCase({ k, visibility: 'visible', ops })),
      ...ks.filter((k) => k > 1).map((k) => tabsCase({ k, visibility: 'hidden', ops })),
    ];
  },
};

/**
 * `p50 0.41 ms, p95 1.9 ms, max 12 ms per operation; 0 blocked, 0 versionchange; 120 writes of
 * other tabs unseen at the end, all seen within 38 ms`: a tabs row's findings (medians over its
 * samples), or null for other rows.
 */
export function describeTabs(row: CaseResult): string | null {
  const m = row.metrics;
  if (row.suite !== tabsSuite.id || !m?.p50Ms || !m.p95Ms || !m.maxMs) return null;
  const ms = (xs: readonly number[]) => `${Number(quantile(xs, 0.5).toPrecision(2))} ms`;
  const total = (xs: readonly number[] | undefined) => (xs ?? []).reduce((a, b) => a + b, 0);
  const parts = [
    `median p50 ${ms(m.p50Ms)}, p95 ${ms(m.p95Ms)}, max ${ms(m.maxMs)} per operation`,
    `${total(m.blocked)} blocked, ${total(m.versionchange)} versionchange events`,
  ];
  const unseen = total(m.unseen);
  const settled = (m.settleMs ?? []).filter((_, i) => (m.unseen?.[i] ?? 0) > 0);
  if (unseen > 0)
    parts.push(
      `${unseen} writes of other tabs unseen by the first when all ended, in ${settled.length} of ${m.p50Ms.length} samples; seen within ${ms(settled)} (median of those)`,
    );
  return parts.join('; ');
}

export const tabsDriven: DrivenSuite<'tabs'> = {
  suite: tabsSuite,
  finding: {
    heading: 'Several tabs (the ms above are the wall time of all tabs together):',
    describe: describeTabs,
  },
  timedSection: true,
};
