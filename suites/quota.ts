import type { Doc, StoreHandle } from '../src/core/store/adapter.ts';
import { toError } from '../src/core/base/errors.ts';
import { formatBytes } from '../src/core/base/format.ts';
import type { CaseIdentity } from '../src/core/base/identity.ts';
import type { CaseResult } from '../src/core/results/results.ts';
import {
  measuredRow,
  type DrivenSuite,
  type FixtureRequest,
} from '../src/core/run/driver-cases.ts';
import { defineCase, type Suite } from '../src/core/store/suite.ts';
import { writeAll } from './prefill.ts';

/**
 * quota: how much of the fixture a store takes before it fails, under a small storage quota the
 * driver sets (Chromium: DevTools' Storage.overrideQuotaForOrigin; Firefox: the preference
 * dom.quotaManager.temporaryStorage.fixedLimit), so a run ends in seconds. Driven
 * (src/core/run/driver-cases.ts). The page writes chunks until a write fails (`fillUntilFull`), then
 * records the error the store gave, how many documents it holds, what
 * navigator.storage.estimate() says it used against the JSON bytes written, and whether
 * navigator.storage.persist() is granted where asking cannot raise a prompt.
 *
 * localStorage has its own limit (about 5 MB per origin), which no quota setting moves.
 */
const CHUNK = 100;

function fill(quotaMb: number, maxDocs: number) {
  return defineCase({
    id: 'fill',
    title: `write until the store fails, under a quota of ${quotaMb} MiB`,
    needs: [],
    params: { quotaMb, maxDocs },
    driven: 'set a small storage quota on a browser profile of its own',
    supports: (adapter) =>
      adapter.backend === 'memory'
        ? `${adapter.id} keeps its data in the page's memory, which no storage quota limits`
        : true,
    operations: () => 1,
    run: () =>
      Promise.reject(new Error('the quota suite is run by the sweep driver, not in the page')),
  });
}

/** What one fill found. */
export interface QuotaSample {
  /** ms of the write calls, from the first to the one that failed (or the cap). */
  ms: number;
  /** Documents acknowledged before the first write that failed. */
  docs: number;
  /** Documents the store holds afterwards (a bulk write that failed may have kept part); null when it could not say. */
  stored: number | null;
  /** UTF-16 code units of the acknowledged documents' JSON: what the store was given. */
  jsonBytes: number;
  /** navigator.storage.estimate() usage after the fill minus before it; null where there is none. */
  usageBytes: number | null;
  quotaBytes: number | null;
  /** navigator.storage.persist(): 1 granted, 0 refused; null where it was not asked. */
  persisted: number | null;
  /** The error of the write that failed, or why the fill stopped without one; then what failed after it. */
  error: string;
}

/** A fill's step: the documents after which it stops without a failure, and its time limit. */
export interface QuotaRequest extends FixtureRequest {
  maxDocs: number;
  /** ms the fill may take before it stops without a failure. */
  timeoutMs: number;
  /** Call navigator.storage.persist(): only where it cannot raise a prompt no one answers. */
  askPersist: boolean;
}

/** The page's steps of the quota suite (window.__storebenchTrials.quota, suites/driven.ts). */
export interface QuotaSteps {
  /** Fill a fresh database with `fillUntilFull`, then say what the store and the browser report; then delete it. */
  fill(request: QuotaRequest): Promise<QuotaSample>;
}

/**
 * Write `chunkOf(i)` chunks of CHUNK documents until a write fails or `maxDocs` are written;
 * `now` is the clock. Returns the documents acknowledged, the error, and `writeMs`: the time of
 * the write calls alone, the failing one included. Building the chunks and measuring their JSON
 * happen outside it.
 */
export async function fillUntilFull(
  handle: StoreHandle,
  chunkOf: (start: number, count: number) => Doc[],
  maxDocs: number,
  now: () => number,
  deadline: number,
): Promise<{ docs: number; jsonBytes: number; writeMs: number; error: string }> {
  let docs = 0;
  let jsonBytes = 0;
  let writeMs = 0;
  while (docs < maxDocs) {
    if (now() > deadline)
      return {
        docs,
        jsonBytes,
        writeMs,
        error: `no failure before the time limit, at ${docs} documents`,
      };
    const chunk = chunkOf(docs, Math.min(CHUNK, maxDocs - docs));
    const t0 = now();
    try {
      await writeAll(handle, chunk);
    } catch (e) {
      return { docs, jsonBytes, writeMs: writeMs + (now() - t0), error: storeError(e) };
    }
    writeMs += now() - t0;
    docs += chunk.length;
    for (const d of chunk) jsonBytes += JSON.stringify(d).length;
  }
  return { docs, jsonBytes, writeMs, error: `no failure within ${maxDocs} documents` };
}

/** The error as the store gave it: its name and first line (PouchDB's plain objects included). */
function storeError(thrown: unknown): string {
  const err = toError(thrown);
  const text = (err.message || err.name || 'unknown error').split('\n')[0] ?? '';
  return err.name && err.name !== 'Error' && !text.startsWith(err.name)
    ? `${err.name}: ${text}`
    : text;
}

/**
 * The row of the quota case: per fill, its time, and the metrics `docs`, `stored`, `jsonBytes`,
 * and where known `usageBytes`, `quotaBytes`, `persisted`; the error of each fill in `notes`.
 */
export function quotaRow(identity: CaseIdentity, samples: readonly QuotaSample[]): CaseResult {
  return measuredRow(
    identity,
    samples.map((s) => s.ms),
    quotaRecord(samples),
  );
}

/** What quota fills recorded besides their time: kept by a row that ended in an error too. */
export function quotaRecord(samples: readonly QuotaSample[]): {
  metrics: Record<string, number[]>;
  notes: string[];
} {
  const known = (k: 'stored' | 'usageBytes' | 'quotaBytes' | 'persisted') =>
    samples.every((s) => s[k] !== null) ? { [k]: samples.map((s) => s[k] as number) } : {};
  const metrics = {
    docs: samples.map((s) => s.docs),
    ...known('stored'),
    jsonBytes: samples.map((s) => s.jsonBytes),
    ...known('usageBytes'),
    ...known('quotaBytes'),
    ...known('persisted'),
  };
  return { metrics, notes: samples.map((s) => s.error) };
}

/**
 * `documents that fit per fill: 14,400 / 0 / 0 (3.43 MiB of JSON in the first); storage estimate
 * 5.05 MiB used after the first (×1.47 its JSON); …`: a quota row's findings, or null for other rows.
 * Every fill is listed: the first says how much fits; the later ones whether the store recovered
 * (deleted its full database and took writes again).
 */
export function describeQuota(row: CaseResult): string | null {
  const m = row.metrics;
  if (row.suite !== quotaSuite.id || !m?.docs || !m.jsonBytes) return null;
  const json = m.jsonBytes[0] ?? 0;
  const parts = [
    `documents that fit per fill: ${m.docs.map((d) => d.toLocaleString('en-US')).join(' / ')} (${formatBytes(json)} of JSON in the first)`,
  ];
  const used = m.usageBytes?.[0];
  if (used !== undefined)
    parts.push(
      `storage estimate ${formatBytes(used)} used after the first${json > 0 ? ` (×${(used / json).toFixed(2)} its JSON)` : ''}`,
    );
  if (m.quotaBytes) parts.push(`estimate's quota ${formatBytes(m.quotaBytes[0] ?? 0)}`);
  parts.push(
    m.persisted
      ? `persist() ${m.persisted.every((p) => p === 1) ? 'granted' : m.persisted.every((p) => p === 0) ? 'refused' : 'granted sometimes'}`
      : 'persist() not asked',
  );
  const first = row.notes?.[0];
  if (first !== undefined) parts.push(`the first fill stopped by: ${first}`);
  return parts.join('; ');
}

export const quotaSuite: Suite<'quota'> = {
  id: 'quota',
  title: 'Storage limits',
  description:
    'Write until the store fails, under a small quota the driver sets: how many documents fit, the error the store gives, how far navigator.storage.estimate() is from the bytes written, and whether navigator.storage.persist() is granted. Driven by the sweep (Chromium, Firefox).',
  params: {
    quotaMb: { kind: 'int', default: 5, min: 1, help: 'the storage quota the driver sets, in MiB' },
    maxDocs: {
      kind: 'int',
      default: 200_000,
      min: 1,
      help: 'documents after which a fill stops without a failure',
    },
    fills: {
      kind: 'int',
      default: 3,
      min: 1,
      sampling: true,
      help: 'fills per row (one sample each)',
    },
  },
  cases: (params) => [fill(params.quotaMb as number, params.maxDocs as number)],
};

export const quotaDriven: DrivenSuite<'quota'> = {
  suite: quotaSuite,
  finding: {
    heading: 'Storage limits (the ms above are the time of the write calls, until one failed):',
    describe: describeQuota,
  },
  timedSection: true,
};
