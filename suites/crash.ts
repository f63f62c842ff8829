import type { Doc, Durability, StoreAdapter, StoreHandle } from '../src/core/store/adapter.ts';
import type { CaseIdentity } from '../src/core/base/identity.ts';
import type { CaseResult } from '../src/core/results/results.ts';
import { assertMethods, type HandleFor } from '../src/core/store/capability-methods.ts';
import {
  measuredRow,
  type CaseRequest,
  type DrivenSuite,
  type StoreRequest,
} from '../src/core/run/driver-cases.ts';
import { wilsonInterval, type Interval } from '../src/core/stats/stats.ts';
import { defineCase, type BenchCase, type Suite } from '../src/core/store/suite.ts';

/**
 * crash: does a write the store acknowledged survive the browser being killed?
 *
 * The page cannot kill its own browser, so these cases are driven (src/core/run/driver-cases.ts). The
 * sweep's Playwright driver starts the browser on a profile it keeps on disk, and the page writes
 * documents, reporting each acknowledged write to the driver as it goes (`writeAcknowledged`). At
 * a seeded number of acknowledgements the driver kills every process of the browser with SIGKILL,
 * starts it again on the same profile, and the page reports which acknowledged documents are
 * there (`survivors`). A lost write is one the store acknowledged and no longer has.
 *
 * What a process kill cannot show: a power cut or an OS crash. The operating system still writes
 * out what the browser handed it, so data a store wrote but never flushed survives here. The
 * durability modes differ in exactly that flush, so equal losses across them are expected.
 */
const LEVELS: readonly Durability[] = ['default', 'relaxed', 'strict'];

/** Documents one bulk write acknowledges at once. */
const BULK_CHUNK = 10;

/** What the page does in one trial: one write call per chunk of `chunkSize` documents. */
export interface CrashWrite {
  durability: Durability;
  /** 1: one `put` awaited per document; more: one `bulkPut` per chunk. */
  chunkSize: number;
}

const KILL = 'kill the browser and restart it on the same profile';

function crashCase(write: 'serial' | 'bulk', durability: Durability): BenchCase {
  const chunkSize = write === 'serial' ? 1 : BULK_CHUNK;
  return defineCase({
    id: `${write}-${durability}`,
    title:
      write === 'serial'
        ? `one write at a time, durability ${durability}, killed`
        : `bulk writes of ${chunkSize}, durability ${durability}, killed`,
    needs: [
      ...(write === 'bulk' ? (['bulkWrite'] as const) : []),
      ...(durability === 'default' ? [] : (['durability'] as const)),
    ],
    params: { durability, chunkSize },
    openOptions: { durability },
    driven: KILL,
    supports: (adapter) =>
      persistsAcrossRestart(adapter)
        ? true
        : `${adapter.id} keeps nothing across a browser restart, so there is nothing a crash could lose`,
    // One sample is one kill; its time is the mean ms per acknowledged write before the kill.
    operations: () => 1,
    run: () =>
      Promise.reject(new Error('the crash suite is run by the sweep driver, not in the page')),
  });
}

function persistsAcrossRestart(adapter: StoreAdapter): boolean {
  return adapter.backend !== 'memory';
}

/** The write a crash case does, from its params. */
export function crashWriteOf(params: Readonly<Record<string, unknown>>): CrashWrite {
  const durability = params.durability;
  const chunkSize = params.chunkSize;
  if (
    !LEVELS.includes(durability as Durability) ||
    typeof chunkSize !== 'number' ||
    !(chunkSize >= 1)
  ) {
    throw new RangeError(`not the params of a crash case: ${JSON.stringify(params)}`);
  }
  return { durability: durability as Durability, chunkSize };
}

/**
 * Write `docs` in order, one call per chunk, and report each chunk once the store acknowledged it,
 * with the ms since the first write began. Runs until every document is written or the browser
 * is killed.
 */
export async function writeAcknowledged(
  handle: StoreHandle,
  docs: readonly Doc[],
  write: CrashWrite,
  ack: (ids: string[], ms: number) => void,
  now: () => number,
): Promise<void> {
  // Bulk writes need the method bulkWrite guarantees: checked before the first write, not timed.
  const bulk = write.chunkSize === 1 ? null : bulkWriter(handle);
  const t0 = now();
  for (let i = 0; i < docs.length; i += write.chunkSize) {
    const chunk = docs.slice(i, i + write.chunkSize);
    if (!bulk) await handle.put(chunk[0]!);
    else await bulk.bulkPut(chunk);
    ack(
      chunk.map((d) => d._id),
      now() - t0,
    );
  }
}

function bulkWriter(handle: StoreHandle): HandleFor<'bulkWrite'> {
  assertMethods(handle, ['bulkWrite'], 'the store this trial writes to');
  return handle;
}

/** Which of `ids` the store holds after the restart, and how many documents it holds in all. */
export async function survivors(
  handle: StoreHandle,
  ids: readonly string[],
): Promise<{ present: string[]; count: number }> {
  const present: string[] = [];
  for (const id of ids) if ((await handle.get(id)) !== undefined) present.push(id);
  return { present, count: await handle.count() };
}

/** The page's steps of the crash suite (window.__storebenchTrials.crash, suites/driven.ts). */
export interface CrashSteps {
  /**
   * Write the fixture's first `size` documents with `writeAcknowledged`, calling
   * window.__storebenchAck(ids, ms), a binding the driver exposes, after each acknowledged write.
   * Resolves when all are written; the driver usually kills the browser before that.
   */
  write(request: CaseRequest): Promise<'written'>;
  /** After the restart: `survivors` of `ids`; then the database is deleted. */
  survivors(
    request: StoreRequest & { params: Record<string, unknown>; ids: string[] },
  ): Promise<{ present: string[]; count: number }>;
}

/** One kill, as the driver saw it. */
export interface CrashTrial {
  /** Ids the page reported acknowledged before the kill, in order. */
  acknowledged: string[];
  /** ms from the first write to the last acknowledgement the driver received. */
  elapsedMs: number;
  /** Of `acknowledged`, those the store held after the restart. */
  present: string[];
  /** Documents the store held after the restart. */
  count: number;
}

/**
 * The row of a crash case: one sample per kill, its time the mean ms per acknowledged write
 * before it, and per kill the metrics `acknowledged`, `lost` (acknowledged, then gone) and
 * `unacknowledged` (held after the restart but never acknowledged: writes in flight that landed).
 */
export function crashRow(identity: CaseIdentity, trials: readonly CrashTrial[]): CaseResult {
  const { samples, metrics } = crashRecord(trials);
  if (samples.length === 0)
    return {
      ...identity,
      samples,
      warmup: [],
      metrics,
      status: 'error',
      reason: 'no write was acknowledged before any kill',
    };
  return measuredRow(identity, samples, { metrics });
}

/** The samples and metrics of the kills that came after an acknowledged write. */
export function crashRecord(trials: readonly CrashTrial[]): {
  samples: number[];
  metrics: Record<string, number[]>;
} {
  const counted = trials.filter((t) => t.acknowledged.length > 0);
  return {
    samples: counted.map((t) => t.elapsedMs / t.acknowledged.length),
    metrics: {
      acknowledged: counted.map((t) => t.acknowledged.length),
      lost: counted.map((t) => t.acknowledged.length - t.present.length),
      unacknowledged: counted.map((t) => t.count - t.present.length),
    },
  };
}

/** A crash row's finding: acknowledged writes lost over all its kills, and the kills that lost any. */
export interface LostWrites {
  lost: number;
  acknowledged: number;
  kills: number;
  killsWithLoss: number;
  /** 95% Wilson interval of the share of kills that lose an acknowledged write (stats.ts). */
  lossRate: Interval | null;
}

export function lostWrites(row: CaseResult): LostWrites | null {
  const lost = row.metrics?.lost;
  const acknowledged = row.metrics?.acknowledged;
  if (row.suite !== crashSuite.id || !lost || !acknowledged) return null;
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const killsWithLoss = lost.filter((n) => n > 0).length;
  return {
    lost: sum(lost),
    acknowledged: sum(acknowledged),
    kills: lost.length,
    killsWithLoss,
    lossRate: wilsonInterval(killsWithLoss, lost.length),
  };
}

/**
 * `lost 12 of 291 acknowledged writes; 3 of 5 kills lost some (95% CI 23–88% of kills)`: a crash
 * row's finding in words, or null for other rows.
 */
export function describeLost(row: CaseResult): string | null {
  const l = lostWrites(row);
  if (!l) return null;
  const rate = l.lossRate
    ? ` (95% CI ${Math.round(l.lossRate.lo * 100)}–${Math.round(l.lossRate.hi * 100)}% of kills)`
    : '';
  return `lost ${l.lost} of ${l.acknowledged} acknowledged write${l.acknowledged === 1 ? '' : 's'}; ${l.killsWithLoss} of ${l.kills} kill${l.kills === 1 ? '' : 's'} lost some${rate}`;
}

export const crashSuite: Suite<'crash'> = {
  id: 'crash',
  title: 'Crash durability',
  description:
    "Writes acknowledged by the store, then the browser killed with SIGKILL at a seeded point and started again on the same profile: how many acknowledged writes are gone. One sample per kill; durability 'default', 'relaxed' and 'strict' where the store can set it. Driven by the sweep (Chromium, Firefox).",
  params: {
    kills: {
      kind: 'int',
      default: 5,
      min: 1,
      sampling: true,
      help: 'kills per row (one sample each)',
    },
  },
  cases: () => LEVELS.flatMap((d) => [crashCase('serial', d), crashCase('bulk', d)]),
};

export const crashDriven: DrivenSuite<'crash'> = {
  suite: crashSuite,
  finding: {
    heading:
      'Crash durability (acknowledged writes gone after SIGKILL and restart; the ms above are per acknowledged write):',
    describe: describeLost,
  },
  // A sample is a whole kill's time over its acknowledged writes, never a short timed section.
  timedSection: false,
};
