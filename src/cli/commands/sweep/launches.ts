/**
 * Phase 4 of a sweep: one browser's launches. Each launch is a new browser that takes its share
 * of the passes and of the budget (launch.ts), going on from the rows the launch before carried;
 * every finished row and every carry goes to the partial file at once, so a crash later keeps it.
 * The loop returns how the browser's run ended.
 */
import { PAGE_QUERY } from '../../../core/run/collector.ts';
import { errorMessage } from '../../../core/base/errors.ts';
import { carryKey, checkCarry, type Carry } from '../../../core/run/launch.ts';
import { passesOf, type Plan } from '../../../core/plan/plan.ts';
import { planToQuery } from '../../../core/plan/url.ts';
import type { CaseResult } from '../../../core/results/results.ts';
import { carriedResult } from '../../../core/run/row.ts';
import { PARTIAL_SCHEMA } from '../../../core/schema/vocabulary.ts';
import { OutputError, type PartialEnd } from '../../files/output.ts';
import { acrossLaunches, progressLine } from '../../terminal/progress.ts';
import { COLLECT_PATH } from '../../server/page-server.ts';
import { BrowserSession, defaultLimits, type RunEnd } from '../../server/session.ts';
import { placerOf } from './place.ts';
import type { DriveHooks } from '../../drivers/driver.ts';
import {
  driverOf,
  labelOf,
  type BrowserRun,
  type SweepRun,
  type Target,
} from '../../browser-runs/sweep-run.ts';
import { printManualInstructions } from './host-page.ts';
import { sizeRun, sizesAfter } from './size.ts';

/** A store that cannot delete its databases warns once per sample; the first few say enough. */
export const MAX_WARNINGS_SHOWN = 5;

/**
 * The page URL that runs the plan and reports to the collector. The collector is named by its
 * path, so the URL works from whichever address the browser reached the page by. Without a
 * browser label (--manual) the page names itself from its user agent.
 */
function pageUrl(
  origin: string,
  token: string,
  browser: string | null,
  runId: string,
  plan: Plan,
  recordMachine: boolean,
): string {
  const query = new URLSearchParams({
    [PAGE_QUERY.collector]: COLLECT_PATH,
    [PAGE_QUERY.token]: token,
    ...(browser === null ? {} : { [PAGE_QUERY.browser]: browser }),
    [PAGE_QUERY.runId]: runId,
    [PAGE_QUERY.autorun]: '1',
    ...(recordMachine ? { [PAGE_QUERY.machine]: '1' } : {}),
  });
  for (const [k, v] of planToQuery(plan)) query.set(k, v);
  return `${origin}/?${query}`;
}

/** What a launch leaves: the rows it carries on to the next launch, or how the browser's run ended. */
type LaunchStep = { carry: Carry } | { end: RunEnd };

/** What becomes of a browser whose run ended: its file is written and its line reported. */
export type BrowserEnded = (b: BrowserRun, end: RunEnd) => Promise<void>;

/**
 * The browsers' launches, taken in turn: the first launch of each browser, then the second of
 * each still open, and so on, the browser in flight being `run.browser` meanwhile. A browser
 * whose rows all settled at a planned look ends early; the budget it leaves goes to the launches
 * of the browsers still open (setOrder). On Ctrl-C the browsers started and not ended end as
 * cancelled, their carried rows kept; those not started yet run nothing.
 */
export async function runBrowsers(run: SweepRun, ended: BrowserEnded): Promise<void> {
  const open = new Map<Target, { b: BrowserRun; carry: Carry | null }>();
  const ticker = setInterval(() => {
    if (run.browser && samplesInPage(run.browser)) run.view.update(progressOf(run, run.browser));
  }, 1000);
  try {
    // run.launchPlan is read at each step: --budget auto re-plans it after the first passes.
    for (let k = 0; k < run.launchPlan.length; k++) {
      const range = run.launchPlan[k] as { first: number; last: number };
      for (const target of run.targets) {
        if (run.stop.requested) break;
        const state = k === 0 ? { b: startBrowser(run, target), carry: null } : open.get(target);
        if (!state) continue;
        const step = await oneLaunch(run, state.b, k, range, state.carry, open);
        if ('end' in step) {
          open.delete(target);
          run.spentMs += usedBy(state.b);
          await ended(state.b, step.end);
        } else open.set(target, { b: state.b, carry: step.carry });
      }
      if (sizesAfter(run, range.last) && !run.stop.requested) resize(run, open);
    }
    for (const { b } of open.values())
      await ended(b, {
        kind: 'cancelled',
        message: 'cancelled (Ctrl-C or SIGTERM) between two launches',
      });
  } finally {
    clearInterval(ticker);
    run.browser = undefined;
  }
}

/** --budget auto: the run sized from the open browsers' carries (size.ts), their pages' URLs and launch counts re-made to it. */
function resize(
  run: SweepRun,
  open: ReadonlyMap<Target, { b: BrowserRun; carry: Carry | null }>,
): void {
  sizeRun(
    run,
    [...open.values()].flatMap((o) => (o.carry ? [o.carry] : [])),
  );
  for (const { b } of open.values()) {
    b.url = pageUrlOf(run, b.target);
    b.across.of = run.launchPlan.length;
  }
}

/**
 * Whether the browser's page has samples to take (or has not said yet). A page with none, every
 * row driven by the sweep, would only tick its clock over the driven trials' own lines, which say
 * what is happening.
 */
function samplesInPage(b: BrowserRun): boolean {
  return b.session.progress.samples !== 0;
}

/**
 * When a browser's last launch ended, until its next one starts: the browsers take their launches
 * in turn, and the others' launches in between are not this one's time. Counted up to the next
 * launch's start instead, each browser of a three-engine default sweep was charged the others'
 * launches too, and the first of them ran out of budget by its third pass.
 */
const launchEnds = new WeakMap<BrowserRun, number>();

/** The budget a browser's launches used: those before its last, and its last so far. */
function usedBy(b: BrowserRun): number {
  const started = b.session.progress.startedAt;
  const end = launchEnds.get(b) ?? Date.now();
  return b.across.budgetUsedMs + (started === null ? 0 : Math.max(0, end - started));
}

/** One launch of a browser: its share of the budget, the drive, and what its end means. */
async function oneLaunch(
  run: SweepRun,
  b: BrowserRun,
  k: number,
  range: { first: number; last: number },
  carry: Carry | null,
  open: ReadonlyMap<Target, { b: BrowserRun }>,
): Promise<LaunchStep> {
  run.browser = b;
  if (k > 0) nextLaunch(run, b);
  setOrder(
    run,
    b,
    k,
    range,
    carry,
    [...open.values()].map((o) => o.b),
  );
  b.launched++;
  try {
    const end = await b.target.drive(b.url, b.session, run.stop.closing.signal, driveHooks(run, b));
    return afterLaunch(run, b, end, range.last);
  } finally {
    launchEnds.set(b, Date.now());
    b.order = undefined;
  }
}

/** The page URL a browser of this run loads, with the run's plan as it stands. */
function pageUrlOf(run: SweepRun, target: Target): string {
  return pageUrl(
    run.origin,
    run.token,
    target.browser ? target.id : null,
    run.runId,
    run.plan,
    run.args.recordMachine,
  );
}

function startBrowser(run: SweepRun, target: Target): BrowserRun {
  const url = pageUrlOf(run, target);
  const now = Date.now();
  const b: BrowserRun = {
    target,
    startedAt: new Date(now).toISOString(),
    url,
    session: newSession(run, target, () => b, 1),
    carried: [],
    launched: 0,
    warnings: 0,
    order: undefined,
    waiting: null,
    nodes: [],
    across: {
      launch: 1,
      of: run.launchPlan.length,
      startedAt: now,
      samplesBefore: 0,
      rowsBefore: 0,
      budgetUsedMs: 0,
      launchBudgetMs: run.budget.browserMs ?? 0,
    },
  };
  run.browser = b;
  placerOf(run)?.nextBrowser();
  if (!target.browser) printManualInstructions(run, url);
  run.view.update(progressOf(run, b));
  return b;
}

/** What the driver says as the browser starts: a full grid it waits for, the node the browser runs on. */
function driveHooks(run: SweepRun, b: BrowserRun): DriveHooks {
  return {
    waiting: (text, first) => {
      b.waiting = text;
      if (text !== null && first) run.view.note(`${labelOf(b)}: ${text}`);
      run.view.update(progressOf(run, b));
    },
    ranOn: (node) => {
      b.nodes.push(node);
      run.view.note(`${labelOf(b)}: launch ${b.launched} runs on the grid node ${node}`);
    },
  };
}

/** A session per launch: its progress, warnings and finished rows, each row written at once. */
function newSession(
  run: SweepRun,
  target: Target,
  browser: () => BrowserRun,
  launch: number,
): BrowserSession {
  const limits = defaultLimits(run.plan.timeoutMs, run.budget);
  if (!target.browser) limits.startupMs = run.args.waitMs;
  return new BrowserSession(
    target.browser ? target.id : null,
    limits,
    {
      onProgress: () => {
        if (samplesInPage(browser())) run.view.update(progressOf(run, browser()));
      },
      onWarning: (text) => {
        if (++browser().warnings <= MAX_WARNINGS_SHOWN)
          run.view.note(`${labelOf(browser())}: warning: ${text}`);
      },
      onCase: () => writePartial(run, browser()),
      onPass: () => writePartial(run, browser()),
    },
    launch,
  );
}

/** The next launch starts where the last one's clock, samples and rows ended. */
function nextLaunch(run: SweepRun, b: BrowserRun): void {
  const p = b.session.progress;
  b.across.samplesBefore += p.samplesDone;
  b.across.rowsBefore = p.rowsDone;
  b.across.budgetUsedMs = usedBy(b);
  launchEnds.delete(b);
  b.session = newSession(run, b.target, () => b, b.launched + 1);
}

/**
 * Each launch takes its passes with its share of the budget (Budget.launchShare); starting a
 * browser comes on top of it. `others` are the other browsers still open, between two of their
 * launches: what the browsers that ended left unused goes to them and to this one.
 */
function setOrder(
  run: SweepRun,
  b: BrowserRun,
  k: number,
  range: { first: number; last: number },
  carry: Carry | null,
  others: readonly BrowserRun[],
): void {
  const open = 1 + others.filter((o) => o !== b).length;
  const share = run.budget.launchShare({
    launch: k + 1,
    usedMs: b.across.budgetUsedMs,
    ended: run.targets.length - open,
    endedUsedMs: run.spentMs,
    open,
  });
  Object.assign(b.across, { launch: k + 1, launchBudgetMs: share.budgetMs });
  b.order = run.launchPlan.length > 1 ? { launch: k + 1, ...range, ...share, carry } : undefined;
}

/** What a launch's end means: go on with its carry, or end the browser's run. */
function afterLaunch(run: SweepRun, b: BrowserRun, end: RunEnd, passesDone: number): LaunchStep {
  if (end.kind !== 'done' || end.carry === undefined) return { end };
  let carry: Carry;
  try {
    carry = checkCarry(end.carry, run.runId, passesDone);
  } catch (e) {
    return {
      end: {
        kind: 'rejected',
        message: `the rows launch ${b.launched} carried were refused: ${errorMessage(e)}`,
      },
    };
  }
  // Nothing to sample in the page (every row unsupported, or driven by the sweep): its rows are all in this document.
  if (carry.rows.length === 0) return { end: { kind: 'done', results: end.results } };
  b.carried = carry.rows.flatMap((row) => carriedResult(row) ?? []);
  writePartial(run, b);
  // Stopped as this launch ended: its document holds only the rows that never ran; the carried ones are kept.
  if (run.stop.requested)
    return {
      end: { kind: 'cancelled', message: 'cancelled (Ctrl-C or SIGTERM) between two launches' },
    };
  return { carry };
}

/**
 * The rows to keep, each in its newest form: as the launches before carried it, as this launch's
 * last finished pass left it, or as this launch finished it. A crash or hang then loses at most
 * the pass in flight.
 */
export function keptRows(b: BrowserRun): CaseResult[] {
  const passRows = (b.session.lastPass?.rows ?? []).flatMap((row) => carriedResult(row) ?? []);
  const newest = new Map<string, CaseResult>();
  for (const row of [...b.carried, ...passRows, ...b.session.cases]) newest.set(carryKey(row), row);
  return [...newest.values()];
}

/**
 * The rows so far to the partial file, and once the run failed how it ended; a write that fails
 * everywhere is said once, and the rows stay in memory for the end.
 */
export function writePartial(run: SweepRun, b: BrowserRun, end?: RunEnd): void {
  const label = labelOf(b);
  const rescuedBefore = run.output.rescued;
  try {
    run.output.writePartial(label, {
      schema: PARTIAL_SCHEMA,
      note: 'rows of a browser run that did not finish; the complete results file replaces this one when it does',
      run: { id: run.runId, browser: label, startedAt: b.startedAt, plan: run.plan },
      userAgent: b.session.progress.userAgent,
      driver: driverOf(run, b),
      cases: keptRows(b),
      ...(end && end.kind !== 'done' && end.kind !== 'checked'
        ? { ended: partialEnd(run, b, end) }
        : {}),
    });
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    if (run.unwritten.length === 0) run.view.note(`${label}: warning: ${e.message}`);
    if (!run.unwritten.includes(e.message)) run.unwritten.push(e.message);
  }
  const rescued = run.output.rescued;
  if (rescued && !rescuedBefore)
    run.view.note(`${label}: warning: ${rescued.why}; the rows go to ${rescued.dir} instead`);
}

/** How a failed run ended, for its partial file: the pass and launch in flight lost their samples. */
function partialEnd(
  run: SweepRun,
  b: BrowserRun,
  end: Exclude<RunEnd, { kind: 'done' | 'checked' }>,
): PartialEnd {
  const p = b.session.progress;
  const c = p.current;
  return {
    kind: end.kind,
    message: end.message,
    // The page says its pass at each group's start; before the first, it is the one after the last finished.
    pass:
      p.pass?.pass ??
      (b.session.lastPass ? b.session.lastPass.passesDone + 1 : (b.order?.first ?? 1)),
    passes: passesOf(run.plan.auto),
    launch: Math.max(1, b.launched),
    launches: run.launchPlan.length,
    lastSeen: c ? { suite: c.suite, case: c.case, size: c.size, adapter: c.adapter } : null,
  };
}

function progressOf(run: SweepRun, b: BrowserRun): string {
  const now = Date.now();
  if (run.launchPlan.length > 1)
    return progressLine(
      labelOf(b),
      acrossLaunches(b.session.progress, b.across, run.budget, now),
      now,
      `launch ${b.across.launch}/${b.across.of}: ${b.waiting ?? 'starting the browser and loading the page…'}`,
    );
  return progressLine(
    labelOf(b),
    b.session.progress,
    now,
    b.waiting ?? (b.target.browser ? undefined : 'waiting for a browser to open the URL…'),
  );
}
