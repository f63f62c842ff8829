/**
 * The plan Worker: runs a whole plan in a dedicated Worker instead of the page's main thread,
 * so stores that do their work synchronously cannot freeze the page, and results record
 * environment.context = 'worker'. It posts the runner's events and the results back.
 *
 * The probes live in the page, which owns the main thread they watch and the memory API a
 * Worker lacks: each probe call is a message to the page and back, in the runner's untimed
 * measurement pass, never around a timed sample.
 *
 * Stores that need `window` (localStorage, WebSQL) say so through their own supported() here,
 * and their rows are `unsupported` with that reason.
 */
import { errorMessage } from '../../core/base/errors.ts';
import type { Baseline } from '../../core/verdicts/baseline.ts';
import type { Carry, LaunchOrder } from '../../core/run/launch.ts';
import type { Plan } from '../../core/plan/plan.ts';
import type { ResultsFile } from '../../core/results/results.ts';
import type { FootprintProbe, RunEvent, RunOutput, PassProbe } from '../../core/run/runner.ts';
import { runHere } from './app-run.ts';
import { footprintAppliesTo } from './footprint.ts';

export type HookName = 'probe-start' | 'probe-stop' | 'footprint-before' | 'footprint-after';

export type ToWorker =
  | {
      type: 'run';
      plan: Plan;
      runId: string;
      browser: string;
      metricNotes: Record<string, string>;
      probe: boolean;
      footprint: boolean;
      baseline?: Baseline;
      throttledAt: number | null;
      launch?: LaunchOrder;
    }
  | { type: 'cancel' }
  | { type: 'hook-reply'; id: number; value?: Record<string, number>; error?: string };

export type FromWorker =
  | { type: 'event'; event: RunEvent }
  | { type: 'hook'; id: number; hook: HookName }
  | { type: 'done'; results: ResultsFile; leftover: RunOutput['leftover']; carry?: Carry }
  | { type: 'failed'; message: string };

interface WorkerScope {
  postMessage(message: FromWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
}
const scope = self as unknown as WorkerScope;
const post = (message: FromWorker) => scope.postMessage(message);

const controller = new AbortController();
const pending = new Map<
  number,
  { resolve: (v: Record<string, number>) => void; reject: (e: Error) => void }
>();
let nextId = 0;
let started = false;

/** Ask the page to run one probe step, and wait for its answer. */
function hook(name: HookName): Promise<Record<string, number>> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    post({ type: 'hook', id, hook: name });
  });
}

const remoteProbe: PassProbe = {
  start: async () => void (await hook('probe-start')),
  stop: () => hook('probe-stop'),
};

const remoteFootprint: FootprintProbe = {
  appliesTo: footprintAppliesTo,
  before: async () => void (await hook('footprint-before')),
  after: () => hook('footprint-after'),
};

scope.addEventListener('message', (event) => {
  const msg = event.data;
  switch (msg.type) {
    case 'cancel':
      controller.abort();
      return;
    case 'hook-reply': {
      const waiting = pending.get(msg.id);
      pending.delete(msg.id);
      if (!waiting) return;
      if (msg.error !== undefined) waiting.reject(new Error(msg.error));
      else waiting.resolve(msg.value ?? {});
      return;
    }
    case 'run':
      if (started) return; // one plan per Worker
      started = true;
      runHere(
        {
          plan: msg.plan,
          runId: msg.runId,
          browser: msg.browser,
          signal: controller.signal,
          onEvent: (e) => post({ type: 'event', event: e }),
          metricNotes: msg.metricNotes,
          baseline: msg.baseline,
          throttledAt: msg.throttledAt,
          launch: msg.launch,
          ...(msg.probe ? { probe: remoteProbe } : {}),
          ...(msg.footprint ? { footprint: remoteFootprint } : {}),
        },
        'worker',
      ).then(
        (out) =>
          post({
            type: 'done',
            results: out.results,
            leftover: out.leftover,
            ...(out.carry ? { carry: out.carry } : {}),
          }),
        (e: unknown) => post({ type: 'failed', message: errorMessage(e) }),
      );
  }
});
