/**
 * The page's side of a run in the plan Worker (plan-worker.ts): starts the Worker, relays its
 * events, answers its probe calls with the page's own probes, passes Cancel on, and cleans up
 * after a Worker that died.
 */
import { errorMessage, toError } from '../../core/base/errors.ts';
import { validateResults } from '../../core/results/recompute.ts';
import type { PassProbe, FootprintProbe } from '../../core/run/runner.ts';
import type { AppRunInput, AppRunOutput } from './app-run.ts';
import type { FromWorker, HookName, ToWorker } from './plan-worker.ts';

/**
 * How much longer than the case time limit the plan Worker may go without a message before it
 * counts as stuck: a step is cut off at the limit, then deleting its database may take the
 * runner's two cleanup attempts of 15 s each. A Worker whose thread never returns (a browser
 * call that hangs, a store that loops without yielding) cannot cut itself off: its own timers
 * stop with it.
 */
const STUCK_MARGIN_MS = 40_000;

/** The database name prefix of a run (the runner's default prefix and the run id). */
const runPrefix = (runId: string) => `storebench-${runId}-`;

export function runInWorker(input: AppRunInput): Promise<AppRunOutput> {
  return new Promise<AppRunOutput>((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./plan-worker.ts', import.meta.url), {
        type: 'module',
        name: 'storebench plan',
      });
    } catch (e) {
      reject(new Error(`could not start the plan Worker: ${errorMessage(e)}`));
      return;
    }
    new WorkerRun(worker, input, resolve, reject).start();
  });
}

/** The message that starts the run: the plan, and which of the page's probes the Worker may call. */
function runMessage(input: AppRunInput): ToWorker {
  return {
    type: 'run',
    plan: input.plan,
    runId: input.runId,
    browser: input.browser,
    metricNotes: input.metricNotes ?? {},
    probe: input.probe !== undefined,
    footprint: input.footprint !== undefined,
    ...(input.baseline ? { baseline: input.baseline } : {}),
    throttledAt: input.throttledAt ?? null,
    ...(input.launch ? { launch: input.launch } : {}),
  };
}

/** One run in the plan Worker: its messages, the watchdog on its silence, and how it settles once. */
class WorkerRun {
  private settled = false;
  /** The watchdog: silence counts only while the Worker, not the page, has the next move. */
  private lastHeard = performance.now();
  private hooksOpen = 0;
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private readonly onAbort = () => this.send({ type: 'cancel' });

  constructor(
    private readonly worker: Worker,
    private readonly input: AppRunInput,
    private readonly resolve: (output: AppRunOutput) => void,
    private readonly reject: (e: Error) => void,
  ) {}

  start(): void {
    const stuckAfterMs = this.input.plan.timeoutMs + STUCK_MARGIN_MS;
    this.watchdog = setInterval(() => {
      const silentMs = performance.now() - this.lastHeard;
      if (this.hooksOpen === 0 && silentMs > stuckAfterMs) {
        this.fail(
          `the plan Worker sent nothing for ${Math.round(silentMs / 1000)} s, more than the case time limit (${this.input.plan.timeoutMs / 1000} s) plus ${STUCK_MARGIN_MS / 1000} s: ` +
            'its thread is stuck (a browser call that never returns, or a store that loops without yielding), so it was stopped',
        );
      }
    }, 1_000);
    this.worker.addEventListener('error', (e) => {
      e.preventDefault();
      this.fail(`the plan Worker failed: ${e.message || 'it could not load or crashed'}`);
    });
    this.worker.addEventListener('messageerror', () =>
      this.fail('a message from the plan Worker could not be read'),
    );
    this.worker.addEventListener('message', (event: MessageEvent<FromWorker>) =>
      this.onMessage(event.data),
    );
    const { signal } = this.input;
    if (signal?.aborted) this.onAbort();
    else signal?.addEventListener('abort', this.onAbort);
    this.send(runMessage(this.input));
  }

  private send(m: ToWorker): void {
    this.worker.postMessage(m);
  }

  private onMessage(msg: FromWorker): void {
    this.lastHeard = performance.now();
    switch (msg.type) {
      case 'event':
        this.input.onEvent?.(msg.event);
        return;
      case 'hook':
        this.answerHook(msg.hook, msg.id);
        return;
      case 'done':
        this.finish(() => {
          try {
            this.resolve({
              results: validateResults(msg.results, "the plan Worker's results"),
              leftover: msg.leftover,
              ...(msg.carry ? { carry: msg.carry } : {}),
            });
          } catch (e) {
            this.reject(toError(e));
          }
        });
        return;
      case 'failed':
        this.fail(msg.message);
        return;
    }
  }

  /** Run a probe call the Worker asked for; while it runs, the page has the next move. */
  private answerHook(hook: HookName, id: number): void {
    this.hooksOpen++;
    const replied = () => {
      this.hooksOpen--;
      this.lastHeard = performance.now();
    };
    void answer(hook, this.input.probe, this.input.footprint).then(
      (value) => (replied(), this.send({ type: 'hook-reply', id, value })),
      (e: unknown) => (replied(), this.send({ type: 'hook-reply', id, error: errorMessage(e) })),
    );
  }

  private finish(fn: () => void): void {
    if (this.settled) return;
    this.settled = true;
    clearInterval(this.watchdog);
    this.input.signal?.removeEventListener('abort', this.onAbort);
    this.worker.terminate();
    fn();
  }

  private fail(message: string): void {
    this.finish(() => {
      // The Worker died with its databases: delete this run's, which only it could name.
      void deleteRunDatabases(this.input.runId).finally(() => this.reject(new Error(message)));
    });
  }
}

async function answer(
  hook: HookName,
  probe?: PassProbe,
  footprint?: FootprintProbe,
): Promise<Record<string, number>> {
  switch (hook) {
    case 'probe-start':
      await probe?.start();
      return {};
    case 'probe-stop':
      return (await probe?.stop()) ?? {};
    case 'footprint-before':
      await footprint?.before();
      return {};
    case 'footprint-after':
      return (await footprint?.after()) ?? {};
  }
}

async function deleteRunDatabases(runId: string): Promise<void> {
  try {
    const names = (await indexedDB.databases())
      .map((d) => d.name)
      .filter((n): n is string => !!n && n.startsWith(runPrefix(runId)));
    await Promise.all(
      names.map(
        (name) =>
          new Promise<void>((done) => {
            const req = indexedDB.deleteDatabase(name);
            req.onsuccess = req.onerror = req.onblocked = () => done();
          }),
      ),
    );
  } catch {
    // indexedDB.databases() is missing in older engines; the leftover banner is all we can do.
  }
}
