/**
 * What the page's run takes besides its plan: the sweep's baseline and launch order, the probes
 * (blocking, footprint, the machine record), and the live views' handlers, which render each
 * runner event between samples and let that paint before the next sample.
 */
import { passesOf, type Plan } from '../../core/plan/plan.ts';
import type { CaseResult } from '../../core/results/results.ts';
import type { RunEvent } from '../../core/run/runner.ts';
import type { Page } from '../page.ts';
import type { AppRunInput } from './app-run.ts';
import { createBlockingProbe } from './blocking-probe.ts';
import { SETTLE_BEFORE_SAMPLE_MS } from './collector-client.ts';
import { createFootprint } from './footprint.ts';
import { createMachineWatch } from './machine-watch.ts';
import { TimedWindows } from './timed-windows.ts';
import { afterNextPaint, yieldToEventLoop } from './yield.ts';

const HEAP_WAIT =
  'Waiting for the browser to finish a trial heap measurement before the first sample (Chromium answers it at its next garbage collection, within 25 s), so that it cannot land inside a timed sample…';

/** What a run takes besides its plan: the sweep's baseline and launch, and the probes. */
export async function prepareRun(
  { collector, query, views, heapSupport }: Page,
  plan: Plan,
  runId: string,
) {
  if (collector) await collector.hello(navigator.userAgent);
  const baseline = collector ? await collector.baseline() : undefined;
  const launch = collector ? await collector.launch(runId, passesOf(plan.auto)) : undefined;
  // The trial heap measurement may still be pending (Chromium answers it at its next garbage
  // collection): say so rather than sit on "Collecting the environment…".
  const slow = setTimeout(() => views.progress.waiting(HEAP_WAIT), 300);
  const heap = await heapSupport.finally(() => clearTimeout(slow));
  const probe = createBlockingProbe(plan.worker ? 'worker' : 'main');
  const footprint = createFootprint(heap.measure, heap.why);
  // The machine record needs the sweep's collector, which reads /proc; a Worker's run has none.
  const machine =
    collector && query.machine && !plan.worker
      ? createMachineWatch(() => collector.machine())
      : undefined;
  const metricNotes = { ...probe.notes(), ...footprint.notes(), ...machine?.notes() };
  return {
    baseline,
    launch,
    probe,
    footprint,
    metricNotes,
    ...(machine ? { sampleWatch: machine } : {}),
  };
}

/**
 * The page while a run goes: each runner event updates the progress, the table and the chart,
 * between samples, and betweenSamples lets what that changed paint before the next sample.
 */
export function liveRun({
  views,
  collector,
}: Page): Pick<AppRunInput, 'onEvent' | 'betweenSamples'> {
  const rows: CaseResult[] = [];
  let chartStale = false;
  /** The page changed what it shows since the last sample; its paint is still to come. */
  let rendered = false;
  const windows = new TimedWindows();
  const onEvent = (event: RunEvent) => {
    windows.close(event.type === 'sample' ? `sample ${event.adapter}` : event.type);
    try {
      let changed = views.progress.onEvent(event);
      if (event.type === 'case-end') {
        rows.push(event.result);
        views.table.add(event.result);
        chartStale = true;
        changed = true;
      } else if (event.type === 'warning') {
        views.warnings.add(event.message);
        changed = true;
      }
      // The rows of a group finish together; redraw once per group, not once per row.
      if (chartStale && (event.type === 'group-start' || event.type === 'run-end')) {
        views.chart.update(rows);
        chartStale = false;
        changed = true;
      }
      if (changed) {
        settleLayout();
        rendered = true;
      }
    } catch (e) {
      console.error('storebench: rendering a run event failed', e);
    }
    collector?.onRunEvent(event);
  };
  // The paint and raster of what the page just rendered would otherwise run during the next
  // timed sample, competing with the store for the CPU: without two frames' wait after
  // rendering, a 10,000-document bulk put in this page measures 5 to 9% slower than in a bare
  // page (npm run bench:overhead). Waiting only when something was rendered (progress
  // redraws at most ten times a second) keeps runs of tiny samples fast.
  // The collector's POSTs started since the last sample settle here too, before the sample
  // rather than inside it: their responses' tasks (and the network process answering them)
  // would otherwise land in its timed section (tests/e2e/sweep-inflight.spec.ts).
  const betweenSamples = async () => {
    windows.close('betweenSamples');
    if (collector) await collector.settled(SETTLE_BEFORE_SAMPLE_MS);
    if (rendered) {
      rendered = false;
      await afterNextPaint();
    }
    await yieldToEventLoop();
    windows.open();
  };
  return { onEvent, betweenSamples };
}

/**
 * Force style and layout now, between samples, rather than at the next frame, which could fall
 * inside a timed sample. Painting happens at frame time: betweenSamples waits for that frame.
 */
function settleLayout(): void {
  void document.documentElement.offsetHeight;
}
