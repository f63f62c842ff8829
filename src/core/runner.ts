/**
 * The runner: executes a plan and emits events. It prints nothing, writes no files and touches
 * no DOM; the page, the sweep and the tests subscribe to its events and render in their own way.
 *
 * For each (suite, case, size) it takes warm-up rounds, then timed rounds. In every round each
 * adapter takes one sample, in a seeded random order, so slow drift of the machine (thermal,
 * background work) spreads over all adapters instead of landing on whichever ran last.
 * Each sample gets a fresh, uniquely named database that is deleted afterwards. Only `run` is
 * timed. A case has a time limit over all its samples; past it the case is `timeout`, and the
 * run goes on.
 */
import type { Doc, StoreAdapter, StoreHandle } from './adapter.ts';
import { CAPABILITIES, missingCapabilities } from './capabilities.ts';
import { CancelledError, errorMessage, TimeoutError, withTimeout } from './errors.ts';
import type { Plan } from './plan.ts';
import { createRng, deriveSeed, shuffled } from './random.ts';
import type { CaseResult, RunInfo } from './results.ts';
import { summarize } from './stats.ts';
import { resolveSuiteParams, type BenchCase, type CaseContext, type FixtureSource, type ParamValue, type Suite } from './suite.ts';
import { now } from './timer.ts';
import { chunks, fixtureShape, makeDocs } from '../../fixtures/index.ts';

export type RunEvent =
  | { type: 'run-start'; rows: number; samples: number }
  | { type: 'group-start'; suite: string; case: string; title: string; size: number; adapters: string[] }
  | {
      type: 'sample';
      suite: string;
      case: string;
      adapter: string;
      size: number;
      warmup: boolean;
      /** 1-based index of this sample within its kind (warm-up or timed). */
      index: number;
      of: number;
      ms: number;
      samplesDone: number;
      samplesTotal: number;
    }
  | { type: 'case-end'; result: CaseResult; rowsDone: number; rows: number }
  | { type: 'warning'; message: string }
  | { type: 'run-end'; cancelled: boolean };

export interface RunInput {
  plan: Plan;
  /** The suites and adapters the plan names, resolved from the registries by the caller. */
  suites: readonly Suite[];
  adapters: readonly StoreAdapter[];
  runId: string;
  signal?: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  /** Prefix of every database name the run creates. */
  dbPrefix?: string;
  /** Time allowed to delete one database after a sample, in ms. */
  cleanupTimeoutMs?: number;
  /**
   * Awaited before each sample, outside any timed section. The page passes one that yields to
   * the event loop: with a store whose operations resolve at once (memory) the run would
   * otherwise hold the main thread to the end, so Cancel could not be clicked and nothing painted.
   */
  betweenSamples?: () => Promise<void>;
}

export interface RunOutput {
  cases: CaseResult[];
  order: RunInfo['order'];
  cancelled: boolean;
  /** Databases created and not deleted (cleanup failed or hung). Ideally empty. */
  leftover: { adapter: string; name: string }[];
}

interface Row {
  adapter: StoreAdapter;
  samples: number[];
  warmup: number[];
  metrics: Record<string, number[]>;
  points: [number, number][][];
  /** Time spent on this row's own steps, against the case's time limit. */
  spentMs: number;
  failure?: { status: 'error' | 'timeout'; reason: string };
}

const SELF_OPEN_HANDLE = new Proxy({} as StoreHandle, {
  get(_target, prop) {
    if (prop === 'then') return undefined; // not a thenable
    return () => Promise.reject(new Error(`this case opens its own database (open: 'self'); ctx.handle.${String(prop)} is not available`));
  },
});

export async function runPlan(input: RunInput): Promise<RunOutput> {
  const { plan, signal, runId } = input;
  const emit = (event: RunEvent) => input.onEvent?.(event);
  const prefix = input.dbPrefix ?? 'storebench';
  const cleanupMs = input.cleanupTimeoutMs ?? 15_000;
  const shape = fixtureShape(plan.fixture);
  const fixture: FixtureSource = {
    shape: shape.id,
    seed: plan.seed,
    indexedFields: shape.indexedFields,
    docs: (count: number, start = 0): Doc[] => makeDocs(shape, plan.seed, count, start),
    chunks: (count: number, chunkSize: number, start = 0) => chunks(shape, plan.seed, count, chunkSize, start),
  };

  // Whether each adapter can run here at all, asked once.
  const support = new Map<string, true | string>();
  for (const adapter of input.adapters) {
    try {
      support.set(adapter.id, await adapter.supported());
    } catch (e) {
      support.set(adapter.id, `supported() threw: ${errorMessage(e)}`);
    }
  }

  const groups = input.suites.flatMap((suite) => {
    const params = resolveSuiteParams(suite, plan.params);
    return suite.cases(params).flatMap((c) => plan.sizes.map((size) => ({ suite, c, size })));
  });
  const roundsPerRow = plan.warmup + plan.iterations;
  const runnable = (a: StoreAdapter, c: BenchCase) => support.get(a.id) === true && missingCapabilities(c.needs, a.capabilities).length === 0;
  const rowsTotal = groups.length * input.adapters.length;
  const samplesTotal = groups.reduce((sum, g) => sum + input.adapters.filter((a) => runnable(a, g.c)).length * roundsPerRow, 0);
  emit({ type: 'run-start', rows: rowsTotal, samples: samplesTotal });

  const cases: CaseResult[] = [];
  const order: RunInfo['order'] = [];
  const created = new Map<string, StoreAdapter>(); // databases created and not yet deleted
  let samplesDone = 0;
  let seq = 0;
  let cancelled = false;

  const cancelPromise = new Promise<never>((_, reject) => {
    const onAbort = () => reject(new CancelledError('cancelled'));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  cancelPromise.catch(() => {});

  /** Run one step of a sample against the row's remaining time, and against Cancel. */
  const step = async <T>(row: Row, what: string, work: Promise<T>): Promise<T> => {
    const start = now();
    try {
      return await Promise.race([withTimeout(work, plan.timeoutMs - row.spentMs, what), cancelPromise]);
    } finally {
      row.spentMs += now() - start;
    }
  };

  const dispose = async (adapter: StoreAdapter, name: string, handle: StoreHandle | undefined) => {
    try {
      if (handle) await withTimeout(handle.destroy(), cleanupMs, `destroying ${name}`);
      else await withTimeout(adapter.destroy(name), cleanupMs, `deleting ${name}`);
      created.delete(name);
    } catch (first) {
      try {
        // The handle may be wedged by a hung operation; deleting by name is the fallback.
        if (handle) {
          await withTimeout(adapter.destroy(name), cleanupMs, `deleting ${name}`);
          created.delete(name);
          return;
        }
      } catch {
        /* reported below */
      }
      emit({ type: 'warning', message: `${adapter.id}: could not delete database ${name}: ${errorMessage(first)}` });
    }
  };

  /** One sample: its time, and the metrics and points the case recorded along the way. */
  interface Sample {
    ms: number;
    metrics: Record<string, number>;
    points: [number, number][];
  }

  const takeSample = async (row: Row, c: BenchCase, size: number, params: Record<string, ParamValue>, sampleIndex: number): Promise<Sample> => {
    const { adapter } = row;
    const metrics: Record<string, number> = {};
    const points: [number, number][] = [];
    const name = `${prefix}-${runId}-${++seq}`;
    created.set(name, adapter);
    let handle: StoreHandle | undefined;
    try {
      if (c.open !== 'self') handle = await step(row, `${adapter.id}: open`, adapter.open(name, c.openOptions));
      const ctx: CaseContext = {
        adapter,
        handle: handle ?? SELF_OPEN_HANDLE,
        dbName: name,
        size,
        params,
        fixture,
        rng: createRng(deriveSeed(plan.seed, `${c.id}/${size}/${sampleIndex}`)),
        signal: signal ?? new AbortController().signal,
        now,
        metric: (metricName, value) => {
          metrics[metricName] = value;
        },
        point: (x, y) => {
          points.push([x, y]);
        },
      };
      const state = c.setup ? await step(row, `${c.id} setup`, c.setup(ctx)) : undefined;
      const timed = async () => {
        const t0 = now();
        const own = await c.run(ctx, state);
        const t1 = now();
        return typeof own === 'number' ? own : t1 - t0;
      };
      const ms = await step(row, `${c.id} run`, timed());
      if (c.verify) await step(row, `${c.id} verify`, c.verify(ctx, state));
      if (c.teardown) await step(row, `${c.id} teardown`, c.teardown(ctx, state));
      return { ms, metrics, points };
    } finally {
      await dispose(adapter, name, handle);
    }
  };

  let rowsDone = 0;
  const finishRow = (result: CaseResult) => {
    cases.push(result);
    rowsDone++;
    emit({ type: 'case-end', result, rowsDone, rows: rowsTotal });
  };

  outer: for (const { suite, c, size } of groups) {
    const params = resolveSuiteParams(suite, plan.params);
    const base = (adapter: StoreAdapter) => ({
      suite: suite.id,
      case: c.id,
      title: c.title,
      adapter: adapter.id,
      size,
      params: { ...params, ...c.params },
      operations: c.operations(size),
    });
    const rows: Row[] = [];
    for (const adapter of input.adapters) {
      const ok = support.get(adapter.id) ?? 'not checked';
      const missing = missingCapabilities(c.needs, adapter.capabilities);
      if (ok !== true) finishRow({ ...base(adapter), status: 'unsupported', reason: ok, samples: [], warmup: [] });
      else if (missing.length > 0) {
        const reason = `needs ${missing.map((m) => `${m} (${CAPABILITIES[m]})`).join(', ')}, which ${adapter.id} does not declare`;
        finishRow({ ...base(adapter), status: 'unsupported', reason, samples: [], warmup: [] });
      } else rows.push({ adapter, samples: [], warmup: [], metrics: {}, points: [], spentMs: 0 });
    }
    if (rows.length === 0) continue;
    emit({ type: 'group-start', suite: suite.id, case: c.id, title: c.title, size, adapters: rows.map((r) => r.adapter.id) });

    const orderRng = createRng(deriveSeed(plan.seed, `order/${suite.id}/${c.id}/${size}`));
    const rounds: string[][] = [];
    order.push({ suite: suite.id, case: c.id, size, rounds });
    for (let round = 0; round < roundsPerRow; round++) {
      const isWarmup = round < plan.warmup;
      const roundRows = shuffled(rows, orderRng);
      rounds.push(roundRows.map((r) => r.adapter.id));
      for (const row of roundRows) {
        if (input.betweenSamples) await input.betweenSamples();
        if (signal?.aborted) {
          cancelled = true;
          break outer;
        }
        if (row.failure) {
          samplesDone++; // its remaining samples will never run; keep the progress total honest
          continue;
        }
        try {
          const { ms, metrics, points } = await takeSample(row, c, size, params, round);
          if (isWarmup) row.warmup.push(ms);
          else {
            row.samples.push(ms);
            for (const [name, value] of Object.entries(metrics)) (row.metrics[name] ??= []).push(value);
            row.points.push(points);
          }
          emit({
            type: 'sample',
            suite: suite.id,
            case: c.id,
            adapter: row.adapter.id,
            size,
            warmup: isWarmup,
            index: isWarmup ? round + 1 : round - plan.warmup + 1,
            of: isWarmup ? plan.warmup : plan.iterations,
            ms,
            samplesDone: ++samplesDone,
            samplesTotal,
          });
        } catch (e) {
          samplesDone++;
          if (e instanceof CancelledError) {
            cancelled = true;
            break outer;
          }
          const taken = `after ${row.samples.length} of ${plan.iterations} samples`;
          row.failure =
            e instanceof TimeoutError
              ? { status: 'timeout', reason: `cut off at the ${plan.timeoutMs} ms time limit ${taken}: ${e.message}` }
              : { status: 'error', reason: `${errorMessage(e)} (${taken})` };
        }
      }
    }
    for (const row of rows) {
      const common = {
        ...base(row.adapter),
        samples: row.samples,
        warmup: row.warmup,
        ...(Object.keys(row.metrics).length > 0 ? { metrics: row.metrics } : {}),
        ...(c.series ? { series: { ...c.series, samples: row.points } } : {}),
      };
      if (row.failure) finishRow({ ...common, ...row.failure });
      else finishRow({ ...common, status: 'ok', reason: null, stats: summarize(row.samples) });
    }
  }

  // Delete anything a cancelled or wedged sample left behind, and report what could not be.
  for (const [name, adapter] of [...created]) await dispose(adapter, name, undefined);
  emit({ type: 'run-end', cancelled });
  return { cases, order, cancelled, leftover: [...created].map(([name, adapter]) => ({ adapter: adapter.id, name })) };
}
