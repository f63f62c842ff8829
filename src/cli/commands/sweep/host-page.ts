/**
 * Phase 3 of a sweep: build the page (or take --page, or dist/ with --no-build) and serve it with
 * the collector, which hands each page message to the browser run in flight.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildPage, buildProblem, DIST_DIR, distExists } from '../../build/build-page.ts';
import { redactUrl } from '../../drivers/discovery.ts';
import { formatClock } from '../../../core/base/format.ts';
import { placerOf } from './place.ts';
import {
  isLoopbackHost,
  isWildcardHost,
  startServer,
  type CollectorOptions,
  type StorebenchServer,
} from '../../server/page-server.ts';
import { baselineRows, type Baseline } from '../../../core/verdicts/baseline.ts';
import { otherRunReason } from '../../server/session.ts';
import { makeTempFolder } from '../../files/temp.ts';
import { machineReader } from '../../server/machine-reading.ts';
import { hasAdditions, pagePlugins } from '../../build/page-plugins.ts';
import type { SweepRun } from '../../browser-runs/sweep-run.ts';

/** Build and serve; false when either failed (the reason has been printed). */
export async function buildAndServe(run: SweepRun): Promise<boolean> {
  if (!(await build(run))) return false;
  run.out();
  try {
    run.server = await startServer({
      root: run.root,
      host: run.args.host,
      collector: collector(run),
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const hint =
      code === 'EADDRNOTAVAIL' ? `; ${run.args.host} is not an address of this machine` : '';
    run.fail(
      `could not listen on ${run.args.host}: ${e instanceof Error ? e.message : String(e)}${hint}`,
    );
    return false;
  }
  run.origin = pageOrigin(run, run.server);
  return true;
}

async function build(run: SweepRun): Promise<boolean> {
  const { args } = run;
  run.root = DIST_DIR;
  if (args.page !== null) {
    run.root = resolve(args.page);
    return true;
  }
  const additions = { variants: run.variants, user: run.user, git: run.git };
  const variants = hasAdditions(additions);
  if (!args.build && distExists() && !variants) return true;
  if (!args.build)
    run.out(
      variants
        ? '  building the page despite --no-build: dist/ holds no variants and no adapter of the config'
        : '  dist/ has no built page; building it despite --no-build',
    );
  const t0 = Date.now();
  process.stdout.write('  building the page… ');
  const dir = makeTempFolder('page');
  run.privateBuild = dir;
  // Also when the sweep ends abruptly (a second Ctrl-C, an uncaught error), not only at its end.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  try {
    run.root = await buildPage(undefined, dir, pagePlugins(additions));
  } catch (e) {
    run.out();
    run.fail(`building the page failed: ${buildProblem(e)}`);
    return false;
  }
  run.out(`done in ${formatClock(Date.now() - t0)}`);
  return true;
}

/** With --record-machine, the collector's readings of the browsers' processes; said once where there are none. */
function machine(run: SweepRun): Pick<CollectorOptions, 'machine'> {
  if (!run.args.recordMachine) return {};
  const read = machineReader();
  if (read) return { machine: read };
  run.out(
    '--record-machine: this system has no /proc schedstat, so samples carry no machine record',
  );
  return {};
}

/** The collector's hooks: every message goes to the session of the browser in flight. */
function collector(run: SweepRun): CollectorOptions {
  const session = () => run.checkSession ?? run.browser?.session;
  return {
    token: run.token,
    onMessage: (m) => {
      // A document of another run (an old tab, another sweep's page) is refused, not recorded with a warning.
      const other = otherRunReason(m, run.runId);
      if (other !== null) return other;
      const conflict = session()?.conflict(m, run.args.manual) ?? null;
      if (conflict !== null) return conflict;
      session()?.accept(m);
    },
    baseline: (browser) => baselineFor(run, browser),
    launch: async (browser) => {
      // The page asks before its first sample: it starts sampling on its own core, not up to a poll later.
      await placerOf(run)?.placeNow();
      return run.browser?.target.id === browser ? run.browser.order : undefined;
    },
    ...machine(run),
    stopRequested: () => run.stop.requested,
    onRejected: (r) => {
      const s = session();
      if (
        run.args.manual &&
        r.browser !== undefined &&
        s?.browser !== null &&
        r.browser !== s?.browser &&
        !run.refusedLabels.has(r.browser)
      ) {
        run.refusedLabels.add(r.browser);
        run.view.note(
          `manual: another browser (${r.browser}) opened the URL; it is told that its results are not recorded`,
        );
      }
      s?.reject(r);
    },
  };
}

function baselineFor(run: SweepRun, browser: string): Baseline | undefined {
  if (!run.args.baseline) return undefined;
  const rows = baselineRows(run.baselineDocs, browser);
  return rows.length > 0 ? { thresholdPct: run.args.baseline.thresholdPct, rows } : undefined;
}

/**
 * The origin the driven browsers load the page from. A remote WebDriver browser runs elsewhere
 * and needs an address it can reach; a Playwright browser server tunnels loopback back to us.
 */
function pageOrigin(run: SweepRun, server: StorebenchServer): string {
  const { args, out } = run;
  const remoteWebDriver = args.remote !== null && /^https?:/i.test(args.remote);
  if (!args.manual && !isLoopbackHost(args.host)) {
    // --manual says the same in its instructions; a driven sweep says it here, for every address beyond loopback.
    out(
      `  warning: --host ${args.host}: the page and the collector listen beyond this machine; anyone on that network who has the URL can load the page, and the run token in it is all that keeps them from posting results`,
    );
  }
  if (!remoteWebDriver) {
    if (!args.manual && !isLoopbackHost(args.host) && !isWildcardHost(args.host)) {
      out(
        `  note: the browsers load the page from ${server.origin}, which is not a secure context: they cannot be cross-origin isolated, so their timers are coarser. Without --host they would use 127.0.0.1.`,
      );
      out();
    }
    return server.origin;
  }
  if (isLoopbackHost(args.host)) {
    out(
      `  note: the page is served on ${server.origin} only. Unless the WebDriver endpoint ${redactUrl(args.remote as string)} runs its browsers on this machine, they cannot load it: pass --host <an address of this machine they can reach>.`,
    );
    out();
  }
  return server.externalOrigins[0] ?? server.origin;
}

/** --manual: the URL to open, where it can be opened from, and how long the sweep waits. */
export function printManualInstructions(run: SweepRun, url: string): void {
  const { args, out } = run;
  const server = run.server as StorebenchServer;
  const urls = isWildcardHost(args.host)
    ? [url, ...server.externalOrigins.map((o) => url.replace(server.origin, o))]
    : [url];
  out(
    'Open this URL in the browser to record; it runs the plan and sends its results here (one browser per sweep):',
  );
  for (const u of urls) out(`  ${u}`);
  if (isLoopbackHost(args.host)) {
    out(
      `Note: the page listens on ${args.host} only, so the URL opens on this machine. For a phone or another computer, run the sweep with --host <this machine's LAN address> (or 0.0.0.0): anyone on that network who has the URL can then load the page, and the run token in it is all that keeps them from posting results.`,
    );
  } else {
    out(
      `Note: the page listens on ${args.host}, where other devices on that network can reach it; the run token in the URL is all that keeps them from posting results. Over plain http on a LAN address the page is not a secure context, so it cannot be cross-origin isolated: its timer is coarser (the results record the step), and OPFS and storage estimates are not available.`,
    );
  }
  out(`Waiting up to ${formatClock(args.waitMs)} for a browser to open it; Ctrl-C stops.`);
  out();
}
