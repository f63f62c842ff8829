/**
 * `npm run sweep`: build the page, serve it cross-origin isolated with a collector, open it in
 * each browser in turn, and write what the page sends back. The benchmark itself runs in the
 * page; the sweep only orchestrates, prints and writes files. The browsers are local ones
 * (discovery), remote ones (`--remote`), or whichever one a person points at the printed URL
 * (`--manual`); the page reports to the collector the same way from each.
 *
 * A sweep reads as its phases, each a module of this folder (but variants, shared with check):
 *   1. check inputs (inputs.ts): flags, names, output, page, baseline, browsers; nothing starts before;
 *   2. variants (browser-runs/variants.ts): the npm versions and local folders the plan names, installed or checked;
 *   3. build and serve (host-page.ts): the page, and the collector that hands messages to the browser in flight;
 *      then the adapter contract on the config's adapters in each browser, before any timing (check.ts);
 *   4. run launches (launches.ts): per browser, its passes over launches of their own, rows kept as they come;
 *   5. trials (run-trials.ts): the rows a driver must act for (crash, cold, tabs, quota);
 *   6. write (write.ts): the browser's results file, or its partial file; the CSV at the end;
 *   7. report (report.ts): a line per browser, the table, the files and the verdict.
 * What they share is one SweepRun, and a BrowserRun for the browser in flight (browser-runs/sweep-run.ts);
 * the flags read as its args (args.ts).
 *
 * Exit codes: 0 every browser completed and no row is error or timeout; 1 otherwise (the last
 * line says why); 2 bad flags; with --baseline, the gate's code; with --ab, its verdict's (1 a row slower,
 * 3 undecided; core/verdicts/ab.ts).
 *
 * It runs in the process of bin/storebench.js, which registers tsx's loader itself rather than
 * through the tsx CLI: the CLI relays Ctrl-C to its child and SIGKILLs a child that does not
 * acknowledge within 30 ms, which on a busy machine killed the sweep before it could stop its
 * WebDriver process group.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { isEntry, PROCESS_IO, runEntry, type CommandIo } from '../../args/command-io.ts';
import { makeRunId, OutputDir } from '../../files/output.ts';
import { ProgressView } from '../../terminal/progress.ts';
import { announce } from './announce.ts';
import { checkInputs } from './inputs.ts';
import { checkBeforeTiming } from './check.ts';
import { runBrowsers } from './launches.ts';
import { reportBrowser, reportSweep } from './report.ts';
import type { BrowserOutcome, SweepInputs, SweepRun } from '../../browser-runs/sweep-run.ts';
import { buildAndServe } from './host-page.ts';
import { prepareVariants, type Builds } from '../../browser-runs/variants.ts';
import { removeGitBuild } from '../../build/user-adapters.ts';
import { SweepStop } from '../../browser-runs/stop.ts';
import { writeBrowser, writeCsv } from './write.ts';
import { EndedSummary } from '../../browser-runs/ended-summary.ts';
import { placerOf, planPlacement } from './place.ts';

export async function sweepCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const told = new EndedSummary(argv);
  // Everything the sweep prints passes through printable: names and messages come from files and pages.
  const out = (line = '') => {
    told.heard(line);
    io.stdout(`${line}\n`);
  };
  const fail = (line: string) => {
    told.failed(line);
    io.stderr(`sweep: ${line}\n`);
  };
  let code = 1;
  try {
    code = await sweepPhases(argv, { out, fail }, told);
    return code;
  } catch (e) {
    told.failed(`unexpected failure (a bug): ${e instanceof Error ? e.message : String(e)}`);
    throw e;
  } finally {
    // Whatever the outcome (refused, contract broken, a crash): --summary gets a file.
    told.write(code, out, fail);
  }
}

async function sweepPhases(
  argv: readonly string[],
  { out, fail }: Pick<SweepRun, 'out' | 'fail'>,
  told: EndedSummary,
): Promise<number> {
  // From the first moment: a Ctrl-C while the inputs are read or a variant installs stops that
  // cleanly (the install's npm and partial folder with it) instead of leaving it half done.
  let run: SweepRun | undefined;
  const stop = new SweepStop(() => {
    const s = run?.browser?.session;
    return s !== undefined && !s.isOver && s.progress.userAgent !== null;
  });
  stop.listen();
  try {
    const inputs = await checkInputs(argv, { out, fail });
    if (stop.signalled) return stoppedEarly(stop.signalled, fail);
    if ('exit' in inputs) return inputs.exit;
    told.at(inputs.args.summary);
    const builds = await prepareVariants(
      { ids: inputs.plan.adapters, vocab: inputs.vocab, user: inputs.user, page: inputs.args.page },
      { out, fail },
      stop.closing.signal,
    );
    if (stop.signalled) return stoppedEarly(stop.signalled, fail);
    if ('exit' in builds) return builds.exit;
    run = newRun(inputs, builds, out, fail, stop);
    return await runSweep(run, told);
  } finally {
    stop.close();
  }
}

/** Phases 3 to 7: build, serve, run each browser, write, report. */
async function runSweep(run: SweepRun, told: EndedSummary): Promise<number> {
  run.placement = planPlacement(run);
  announce(run);
  try {
    // A Ctrl-C during the build lets it finish, then runs nothing and cleans up.
    if (!(await buildAndServe(run))) return 1;
    run.stop.browsersStarted = true;
    const refused = await checkBeforeTiming(run);
    if (refused !== null) return refused;
    placerOf(run)?.start();
    // Browsers end in any order; the report and the CSV list them in the order they were asked for.
    const asked = (t: unknown) => run.targets.findIndex((x) => x === t);
    const byTarget = new Map<BrowserOutcome, number>();
    await runBrowsers(run, async (b, end) => {
      const outcome = await writeBrowser(run, b, end);
      byTarget.set(outcome, asked(b.target));
      run.outcomes.push(outcome);
      reportBrowser(run, b, outcome);
    });
    run.outcomes.sort((x, y) => (byTarget.get(x) ?? -1) - (byTarget.get(y) ?? -1));
  } finally {
    await closeRun(run);
  }
  writeCsv(run);
  // From here the report writes --summary with the results.
  told.reported();
  return reportSweep(run);
}

/** A signal before any browser started: nothing ran, nothing is left half done. */
function stoppedEarly(sig: NodeJS.Signals, fail: SweepRun['fail']): number {
  fail(`cancelled by ${sig} before any browser started; no files written`);
  return 1;
}

function newRun(
  inputs: SweepInputs,
  builds: Builds,
  out: SweepRun['out'],
  fail: SweepRun['fail'],
  stop: SweepStop,
): SweepRun {
  const runId = makeRunId();
  return {
    ...inputs,
    ...builds,
    runId,
    token: randomUUID(),
    output: new OutputDir(resolve(inputs.args.out), runId),
    stop,
    view: new ProgressView(process.stdout),
    outcomes: [...inputs.missing],
    out,
    fail,
    root: '',
    origin: '',
    refusedLabels: new Set(),
    spentMs: 0,
    unwritten: [],
    placement: null,
  };
}

/** Whatever the sweep started, stopped: the session in flight, the server, a private build, the signal handlers. */
async function closeRun(run: SweepRun): Promise<void> {
  run.stop.close();
  run.browser?.session.end({ kind: 'cancelled', message: 'the sweep stopped' });
  await placerOf(run)?.stop();
  await run.server?.close();
  if (run.privateBuild) rmSync(run.privateBuild, { recursive: true, force: true });
  for (const b of run.git) removeGitBuild(b);
}

if (isEntry(import.meta.url)) runEntry('sweep', (argv) => sweepCommand(argv, PROCESS_IO));
