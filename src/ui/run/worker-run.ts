/**
 * The page's side of a run in the plan Worker (plan-worker.ts): starts the Worker, relays its
 * events, answers its probe calls with the page's own probes, passes Cancel on, and cleans up
 * after a Worker that died.
 */
import { errorMessage, toError } from '../../core/errors.ts';
import { validateResults } from '../../core/results.ts';
import type { PassProbe, FootprintProbe } from '../../core/runner.ts';
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
    const send = (m: ToWorker) => worker.postMessage(m);
    let settled = false;
    const onAbort = () => send({ type: 'cancel' });
    // The watchdog: silence counts only while the Worker, not the page, has the next move.
    let lastHeard = performance.now();
    let hooksOpen = 0;
    const stuckAfterMs = input.plan.timeoutMs + STUCK_MARGIN_MS;
    const watchdog = setInterval(() => {
      const silentMs = performance.now() - lastHeard;
      if (hooksOpen === 0 && silentMs > stuckAfterMs) {
        fail(
          `the plan Worker sent nothing for ${Math.round(silentMs / 1000)} s, more than the case time limit (${input.plan.timeoutMs / 1000} s) plus ${STUCK_MARGIN_MS / 1000} s: ` +
            'its thread is stuck (a browser call that never returns, or a store that loops without yielding), so it was stopped',
        );
      }
    }, 1_000);
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      input.signal?.removeEventListener('abort', onAbort);
      worker.terminate();
      fn();
    };
    const fail = (message: string) =>
      finish(() => {
        // The Worker died with its databases: delete this run's, which only it could name.
        void deleteRunDatabases(input.runId).finally(() => reject(new Error(message)));
      });

    worker.addEventListener('error', (e) => {
      e.preventDefault();
      fail(`the plan Worker failed: ${e.message || 'it could not load or crashed'}`);
    });
    worker.addEventListener('messageerror', () =>
      fail('a message from the plan Worker could not be read'),
    );
    worker.addEventListener('message', (event: MessageEvent<FromWorker>) => {
      const msg = event.data;
      lastHeard = performance.now();
      switch (msg.type) {
        case 'event':
          input.onEvent?.(msg.event);
          return;
        case 'hook': {
          hooksOpen++;
          const replied = () => {
            hooksOpen--;
            lastHeard = performance.now();
          };
          void answer(msg.hook, input.probe, input.footprint).then(
            (value) => (replied(), send({ type: 'hook-reply', id: msg.id, value })),
            (e: unknown) => (
              replied(),
              send({ type: 'hook-reply', id: msg.id, error: errorMessage(e) })
            ),
          );
          return;
        }
        case 'done':
          finish(() => {
            try {
              resolve({
                results: validateResults(msg.results, "the plan Worker's results"),
                leftover: msg.leftover,
                ...(msg.carry ? { carry: msg.carry } : {}),
              });
            } catch (e) {
              reject(toError(e));
            }
          });
          return;
        case 'failed':
          fail(msg.message);
          return;
      }
    });
    if (input.signal?.aborted) onAbort();
    else input.signal?.addEventListener('abort', onAbort);
    send({
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
    });
  });
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
