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
 *
 * Measurements that would disturb the timed samples (a probe that makes the page render every
 * frame, a heap measurement that forces a garbage collection) run in a measurement pass of their
 * own: after a group's timed rounds, each ok row runs its case once more, untimed.
 *
 * With `plan.auto`, a row keeps taking samples until its 95% interval is narrow enough or it hits
 * a cap; rounds go on while any row of the group still needs samples, and rows that are done sit
 * the later rounds out. Every ok row records why it stopped and which samples are outliers.
 */
import type { Doc, StoreAdapter, StoreHandle } from './adapter.ts';
import { CAPABILITIES, missingCapabilities } from './capabilities.ts';
import { CancelledError, errorMessage, TimeoutError, withTimeout } from './errors.ts';
import { PlanError, type Plan } from './plan.ts';
import { createRng, deriveSeed, shuffled } from './random.ts';
import { selectShard } from './shard.ts';
import type { CaseResult, RunInfo, StopReason } from './results.ts';
import { outlierIndexes, summarize } from './stats.ts';
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

/**
 * Measures something while a case runs, e.g. how long the page's main thread was blocked. It
 * runs in the measurement pass only, never in a timed sample: `start` is awaited just before the
 * pass's `run` and `stop` just after it. What it has the browser do meanwhile (the page's probe
 * asks for every animation frame, so the page renders 60 times a second) would otherwise slow the
 * samples: in Chromium here a 10,000-document IndexedDB put ran 1 to 3% slower with it
 * (npm run bench:overhead). Its values become the row's `blocking`; a probe that fails is
 * reported as a warning and never fails the case.
 */
export interface PassProbe {
  start(): void | Promise<void>;
  stop(): Record<string, number> | Promise<Record<string, number>>;
}

/**
 * Measures what a store keeps after a case, e.g. the bytes it stored and the heap. It runs in the
 * measurement pass of the rows it applies to, with `before` awaited before the database is
 * opened and `after` after `run` and `verify`, before `teardown` and the deletion. Its values
 * become the row's `footprint`.
 *
 * Not in the timed samples, because measuring can disturb them: Chromium's heap measurement
 * forces a garbage collection, and a sample right after one ran about 6% faster in a test here.
 * After the pass come the next group's warm-up samples, which absorb that.
 */
export interface FootprintProbe {
  appliesTo(suite: string, caseId: string): boolean;
  before(): Promise<void>;
  after(): Promise<Record<string, number>>;
}

/** Time allowed to a probe's own step; past it the measurement is dropped, not the case. */
const PROBE_TIMEOUT_MS = 30_000;

/** k of the outlier bound: median ± k·MAD·1.4826 is ± 3 standard deviations for normal data. */
export const OUTLIER_K = 3;

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
  /** Around `run` in each ok row's measurement pass (see PassProbe). */
  probe?: PassProbe;
  /** In the measurement pass of the rows it applies to (see FootprintProbe). */
  footprint?: FootprintProbe;
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
  /** Samples started, warm-up included. */
  attempted: number;
  failure?: { status: 'error' | 'timeout'; reason: string };
  stopped?: StopReason;
  blocking?: Record<string, number>;
  footprint?: Record<string, number>;
}

/**
 * The case groups a plan runs: each chosen suite's cases (only `plan.cases` when given) at each
 * size. Throws PlanError when `plan.cases` names a case none of the chosen suites has, so a typo
 * fails before anything runs instead of silently running nothing.
 */
export function planGroups(plan: Plan, suites: readonly Suite[]): { suite: Suite; c: BenchCase; size: number }[] {
  const all = suites.map((suite) => ({ suite, cases: suite.cases(resolveSuiteParams(suite, plan.params)) }));
  const wanted = plan.cases;
  if (wanted) {
    const known = new Set(all.flatMap((s) => s.cases.map((c) => c.id)));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw new PlanError(`cases: unknown ${unknown.map((id) => `"${id}"`).join(', ')} in suites ${suites.map((s) => s.id).join(', ')}; allowed: ${[...known].join(', ')}`);
    }
  }
  return all.flatMap(({ suite, cases }) =>
    cases.filter((c) => !wanted || wanted.includes(c.id)).flatMap((c) => plan.sizes.map((size) => ({ suite, c, size }))),
  );
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

  // First, so a plan naming an unknown case fails before any store is asked anything.
  const groups = selectShard(planGroups(plan, input.suites), plan.shard, (g) => g.size);

  // Whether each adapter can run here at all, asked once.
  const support = new Map<string, true | string>();
  for (const adapter of input.adapters) {
    try {
      support.set(adapter.id, await adapter.supported());
    } catch (e) {
      support.set(adapter.id, `supported() threw: ${errorMessage(e)}`);
    }
  }

  const auto = plan.auto;
  /** Timed samples a row takes at most: the fixed count, or auto's ceiling. */
  const maxTimed = auto ? auto.maxN : plan.iterations;
  const perRow = plan.warmup + maxTimed;
  const runnable = (a: StoreAdapter, c: BenchCase) => support.get(a.id) === true && missingCapabilities(c.needs, a.capabilities).length === 0;
  const rowsTotal = groups.length * input.adapters.length;
  // An upper bound: a row that stops early (auto, error, timeout) takes its unused samples off it,
  // so samplesDone reaches samplesTotal when the run ends.
  let samplesTotal = groups.reduce((sum, g) => sum + input.adapters.filter((a) => runnable(a, g.c)).length * perRow, 0);
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

  const warned = new Set<string>();
  /** A measurement that failed is worth one warning per run, not one per sample. */
  const warnOnce = (what: string, e: unknown) => {
    if (warned.has(what)) return;
    warned.add(what);
    emit({ type: 'warning', message: `${what} failed; its metrics are left out: ${errorMessage(e)}` });
  };

  // A hung pass's run can still finish after its step was cut off, while a later pass owns the
  // probe; only the owner may stop it.
  let probeOwner: object | null = null;
  const startProbe = async (owner: object) => {
    if (!input.probe) return;
    try {
      probeOwner = owner;
      await withTimeout(Promise.resolve(input.probe.start()), PROBE_TIMEOUT_MS, 'the probe\'s start');
    } catch (e) {
      warnOnce('the probe', e);
    }
  };
  const stopProbe = async (owner: object): Promise<Record<string, number>> => {
    if (!input.probe || probeOwner !== owner) return {};
    probeOwner = null;
    try {
      return await withTimeout(Promise.resolve(input.probe.stop()), PROBE_TIMEOUT_MS, 'the probe\'s stop');
    } catch (e) {
      warnOnce('the probe', e);
      return {};
    }
  };

  /** One sample: its time, and the metrics and points the case recorded along the way. */
  interface Sample {
    ms: number;
    metrics: Record<string, number>;
    points: [number, number][];
    /** Measurement pass only: what its probe and footprint measured. */
    blocking?: Record<string, number>;
    footprint?: Record<string, number>;
  }

  /** The probes of a measurement pass; a timed sample has none. */
  interface Pass {
    probe?: PassProbe;
    footprint?: FootprintProbe;
  }

  /**
   * One sample. With `pass`, the measurement pass instead: the same steps with the pass's probes
   * around them; its time is not a sample.
   */
  const takeSample = async (row: Row, c: BenchCase, size: number, params: Record<string, ParamValue>, sampleIndex: number, pass?: Pass): Promise<Sample> => {
    const { adapter } = row;
    const metrics: Record<string, number> = {};
    const points: [number, number][] = [];
    const name = `${prefix}-${runId}-${++seq}`;
    const owner = {};
    const footprint = pass?.footprint;
    let blocking: Record<string, number> | undefined;
    if (footprint) await withTimeout(footprint.before(), PROBE_TIMEOUT_MS, 'the footprint\'s baseline');
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
      const probed = pass?.probe !== undefined;
      const timed = async () => {
        if (probed) await startProbe(owner);
        try {
          const t0 = now();
          const own = await c.run(ctx, state);
          const t1 = now();
          return typeof own === 'number' ? own : t1 - t0;
        } finally {
          if (probed) blocking = await stopProbe(owner);
        }
      };
      const ms = await step(row, `${c.id} run`, timed());
      if (c.verify) await step(row, `${c.id} verify`, c.verify(ctx, state));
      const measured = footprint ? await withTimeout(footprint.after(), PROBE_TIMEOUT_MS, 'the footprint measurement') : undefined;
      if (c.teardown) await step(row, `${c.id} teardown`, c.teardown(ctx, state));
      return { ms, metrics, points, ...(blocking ? { blocking } : {}), ...(measured ? { footprint: measured } : {}) };
    } finally {
      // A pass cut off by its time limit never reached its own stop.
      await stopProbe(owner);
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
        const why = missing.map((m) => adapter.lacks?.[m]).filter(Boolean);
        const reason = `needs ${missing.map((m) => `${m} (${CAPABILITIES[m]})`).join(', ')}, which ${adapter.id} does not declare${why.length > 0 ? `: ${why.join('; ')}` : ''}`;
        finishRow({ ...base(adapter), status: 'unsupported', reason, samples: [], warmup: [] });
      } else rows.push({ adapter, samples: [], warmup: [], metrics: {}, points: [], spentMs: 0, attempted: 0 });
    }
    if (rows.length === 0) continue;
    emit({ type: 'group-start', suite: suite.id, case: c.id, title: c.title, size, adapters: rows.map((r) => r.adapter.id) });

    const orderRng = createRng(deriveSeed(plan.seed, `order/${suite.id}/${c.id}/${size}`));
    const rounds: string[][] = [];
    order.push({ suite: suite.id, case: c.id, size, rounds });
    /** The row takes no more samples: its unused ones come off the progress total. */
    const retire = (row: Row) => {
      samplesTotal -= perRow - row.attempted;
    };
    /** After a timed sample: whether the row has enough, and why. */
    const stopReason = (row: Row): StopReason | undefined => {
      const n = row.samples.length;
      if (!auto) return n >= plan.iterations ? 'iterations' : undefined;
      if (n >= auto.minN) {
        const s = summarize(row.samples);
        // ci95 <= target × mean, rather than a ratio, so a row of zeros (below the timer step) stops too.
        if (s.ci95 !== null && s.ci95 <= auto.targetRelCi * s.mean) return 'ci-target';
      }
      if (n >= auto.maxN) return 'iterations';
      // Stop before a sample that would likely run past the case's time limit: that would turn a
      // row with good samples into a timeout. The cost of a sample so far is the best guess.
      const perSample = row.spentMs / row.attempted;
      if (row.spentMs >= auto.maxMs || row.spentMs + perSample > plan.timeoutMs) return 'time-cap';
      return undefined;
    };

    for (let round = 0; ; round++) {
      const isWarmup = round < plan.warmup;
      const active = rows.filter((r) => !r.failure && !r.stopped);
      if (active.length === 0) break;
      const roundRows = shuffled(active, orderRng);
      rounds.push(roundRows.map((r) => r.adapter.id));
      for (const row of roundRows) {
        if (input.betweenSamples) await input.betweenSamples();
        if (signal?.aborted) {
          cancelled = true;
          break outer;
        }
        row.attempted++;
        try {
          const { ms, metrics, points } = await takeSample(row, c, size, params, round);
          if (isWarmup) row.warmup.push(ms);
          else {
            row.samples.push(ms);
            for (const [name, value] of Object.entries(metrics)) {
              // A metric missing from an earlier sample would no longer line up with its sample.
              const list = (row.metrics[name] ??= new Array<number>(row.samples.length - 1).fill(NaN));
              list.push(value);
            }
            for (const list of Object.values(row.metrics)) if (list.length < row.samples.length) list.push(NaN);
            row.points.push(points);
          }
          emit({
            type: 'sample',
            suite: suite.id,
            case: c.id,
            adapter: row.adapter.id,
            size,
            warmup: isWarmup,
            index: isWarmup ? round + 1 : row.samples.length,
            of: isWarmup ? plan.warmup : maxTimed,
            ms,
            samplesDone: ++samplesDone,
            samplesTotal,
          });
          if (!isWarmup) {
            row.stopped = stopReason(row);
            if (row.stopped) retire(row);
          }
        } catch (e) {
          samplesDone++;
          if (e instanceof CancelledError) {
            cancelled = true;
            break outer;
          }
          const taken = `after ${row.samples.length} of ${auto ? `up to ${maxTimed}` : maxTimed} samples`;
          row.failure =
            e instanceof TimeoutError
              ? { status: 'timeout', reason: `cut off at the ${plan.timeoutMs} ms time limit ${taken}: ${e.message}` }
              : { status: 'error', reason: `${errorMessage(e)} (${taken})` };
          retire(row);
        }
      }
    }
    const pass: Pass = { probe: input.probe, footprint: input.footprint?.appliesTo(suite.id, c.id) ? input.footprint : undefined };
    if (pass.probe || pass.footprint) {
      for (const row of rows) {
        if (row.failure || row.samples.length === 0) continue;
        if (input.betweenSamples) await input.betweenSamples();
        if (signal?.aborted) {
          cancelled = true;
          break outer;
        }
        // The pass is not a sample: it gets the case time limit of its own, so a row whose samples
        // used most of theirs (auto's time cap stops just short of it) is still measured.
        row.spentMs = 0;
        try {
          const measured = await takeSample(row, c, size, params, -1, pass);
          if (measured.blocking && Object.keys(measured.blocking).length > 0) row.blocking = measured.blocking;
          if (measured.footprint && Object.keys(measured.footprint).length > 0) row.footprint = measured.footprint;
        } catch (e) {
          if (e instanceof CancelledError) {
            cancelled = true;
            break outer;
          }
          // The samples are good; a store that fails only when measured loses only the measurement.
          warnOnce(`the measurement pass (${row.adapter.id}, ${c.id})`, e);
        }
      }
    }
    for (const row of rows) {
      // Metrics that some sample could not record (a probe that failed once) are dropped whole:
      // a value that cannot be matched to its sample is worse than none.
      const metrics = Object.fromEntries(Object.entries(row.metrics).filter(([, list]) => list.every(Number.isFinite)));
      const common = {
        ...base(row.adapter),
        samples: row.samples,
        warmup: row.warmup,
        ...(Object.keys(metrics).length > 0 ? { metrics } : {}),
        ...(c.series ? { series: { ...c.series, samples: row.points } } : {}),
      };
      if (row.failure) finishRow({ ...common, ...row.failure });
      else {
        finishRow({
          ...common,
          status: 'ok',
          reason: null,
          stats: summarize(row.samples),
          stopped: row.stopped ?? 'iterations',
          outliers: { k: OUTLIER_K, indexes: outlierIndexes(row.samples, OUTLIER_K) },
          ...(row.blocking ? { blocking: row.blocking } : {}),
          ...(row.footprint ? { footprint: row.footprint } : {}),
        });
      }
    }
  }

  // Delete anything a cancelled or wedged sample left behind, and report what could not be.
  for (const [name, adapter] of [...created]) await dispose(adapter, name, undefined);
  emit({ type: 'run-end', cancelled });
  return { cases, order, cancelled, leftover: [...created].map(([name, adapter]) => ({ adapter: adapter.id, name })) };
}
