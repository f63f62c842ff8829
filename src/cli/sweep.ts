/**
 * `npm run sweep`: build the page, serve it cross-origin isolated with a collector, open it in
 * each browser in turn, and write what the page sends back. The benchmark itself runs in the
 * page; this file only orchestrates, prints and writes files. The browsers are local ones
 * (discovery), remote ones (`--remote`), or whichever one a person points at the printed URL
 * (`--manual`); the page reports to the collector the same way from each.
 *
 * Exit codes: 0 every browser completed and no row is error or timeout; 1 otherwise (the last
 * line says why); 2 bad flags.
 *
 * package.json runs this file with `node --import tsx`, not through the tsx CLI: the CLI relays
 * Ctrl-C to its child and SIGKILLs a child that does not acknowledge within 30 ms, which on a busy
 * machine killed the sweep before it could stop its WebDriver process group.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PAGE_QUERY } from '../core/collector.ts';
import { awaitsDriver } from '../core/driven.ts';
import { errorMessage } from '../core/errors.ts';
import { carryKey, checkCarry, defaultLaunches, launchPasses, type Carry, type LaunchOrder } from '../core/launch.ts';
import { carriedResult } from '../core/row.ts';
import { formatAuto, formatDuration as formatPlanDuration, passesOf, planToQuery, type Plan } from '../core/plan.ts';
import { formatPassDifference, formatPrecisionSummary, precisionSummary, type PrecisionSummary } from '../core/precision.ts';
import { ResultsError, type CaseResult, type ResultsFile } from '../core/results.ts';
import { formatShard } from '../core/shard.ts';
import { toCsv } from '../export/csv.ts';
import { ArgsError, parseSweepArgs, sweepUsage, type SweepArgs } from './args.ts';
import { DEBIAN_INSTALL, findBrowsers, KNOWN_BROWSER_IDS, redactUrl, remoteBrowser, type FoundBrowser } from './browsers.ts';
import { buildPage, DIST_DIR, distExists } from './build.ts';
import { runDrivenRows } from './driven-rows.ts';
import type { Driver } from './drivers/driver.ts';
import { driveManual } from './drivers/manual.ts';
import { drivePlaywright } from './drivers/playwright.ts';
import { driveWebDriver } from './drivers/webdriver.ts';
import { displayPath, makeRunId, OutputDir, OutputError, PARTIAL_SCHEMA } from './output.ts';
import { acrossLaunches, formatDuration, progressLine, ProgressView, type LaunchProgress } from './progress.ts';
import { COLLECT_PATH, isLoopbackHost, isWildcardHost, startServer, type StorebenchServer } from './server.ts';
import { BrowserSession, defaultLimits, otherRunReason, type RunEnd } from './session.ts';
import { resultsTable, type BrowserColumn } from './terminal-table.ts';
import { loadVocabulary, planNamesProblem } from './vocabulary.ts';
import { baselineRows, type Baseline } from '../core/baseline.ts';
import { compareResults } from '../core/compare.ts';
import { gate } from '../core/gate.ts';
import { formatComparison } from './compare.ts';
import { readResultsFiles } from './results-files.ts';
import { printableField } from './terminal-text.ts';
import { runEntry } from './entry.ts';

const MAX_WARNINGS_SHOWN = 5;
/**
 * How long Ctrl-C waits for the page to stop and send its rows before it closes the browser: the
 * page hears it at its next message, after the sample in flight (under a second in the default
 * plan, where the slowest sample is a temporary view's), and then deletes its databases.
 */
const STOP_GRACE_MS = 15_000;

const DRIVERS: Record<FoundBrowser['driver'], Driver> = { playwright: drivePlaywright, webdriver: driveWebDriver };

interface BrowserOutcome {
  browser: string;
  end: RunEnd | { kind: 'not-found'; message: string };
  cases: readonly CaseResult[];
}

/**
 * The page URL that runs the plan and reports to the collector. The collector is named by its
 * path, so the URL works from whichever address the browser reached the page by. Without a
 * browser label (--manual) the page names itself from its user agent.
 */
export function pageUrl(origin: string, token: string, browser: string | null, runId: string, plan: Plan): string {
  const query = new URLSearchParams({
    [PAGE_QUERY.collector]: COLLECT_PATH,
    [PAGE_QUERY.token]: token,
    ...(browser === null ? {} : { [PAGE_QUERY.browser]: browser }),
    [PAGE_QUERY.runId]: runId,
    [PAGE_QUERY.autorun]: '1',
  });
  for (const [k, v] of planToQuery(plan)) query.set(k, v);
  return `${origin}/?${query}`;
}

/** One browser to run: how to reach it, and which address of the server its page should use. */
interface Target {
  /** The label before the page names itself; for --manual, 'manual'. */
  id: string;
  /** Null for --manual: the browser is whichever one opens the URL. */
  browser: FoundBrowser | null;
  drive: (url: string, session: BrowserSession, signal: AbortSignal) => Promise<RunEnd>;
}

/**
 * --manual labels its browser from the page's own name for itself: manual-firefox, manual-safari.
 * The name arrives over the network and becomes part of a file name, so only a plain word of it
 * is kept.
 */
function manualLabel(pageLabel: string | null): string {
  const word = (pageLabel ?? '').replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
  return `manual-${word || 'browser'}`;
}

function describePlan(plan: Plan): string {
  const params = Object.entries(plan.params).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
  return [
    ...(plan.shard ? [`shard ${formatShard(plan.shard)} of the case groups`] : []),
    `suites ${plan.suites.join(',')}`,
    `adapters ${plan.adapters.join(',')}`,
    `sizes ${plan.sizes.join(',')}`,
    ...(plan.cases ? [`cases ${plan.cases.join(',')}`] : []),
    plan.auto
      ? `budget ${plan.budgetMs === undefined ? 'none' : formatPlanDuration(plan.budgetMs)} per browser, each row to ±${Number((plan.auto.targetRelCi * 100).toPrecision(6))}% of its median (${formatAuto(plan.auto)}) + ${plan.warmup} warm-up`
      : `${plan.iterations} samples + ${plan.warmup} warm-up`,
    ...(plan.worker ? ['in a Worker'] : []),
    ...(plan.cpuThrottle ? [`CPU throttled ×${plan.cpuThrottle} where the driver can (Chromium's DevTools emulation, not a device)`] : []),
    `seed ${plan.seed}`,
    `fixture ${plan.fixture}`,
    `step time limit ${plan.timeoutMs} ms`,
    ...(params.length > 0 ? [`params ${params.join(';')}`] : []),
  ].join(' | ');
}

function summarizeEnd(end: BrowserOutcome['end'], rows: number, ms: number): string {
  const took = formatDuration(ms);
  switch (end.kind) {
    case 'done': {
      const count = (s: CaseResult['status']) => end.results.cases.filter((c) => c.status === s).length;
      const parts = [`${count('ok')} ok`, `${count('unsupported')} unsupported`, `${count('error')} error`, `${count('timeout')} timeout`];
      return `${end.results.run.cancelled ? 'cancelled' : 'done'} in ${took}: ${end.results.cases.length} rows (${parts.join(', ')})`;
    }
    case 'not-found':
      return `not run: ${end.message}`;
    default:
      return `FAILED after ${took} (${end.kind}, ${rows} row${rows === 1 ? '' : 's'} kept): ${end.message}`;
  }
}

/** The lines under a browser's summary: how precise its medians are, and how far its passes differ. */
function printPrecision(s: PrecisionSummary, out: (line: string) => void): void {
  out(`${''.padEnd(9)} precision: ${formatPrecisionSummary(s)}`);
  if (s.passes) out(`${''.padEnd(9)}            ${formatPassDifference(s.passes)}`);
}

/** Why the sweep fails, or null when it passes. */
function verdict(outcomes: readonly BrowserOutcome[], cancelled: boolean): string | null {
  const reasons: string[] = [];
  if (cancelled) reasons.push('cancelled');
  const missing = outcomes.filter((o) => o.end.kind === 'not-found').map((o) => o.browser);
  if (missing.length > 0) reasons.push(`${missing.join(', ')} not found`);
  const unfinished = outcomes.filter((o) => o.end.kind !== 'not-found' && (o.end.kind !== 'done' || o.end.results.run.cancelled)).map((o) => o.browser);
  if (unfinished.length > 0) reasons.push(`${unfinished.join(', ')} did not complete`);
  const bad = outcomes.flatMap((o) => o.cases.filter((c) => c.status === 'error' || c.status === 'timeout'));
  const errors = bad.filter((c) => c.status === 'error').length;
  const timeouts = bad.length - errors;
  if (errors > 0) reasons.push(`${errors} row${errors === 1 ? ' is' : 's are'} error`);
  if (timeouts > 0) reasons.push(`${timeouts} row${timeouts === 1 ? ' is' : 's are'} timeout`);
  return reasons.length > 0 ? reasons.join('; ') : null;
}

/**
 * The browsers this sweep runs: --manual's one, --remote's, or local ones found by discovery
 * (the ones asked for, or every one found). A requested browser that is not found becomes a
 * 'not-found' outcome. Null when there is nothing to run; the reason has been printed.
 */
function chooseTargets(args: SweepArgs, outcomes: BrowserOutcome[], fail: (line: string) => void): Target[] | null {
  if (args.manual) return [{ id: 'manual', browser: null, drive: (_url, session, signal) => driveManual(session, signal) }];
  const driveWith = (b: FoundBrowser): Target => ({ id: b.id, browser: b, drive: (url, session, signal) => DRIVERS[b.driver]({ browser: b, url, session, signal }) });
  if (args.remote) {
    const ids = args.browsers ?? ['chromium'];
    try {
      return ids.map((id) => driveWith(remoteBrowser(id, args.remote as string)));
    } catch (e) {
      fail(`--remote: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }
  const candidates = findBrowsers();
  const requested = args.browsers ?? candidates.filter((c) => c.found).map((c) => c.id);
  const targets: Target[] = [];
  for (const id of requested) {
    const c = candidates.find((b) => b.id === id);
    if (c?.found) targets.push(driveWith(c));
    else {
      const why = c ? c.why : 'this build has no way to find or drive it';
      fail(`${id}: not found: ${why}`);
      outcomes.push({ browser: id, end: { kind: 'not-found', message: why }, cases: [] });
    }
  }
  if (targets.length === 0) {
    fail(
      args.browsers
        ? `none of the requested browsers (${requested.join(', ')}) was found. On Debian, install them as root: ${DEBIAN_INSTALL}`
        : `no browser found. On Debian, install them as root: ${DEBIAN_INSTALL}; elsewhere: npx playwright install`,
    );
    return null;
  }
  return targets;
}

/**
 * The origin the driven browsers load the page from. A remote WebDriver browser runs elsewhere
 * and needs an address it can reach; a Playwright browser server tunnels loopback back to us.
 */
function pageOrigin(server: StorebenchServer, args: SweepArgs, out: (line?: string) => void): string {
  const remoteWebDriver = args.remote !== null && /^https?:/i.test(args.remote);
  if (!args.manual && !isLoopbackHost(args.host)) {
    // --manual says the same in its instructions; a driven sweep says it here, for every address beyond loopback.
    out(`  warning: --host ${args.host}: the page and the collector listen beyond this machine; anyone on that network who has the URL can load the page, and the run token in it is all that keeps them from posting results`);
  }
  if (!remoteWebDriver) {
    if (!args.manual && !isLoopbackHost(args.host) && !isWildcardHost(args.host)) {
      out(`  note: the browsers load the page from ${server.origin}, which is not a secure context: they cannot be cross-origin isolated, so their timers are coarser. Without --host they would use 127.0.0.1.`);
      out();
    }
    return server.origin;
  }
  if (isLoopbackHost(args.host)) {
    out(`  note: the page is served on ${server.origin} only. Unless the WebDriver endpoint ${redactUrl(args.remote as string)} runs its browsers on this machine, they cannot load it: pass --host <an address of this machine they can reach>.`);
    out();
  }
  return server.externalOrigins[0] ?? server.origin;
}

function printManualInstructions(url: string, server: StorebenchServer, args: SweepArgs, out: (line?: string) => void): void {
  const urls = isWildcardHost(args.host) ? [url, ...server.externalOrigins.map((o) => url.replace(server.origin, o))] : [url];
  out('Open this URL in the browser to record; it runs the plan and sends its results here (one browser per sweep):');
  for (const u of urls) out(`  ${u}`);
  if (isLoopbackHost(args.host)) {
    out(`Note: the page listens on ${args.host} only, so the URL opens on this machine. For a phone or another computer, run the sweep with --host <this machine's LAN address> (or 0.0.0.0): anyone on that network who has the URL can then load the page, and the run token in it is all that keeps them from posting results.`);
  } else {
    out(`Note: the page listens on ${args.host}, where other devices on that network can reach it; the run token in the URL is all that keeps them from posting results. Over plain http on a LAN address the page is not a secure context, so it cannot be cross-origin isolated: its timer is coarser (the results record the step), and OPFS and storage estimates are not available.`);
  }
  out(`Waiting up to ${formatDuration(args.waitMs)} for a browser to open it; Ctrl-C stops.`);
  out();
}

export async function sweep(argv: readonly string[]): Promise<number> {
  const out = (line = '') => process.stdout.write(`${line}\n`);
  const fail = (line: string) => process.stderr.write(`sweep: ${line}\n`);

  let vocab;
  try {
    vocab = await loadVocabulary();
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
    return 1;
  }
  let args;
  try {
    args = parseSweepArgs(argv, vocab, KNOWN_BROWSER_IDS);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    fail(`${e.message} (see --help)`);
    return 2;
  }
  if (args.help) {
    out(sweepUsage(vocab, KNOWN_BROWSER_IDS));
    return 0;
  }
  const { plan } = args;
  let problem: string | null;
  try {
    problem = await planNamesProblem(plan);
  } catch (e) {
    fail(e instanceof Error ? e.message : String(e));
    return 1;
  }
  if (problem !== null) {
    fail(`${problem} (see --help)`);
    return 2;
  }
  try {
    OutputDir.prepare(resolve(args.out));
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    fail(e.message);
    return 2;
  }
  // Checked with the other input, before any browser or signal handler: nothing to undo.
  if (args.page !== null && !distExists(resolve(args.page))) {
    fail(`--page: ${resolve(args.page)} has no built page (index.html)`);
    return 2;
  }
  let baselineDocs: ResultsFile[] = [];
  if (args.baseline) {
    try {
      baselineDocs = readResultsFiles([args.baseline.path]).flat();
    } catch (e) {
      if (!(e instanceof ResultsError)) throw e;
      fail(`--baseline: ${e.message}`);
      return 2;
    }
  }
  const baselineFor = (browser: string): Baseline | undefined => {
    if (!args.baseline) return undefined;
    const rows = baselineRows(baselineDocs, browser);
    return rows.length > 0 ? { thresholdPct: args.baseline.thresholdPct, rows } : undefined;
  };

  const outcomes: BrowserOutcome[] = [];
  const targets = chooseTargets(args, outcomes, fail);
  if (targets === null) return 1;

  const runId = makeRunId();
  const token = randomUUID();
  const output = new OutputDir(resolve(args.out), runId);
  out(`storebench sweep ${runId}`);
  out(`  plan: ${describePlan(plan)}`);
  if (args.baseline) {
    const browsers = [...new Set(baselineDocs.map((d) => d.run.browser))];
    out(`  baseline: ${args.baseline.path} (${browsers.join(', ')}): each row it has samples until its change is decided against +${args.baseline.thresholdPct}%`);
  }
  for (const t of targets) if (t.browser) out(`  ${t.id}: ${t.browser.label} ${t.browser.version}, driven by ${t.browser.how}`);
  const passes = passesOf(plan.auto);
  // The passes of each launch of a browser the sweep starts; a --manual browser takes them all in one.
  const launchPlan = args.manual ? [{ first: 1, last: passes }] : launchPasses(passes, args.launches ?? defaultLaunches(passes, plan.budgetMs));
  if (launchPlan.length > 1) out(`  launches: each browser's ${passes} passes run in ${launchPlan.length} launches of it, so each row's interval counts how launches differ (--launches)`);

  // Before the build: a Ctrl-C during it lets the build finish, then runs nothing and cleans up.
  // Two stages: `stopping` asks the page in flight to stop as its Cancel does and hand back its
  // rows; `controller` closes the browser, at once when no page runs, else after STOP_GRACE_MS.
  const stopping = new AbortController();
  const controller = new AbortController();
  let pageRunning = (): boolean => false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let signalled: NodeJS.Signals | null = null;
  let signalledAt = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalled) {
      // One Ctrl-C can arrive twice within milliseconds: from the terminal, and relayed by a
      // wrapper such as the tsx CLI. Only a later one is the user asking to quit at once; exit
      // handlers still stop the WebDriver process groups, and Playwright its browsers.
      if (Date.now() - signalledAt < 1_000) return;
      process.exit(1);
    }
    signalled = sig;
    signalledAt = Date.now();
    stopping.abort();
    if (!pageRunning()) {
      controller.abort();
      process.stderr.write(`sweep: ${sig}: stopping; the browser is closed and the rows so far are kept (again to quit at once)\n`);
      return;
    }
    graceTimer = setTimeout(() => controller.abort(), STOP_GRACE_MS);
    process.stderr.write(`sweep: ${sig}: stopping; the page is asked to hand back the rows it has, and the browser is closed within ${STOP_GRACE_MS / 1000} s (again to quit at once)\n`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  let root = DIST_DIR;
  let privateBuild: string | undefined;
  if (args.page !== null) {
    root = resolve(args.page);
  } else if (args.build || !distExists()) {
    if (!args.build) out('  dist/ has no built page; building it despite --no-build');
    const t0 = Date.now();
    process.stdout.write('  building the page… ');
    const dir = mkdtempSync(join(tmpdir(), 'storebench-page-'));
    privateBuild = dir;
    // Also when the sweep ends abruptly (a second Ctrl-C, an uncaught error), not only in finally.
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    try {
      root = await buildPage(undefined, dir);
    } catch (e) {
      out();
      fail(`building the page failed: ${e instanceof Error ? e.message : String(e)}`);
      rmSync(dir, { recursive: true, force: true });
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      return 1;
    }
    out(`done in ${formatDuration(Date.now() - t0)}`);
  }
  out();

  const view = new ProgressView(process.stdout);
  let session: BrowserSession | undefined;
  /** What the page of the browser in flight asks for at GET ?launch= (launch.ts). */
  let launchOrder: (browser: string) => LaunchOrder | undefined = () => undefined;
  let server: StorebenchServer | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  const refusedLabels = new Set<string>();
  try {
    try {
      server = await startServer({
        root,
        host: args.host,
        collector: {
          token,
          onMessage: (m) => {
            // A document of another run (an old tab, another sweep's page) is refused, not recorded with a warning.
            const other = otherRunReason(m, runId);
            if (other !== null) return other;
            const conflict = session?.conflict(m, args.manual) ?? null;
            if (conflict !== null) return conflict;
            session?.accept(m);
          },
          baseline: baselineFor,
          launch: (browser) => launchOrder(browser),
          stopRequested: () => stopping.signal.aborted,
          onRejected: (r) => {
            if (args.manual && r.browser !== undefined && session?.browser !== null && r.browser !== session?.browser && !refusedLabels.has(r.browser)) {
              refusedLabels.add(r.browser);
              view.note(`manual: another browser (${r.browser}) opened the URL; it is told that its results are not recorded`);
            }
            session?.reject(r);
          },
        },
      });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const hint = code === 'EADDRNOTAVAIL' ? `; ${args.host} is not an address of this machine` : '';
      fail(`could not listen on ${args.host}: ${e instanceof Error ? e.message : String(e)}${hint}`);
      return 1;
    }
    const origin = pageOrigin(server, args, out);

    // A page that said hello and has not ended can be asked to stop.
    pageRunning = () => session !== undefined && !session.isOver && session.progress.userAgent !== null;
    for (const t of targets) {
      if (stopping.signal.aborted) break;
      const startedAt = new Date().toISOString();
      let warnings = 0;
      const label = () => (t.browser ? t.id : manualLabel(current.browser));
      const waiting = t.browser ? undefined : 'waiting for a browser to open the URL…';
      const limits = defaultLimits(plan.timeoutMs, plan.budgetMs);
      if (!t.browser) limits.startupMs = args.waitMs;
      const newSession = (): BrowserSession => {
        const s: BrowserSession = new BrowserSession(t.browser ? t.id : null, limits, {
          onProgress: () => view.update(shown()),
          onWarning: (text) => {
            // A store that cannot delete its databases warns once per sample; the first few say enough.
            if (++warnings <= MAX_WARNINGS_SHOWN) view.note(`${label()}: warning: ${text}`);
          },
          // Every finished row goes to disk at once, so a crash later keeps it.
          onCase: () => writePartial(s),
        });
        return s;
      };
      // The rows the launches before carried, as results rows: a later launch that crashes or is
      // cancelled keeps their samples (row.carriedResult), with the rows it finished itself.
      let carried: CaseResult[] = [];
      const kept = (s: BrowserSession): CaseResult[] => {
        const own = new Set(s.cases.map(carryKey));
        return [...carried.filter((c) => !own.has(carryKey(c))), ...s.cases];
      };
      const writePartial = (s: BrowserSession) =>
        output.writePartial(label(), {
          schema: PARTIAL_SCHEMA,
          note: 'rows of a browser run that did not finish; the complete results file replaces this one when it does',
          run: { id: runId, browser: label(), startedAt, plan },
          userAgent: s.progress.userAgent,
          cases: kept(s),
        });
      // Each launch takes its passes with an even share of the budget that is left (launch.ts). The
      // budget is time in the page, as in one launch: starting each browser comes on top of it.
      const across: LaunchProgress = { launch: 1, of: launchPlan.length, startedAt: Date.now(), samplesBefore: 0, rowsBefore: 0, budgetUsedMs: 0, launchBudgetMs: plan.budgetMs ?? 0, budgetMs: plan.budgetMs ?? 0 };
      let order: LaunchOrder | undefined;
      launchOrder = (browser) => (browser === t.id ? order : undefined);
      const url = pageUrl(origin, token, t.browser ? t.id : null, runId, plan);
      if (!t.browser) printManualInstructions(url, server, args, out);
      let current = newSession();
      const shown = () => (launchPlan.length > 1 ? progressLine(label(), acrossLaunches(current.progress, across, Date.now()), Date.now(), `launch ${across.launch}/${across.of}: starting the browser and loading the page…`) : progressLine(label(), current.progress, Date.now(), waiting));
      view.update(shown());
      ticker = setInterval(() => view.update(shown()), 1000);
      const t0 = across.startedAt;
      let carry: Carry | null = null;
      let end: RunEnd = { kind: 'cancelled', message: 'the sweep stopped before this browser started' };
      let launched = 0;
      for (const [k, range] of launchPlan.entries()) {
        if (k > 0) {
          across.samplesBefore += current.progress.samplesDone;
          across.rowsBefore = current.progress.rowsDone;
          across.budgetUsedMs += Date.now() - (current.progress.startedAt ?? Date.now());
          current = newSession();
        }
        session = current;
        const budgetLeft = Math.max(0, (plan.budgetMs ?? 0) - across.budgetUsedMs);
        Object.assign(across, { launch: k + 1, launchBudgetMs: budgetLeft / (launchPlan.length - k) });
        order = launchPlan.length > 1 ? { ...range, budgetMs: across.launchBudgetMs, budgetLeftMs: budgetLeft, carry } : undefined;
        launched++;
        end = await t.drive(url, current, controller.signal);
        if (end.kind !== 'done' || end.carry === undefined) break;
        try {
          carry = checkCarry(end.carry, runId, range.last);
        } catch (e) {
          end = { kind: 'rejected', message: `the rows launch ${k + 1} carried were refused: ${errorMessage(e)}` };
          break;
        }
        // Nothing to sample in the page (every row unsupported, or driven by the sweep): its rows are all in this document.
        if (carry.rows.length === 0) {
          end = { kind: 'done', results: end.results };
          break;
        }
        carried = carry.rows.flatMap((row) => carriedResult(row) ?? []);
        writePartial(current);
        // Stopped as this launch ended: its document holds only the rows that never ran; the carried ones are kept.
        if (stopping.signal.aborted) {
          end = { kind: 'cancelled', message: 'cancelled (Ctrl-C or SIGTERM) between two launches' };
          break;
        }
      }
      launchOrder = () => undefined;
      clearInterval(ticker);
      ticker = undefined;

      const name = label();
      let cases: readonly CaseResult[] = kept(current);
      if (end.kind === 'done') {
        let results: ResultsFile = t.browser ? end.results : { ...end.results, run: { ...end.results.run, browser: name } };
        // A run over several launches started with the first; its rows carry the samples of all.
        if (launched > 1) results = { ...results, run: { ...results.run, startedAt, launches: launched } };
        if (results.cases.some(awaitsDriver)) {
          const driven = { how: t.browser?.playwright, pageUrl: `${origin}/`, plan, signal: stopping.signal, onProgress: (line: string) => view.update(`${name.padEnd(9)} ${line}`) };
          // The driven rows run after the page's own, so the run finishes when they do.
          const measured = await runDrivenRows(results.cases, driven);
          results = { ...results, run: { ...results.run, finishedAt: new Date().toISOString() }, cases: measured };
        }
        cases = results.cases;
        if (end.results.run.browser !== (t.browser ? t.id : current.browser) || end.results.run.id !== runId) {
          view.note(`${name}: warning: the results say run ${end.results.run.id} in ${end.results.run.browser}, expected run ${runId} in ${name}`);
        }
        output.writeResults(name, results);
        outcomes.push({ browser: name, end: { kind: 'done', results }, cases });
      } else {
        if (cases.length > 0) output.keepPartial(name);
        outcomes.push({ browser: name, end, cases });
      }
      const hidden = warnings - MAX_WARNINGS_SHOWN;
      view.finish(`${name.padEnd(9)} ${summarizeEnd(outcomes[outcomes.length - 1]!.end, cases.length, Date.now() - t0)}${hidden > 0 ? ` (${hidden} more warning${hidden === 1 ? '' : 's'} not shown)` : ''}`);
      if (end.kind !== 'done') for (const d of end.details ?? []) out(`          ${d}`);
      else printPrecision(precisionSummary(cases, plan.auto?.targetRelCi), out);
    }
  } finally {
    if (ticker) clearInterval(ticker);
    clearTimeout(graceTimer);
    session?.end({ kind: 'cancelled', message: 'the sweep stopped' });
    await server?.close();
    if (privateBuild) rmSync(privateBuild, { recursive: true, force: true });
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  // The CSV holds complete, validated results only; partial rows stay in their .partial.json.
  const complete = outcomes.flatMap((o) => (o.end.kind === 'done' ? [o.end.results] : []));
  if (complete.length > 0) output.writeCsv(toCsv(complete));

  out();
  const columns: BrowserColumn[] = outcomes
    .filter((o) => o.end.kind !== 'not-found')
    .map((o) => ({ browser: o.browser, cases: o.cases, ...(o.end.kind === 'done' ? { timerStepMs: o.end.results.environment.timerStepMs } : {}) }));
  out(resultsTable(columns, plan.adapters));
  out();
  out(output.written.length > 0 ? 'Files written:' : 'No files written.');
  for (const path of output.written) out(`  ${displayPath(path)}`);
  out();
  const why = verdict(outcomes, signalled !== null);
  out(why === null ? `OK: ${outcomes.length} browser${outcomes.length === 1 ? '' : 's'} completed, no row is error or timeout.` : `FAILED: ${why}.`);
  if (why !== null) return 1;
  if (!args.baseline) return 0;
  // Against the baseline, as npm run compare would say it: its table, then its verdict last.
  const comparison = compareResults(baselineDocs.filter((d) => complete.some((c) => c.run.browser === d.run.browser)), complete, args.baseline.thresholdPct);
  const decision = gate(comparison);
  out();
  out(`Against the baseline ${args.baseline.path}:`);
  out(formatComparison(comparison));
  out();
  out(printableField(decision.line));
  return decision.code;
}

runEntry('sweep', sweep);
