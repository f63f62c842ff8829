/**
 * One sample, and the databases samples run on. A sample opens its database (or uses the row's
 * shared one), sets up, runs the case body `repeats` times under the clock, verifies and tears
 * down; only the runs are timed. Every step races the sample's time limit and Cancel, and every
 * database created is deleted afterwards, even when a step failed or hung.
 */
import type { StoreAdapter, StoreHandle } from '../store/adapter.ts';
import { assertMethods } from '../store/capability-methods.ts';
import { CancelledError, errorMessage, TimeoutError, withTimeout } from '../base/errors.ts';
import type { Plan } from '../plan/plan.ts';
import { createRng, deriveSeed } from '../../../fixtures/random.ts';
import type { Row, SharedDb } from './row.ts';
import type { ParamValue } from '../base/identity.ts';
import { stepWatch, watchedTimeout } from '../base/step-watch.ts';
import type { BenchCase, CaseContext, FixtureSource } from '../store/suite.ts';
import { now } from '../base/timer.ts';
import type { SampleWatch } from './machine.ts';

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
 */
export interface FootprintProbe {
  appliesTo(suite: string, caseId: string): boolean;
  before(): Promise<void>;
  after(): Promise<Record<string, number>>;
}

/** The probes of a measurement pass; a timed sample has none. */
export interface Pass {
  probe?: PassProbe;
  footprint?: FootprintProbe;
}

/** Time allowed to a probe's own step; past it the measurement is dropped, not the case. */
const PROBE_TIMEOUT_MS = 30_000;

/** What one sample measured. */
export interface Sample {
  /** Time of one run of the case body, in ms: the timed section over its repeats. */
  ms: number;
  metrics: Record<string, number>;
  points: [number, number][];
  /** Wall time of the whole sample: open, setup, runs, verify, teardown and deletion. */
  wallMs: number;
  /** Measurement pass only: what its probe and footprint measured. */
  blocking?: Record<string, number>;
  footprint?: Record<string, number>;
}

/** The case and size a sample belongs to. */
export interface SampleTarget {
  c: BenchCase;
  size: number;
  params: Record<string, ParamValue>;
}

export interface SamplerInput {
  plan: Plan;
  runId: string;
  prefix: string;
  cleanupMs: number;
  fixture: FixtureSource;
  signal?: AbortSignal;
  /** A measurement that failed: worth one warning per run, not one per sample. */
  warnOnce: (what: string, e: unknown) => void;
  warning: (message: string) => void;
  /** Rejects with CancelledError when the run is cancelled. */
  cancelled: Promise<never>;
  /** Around each timed run, the machine's record of the sample (machine.ts). */
  sampleWatch?: SampleWatch;
}

/** A filled database in the sampler's pool. */
interface PooledDb {
  name: string;
  handle: StoreHandle | undefined;
  adapter: StoreAdapter;
}

/** Cases whose stores hold the same documents: one store, one size, opened the same way. */
function poolKey(row: Row, t: SampleTarget): string {
  return `${row.adapter.id}|${t.size}|${JSON.stringify(t.c.openOptions ?? null)}`;
}

const SELF_OPEN_HANDLE = new Proxy({} as StoreHandle, {
  get(_target, prop) {
    if (prop === 'then') return undefined; // not a thenable
    return () =>
      Promise.reject(
        new Error(
          `this case opens its own database (open: 'self'); ctx.handle.${String(prop)} is not available`,
        ),
      );
  },
});

export class Sampler {
  /** Databases created and not yet deleted. */
  readonly created = new Map<string, StoreAdapter>();
  private seq = 0;
  // A hung pass's run can still finish after its step was cut off, while a later pass owns the
  // probe; only the owner may stop it.
  private probeOwner: object | null = null;
  /** Rows whose handle was checked for the methods their case's needs guarantee. */
  private readonly checkedRows = new WeakSet<Row>();
  /** This pass's filled databases that cases sharing their fill read, by poolKey. */
  private readonly pool = new Map<string, PooledDb>();

  constructor(private readonly input: SamplerInput) {}

  /**
   * Fill the row's shared database: open it and run the case's setup once, untimed. A case that
   * shares its fill takes the pass's filled database of its store and size when there is one, and
   * its setup then only computes its state.
   */
  async openShared(row: Row, t: SampleTarget): Promise<SharedDb> {
    const key = t.c.sharesFill && t.c.open !== 'self' ? poolKey(row, t) : undefined;
    const pooled = key === undefined ? undefined : this.pool.get(key);
    const name = pooled?.name ?? this.newName(row.adapter);
    const started = now();
    const deadline = started + this.input.plan.timeoutMs;
    let handle = pooled?.handle;
    try {
      if (!pooled && t.c.open !== 'self')
        handle = await this.step(deadline, `${row.adapter.id}: open`, () =>
          row.adapter.open(name, t.c.openOptions),
        );
      if (handle) this.checkOnce(row, t, handle);
      const ctx = this.context(row, t, name, handle, 'shared', {}, pooled !== undefined);
      const setup = t.c.setup?.bind(t.c);
      const state = setup
        ? await this.step(deadline, `${t.c.id} setup of the shared database`, () => setup(ctx))
        : undefined;
      if (key !== undefined) this.pool.set(key, { name, handle, adapter: row.adapter });
      return { name, handle, state, ...(key === undefined ? {} : { pooled: key }) };
    } catch (e) {
      if (key !== undefined) this.pool.delete(key);
      await this.dispose(row.adapter, name, handle);
      throw e;
    } finally {
      row.spentMs += now() - started;
    }
  }

  /**
   * Tear the shared database down and delete it; after Cancel only delete it. A teardown that
   * fails is a warning: the samples stand. A pooled database stays for the pass's later cases,
   * unless its row failed: a store that failed may be left in any state.
   */
  async closeShared(row: Row, t: SampleTarget, db: SharedDb, deleteOnly = false): Promise<void> {
    const started = now();
    let keep = db.pooled !== undefined && !deleteOnly && row.state.kind !== 'failed';
    try {
      const teardown = t.c.teardown?.bind(t.c);
      if (teardown && !deleteOnly)
        await this.step(now() + this.input.plan.timeoutMs, `${t.c.id} teardown`, () =>
          teardown(this.context(row, t, db.name, db.handle, 'shared', {}), db.state),
        );
    } catch (e) {
      keep = false;
      if (e instanceof CancelledError) throw e;
      this.input.warning(
        `${row.adapter.id}: the teardown of ${t.c.id}'s shared database failed: ${errorMessage(e)}`,
      );
    } finally {
      if (!keep) {
        if (db.pooled !== undefined) this.pool.delete(db.pooled);
        await this.dispose(row.adapter, db.name, db.handle);
      }
      row.spentMs += now() - started;
    }
  }

  /** Delete the pass's pooled databases: the next pass fills its own, so passes stay independent. */
  async closePool(): Promise<void> {
    const pooled = [...this.pool.values()];
    this.pool.clear();
    for (const db of pooled) await this.dispose(db.adapter, db.name, db.handle);
  }

  /**
   * One sample of the row: on its shared database when it has one, else on a fresh one. With
   * `pass`, the measurement pass instead: one run with the pass's probes around it. A row on fresh
   * databases repeats only under the `batch` cure (core/plan/cures.ts): whole runs, each on a
   * database of its own with its open, setup and deletion untimed, the sample their mean.
   */
  async take(
    row: Row,
    t: SampleTarget,
    index: number | string,
    repeats: number,
    pass?: Pass,
  ): Promise<Sample> {
    if (row.shared || pass || repeats <= 1) return this.takeOnce(row, t, index, repeats, pass);
    let ms = 0;
    let wallMs = 0;
    let last: Sample | undefined;
    for (let i = 1; i <= repeats; i++) {
      last = await this.takeOnce(row, t, `${index}.${i}`, 1);
      ms += last.ms;
      wallMs += last.wallMs;
    }
    return { ...(last as Sample), ms: ms / repeats, wallMs };
  }

  private async takeOnce(
    row: Row,
    t: SampleTarget,
    index: number | string,
    repeats: number,
    pass?: Pass,
  ): Promise<Sample> {
    const started = now();
    const deadline = started + this.input.plan.timeoutMs;
    const metrics: Record<string, number> = {};
    const points: [number, number][] = [];
    const owner = {};
    const { probe, footprint } = pass ?? {};
    let blocking: Record<string, number> | undefined;
    let measured: Record<string, number> | undefined;
    let ms: number;
    const shared = row.shared;
    const name = shared ? shared.name : this.newName(row.adapter);
    let handle: StoreHandle | undefined = shared?.handle;
    try {
      if (footprint)
        await watchedTimeout(footprint.before(), PROBE_TIMEOUT_MS, "the footprint's baseline");
      if (!shared && t.c.open !== 'self')
        handle = await this.step(deadline, `${row.adapter.id}: open`, () =>
          row.adapter.open(name, t.c.openOptions),
        );
      if (handle) this.checkOnce(row, t, handle);
      const ctx = this.context(row, t, name, handle, index, { metrics, points });
      const setup = t.c.setup?.bind(t.c);
      const verify = t.c.verify?.bind(t.c);
      const teardown = t.c.teardown?.bind(t.c);
      const state = shared
        ? shared.state
        : setup
          ? await this.step(deadline, `${t.c.id} setup`, () => setup(ctx))
          : undefined;
      const { sampleWatch } = this.input;
      const timed = async () => {
        if (probe) await this.startProbe(owner, probe);
        // The watch's readings bracket runRepeated, whose own clock is inside them.
        if (sampleWatch) await sampleWatch.before();
        try {
          return await runRepeated(t.c, ctx, state, repeats);
        } finally {
          if (sampleWatch) Object.assign(metrics, await sampleWatch.after());
          if (probe) blocking = await this.stopProbe(owner, probe);
        }
      };
      ms = await this.step(deadline, `${t.c.id} run`, timed);
      if (verify) await this.step(deadline, `${t.c.id} verify`, () => verify(ctx, state));
      if (footprint)
        measured = await watchedTimeout(
          footprint.after(),
          PROBE_TIMEOUT_MS,
          'the footprint measurement',
        );
      if (!shared && teardown)
        await this.step(deadline, `${t.c.id} teardown`, () => teardown(ctx, state));
    } finally {
      // A pass cut off by its time limit never reached its own stop.
      await this.stopProbe(owner, probe);
      if (!shared) await this.dispose(row.adapter, name, handle);
      row.spentMs += now() - started;
    }
    return {
      ms,
      metrics,
      points,
      wallMs: now() - started,
      ...(blocking ? { blocking } : {}),
      ...(measured ? { footprint: measured } : {}),
    };
  }

  /** Delete whatever a cancelled or wedged sample left behind. */
  async disposeAll(): Promise<void> {
    await this.closePool();
    for (const [name, adapter] of [...this.created]) await this.dispose(adapter, name, undefined);
  }

  private newName(adapter: StoreAdapter): string {
    const name = `${this.input.prefix}-${this.input.runId}-${++this.seq}`;
    this.created.set(name, adapter);
    return name;
  }

  /**
   * The case's steps call the methods its needs guarantee without asking (suite.ts), so the
   * first handle a row opens must have them: else the row fails here, before setup, naming them.
   */
  private checkOnce(row: Row, t: SampleTarget, handle: StoreHandle): void {
    if (this.checkedRows.has(row)) return;
    assertMethods(handle, t.c.needs, row.adapter.id);
    this.checkedRows.add(row);
  }

  private context(
    row: Row,
    t: SampleTarget,
    name: string,
    handle: StoreHandle | undefined,
    index: number | string,
    sink: { metrics?: Record<string, number>; points?: [number, number][] },
    filled = false,
  ): CaseContext {
    const { plan, fixture, signal } = this.input;
    return {
      adapter: row.adapter,
      handle: handle ?? SELF_OPEN_HANDLE,
      checked: (own) => {
        assertMethods(own, t.c.needs, row.adapter.id);
        return own;
      },
      dbName: name,
      size: t.size,
      params: t.params,
      fixture,
      rng: createRng(deriveSeed(plan.seed, `${t.c.id}/${t.size}/${index}`)),
      signal: signal ?? new AbortController().signal,
      now,
      metric: (metricName, value) => {
        if (sink.metrics) sink.metrics[metricName] = value;
      },
      point: (x, y) => {
        sink.points?.push([x, y]);
      },
      ...(filled ? { filled } : {}),
    };
  }

  /**
   * One step against the sample's deadline, and against Cancel. A step cut off says the limit
   * (`--timeout-ms`), not the few ms that were left of it when the step began. The step is started
   * here, inside the watch (step-watch.ts): a body that blocks before its first await blocks
   * within it too.
   */
  private async step<T>(deadline: number, what: string, start: () => Promise<T>): Promise<T> {
    const watch = stepWatch();
    const token = watch?.open(watch.now() + Math.max(0, deadline - now()));
    try {
      // The executor makes a synchronous throw of start() a rejection, as an async start's is.
      const work = new Promise<T>((resolve) => resolve(start()));
      return await Promise.race([withTimeout(work, deadline - now(), what), this.input.cancelled]);
    } catch (e) {
      if (e instanceof TimeoutError)
        throw new TimeoutError(
          `${what} did not finish within the ${this.input.plan.timeoutMs} ms time limit`,
        );
      throw e;
    } finally {
      if (token !== undefined) watch?.close(token);
    }
  }

  private async dispose(
    adapter: StoreAdapter,
    name: string,
    handle: StoreHandle | undefined,
  ): Promise<void> {
    const { cleanupMs } = this.input;
    try {
      if (handle) await watchedTimeout(handle.destroy(), cleanupMs, `destroying ${name}`);
      else await watchedTimeout(adapter.destroy(name), cleanupMs, `deleting ${name}`);
      this.created.delete(name);
    } catch (first) {
      try {
        // The handle may be wedged by a hung operation; deleting by name is the fallback.
        if (handle) {
          await watchedTimeout(adapter.destroy(name), cleanupMs, `deleting ${name}`);
          this.created.delete(name);
          return;
        }
      } catch {
        /* reported below */
      }
      this.input.warning(
        `${adapter.id}: could not delete database ${name}: ${errorMessage(first)}`,
      );
    }
  }

  private async startProbe(owner: object, probe: PassProbe): Promise<void> {
    try {
      this.probeOwner = owner;
      await watchedTimeout(Promise.resolve(probe.start()), PROBE_TIMEOUT_MS, "the probe's start");
    } catch (e) {
      this.input.warnOnce('the probe', e);
    }
  }

  private async stopProbe(
    owner: object,
    probe: PassProbe | undefined,
  ): Promise<Record<string, number>> {
    if (!probe || this.probeOwner !== owner) return {};
    this.probeOwner = null;
    try {
      return await watchedTimeout(
        Promise.resolve(probe.stop()),
        PROBE_TIMEOUT_MS,
        "the probe's stop",
      );
    } catch (e) {
      this.input.warnOnce('the probe', e);
      return {};
    }
  }
}

/**
 * The timed section: the case body `repeats` times back to back, under one pair of clock
 * readings, as the time of one run. A body that times itself (returns a number) is summed instead.
 */
async function runRepeated(
  c: BenchCase,
  ctx: CaseContext,
  state: unknown,
  repeats: number,
): Promise<number> {
  let own = 0;
  let ownCount = 0;
  const t0 = now();
  for (let i = 0; i < repeats; i++) {
    const result = await c.run(ctx, state);
    if (typeof result === 'number') {
      own += result;
      ownCount++;
    }
  }
  const t1 = now();
  return (ownCount === repeats ? own : t1 - t0) / repeats;
}
