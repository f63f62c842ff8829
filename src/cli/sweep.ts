/**
 * `npm run sweep`: build the page, serve it cross-origin isolated with a collector, open it in
 * each browser in turn, and write what the page sends back. The benchmark itself runs in the
 * page; this file only orchestrates, prints and writes files.
 *
 * Exit codes: 0 every browser completed and no row is error or timeout; 1 otherwise (the last
 * line says why); 2 bad flags.
 */
import { randomUUID } from 'node:crypto';
import { isAbsolute, relative, resolve } from 'node:path';
import { PAGE_QUERY } from '../core/collector.ts';
import { planToQuery, type Plan } from '../core/plan.ts';
import type { CaseResult } from '../core/results.ts';
import { toCsv } from '../export/csv.ts';
import { ArgsError, parseSweepArgs, sweepUsage } from './args.ts';
import { DEBIAN_INSTALL, findBrowsers, KNOWN_BROWSER_IDS, type FoundBrowser } from './browsers.ts';
import { buildPage, DIST_DIR, distExists } from './build.ts';
import type { Driver } from './drivers/driver.ts';
import { drivePlaywright } from './drivers/playwright.ts';
import { driveWebDriver } from './drivers/webdriver.ts';
import { makeRunId, OutputDir, PARTIAL_SCHEMA } from './output.ts';
import { formatDuration, progressLine, ProgressView } from './progress.ts';
import { startServer, type StorebenchServer } from './server.ts';
import { BrowserSession, defaultLimits, type RunEnd } from './session.ts';
import { resultsTable, type BrowserColumn } from './terminal-table.ts';
import { loadVocabulary } from './vocabulary.ts';

const MAX_WARNINGS_SHOWN = 5;

const DRIVERS: Record<FoundBrowser['driver'], Driver> = { playwright: drivePlaywright, webdriver: driveWebDriver };

interface BrowserOutcome {
  browser: string;
  end: RunEnd | { kind: 'not-found'; message: string };
  cases: readonly CaseResult[];
}

/** The page URL that runs the plan and reports to this server's collector. */
export function pageUrl(server: StorebenchServer, token: string, browser: string, runId: string, plan: Plan): string {
  const query = new URLSearchParams({
    [PAGE_QUERY.collector]: server.collectUrl ?? '',
    [PAGE_QUERY.token]: token,
    [PAGE_QUERY.browser]: browser,
    [PAGE_QUERY.runId]: runId,
    [PAGE_QUERY.autorun]: '1',
  });
  for (const [k, v] of planToQuery(plan)) query.set(k, v);
  return `${server.origin}/?${query}`;
}

/** Relative to the working directory when inside it, else absolute. */
function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

function describePlan(plan: Plan): string {
  const params = Object.entries(plan.params).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`);
  return [
    `suites ${plan.suites.join(',')}`,
    `adapters ${plan.adapters.join(',')}`,
    `sizes ${plan.sizes.join(',')}`,
    `${plan.iterations} samples + ${plan.warmup} warm-up`,
    `seed ${plan.seed}`,
    `fixture ${plan.fixture}`,
    `case time limit ${plan.timeoutMs} ms`,
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

  // Which browsers: the ones asked for, or every one found.
  const candidates = findBrowsers();
  const requested = args.browsers ?? candidates.filter((c) => c.found).map((c) => c.id);
  const toRun: FoundBrowser[] = [];
  const outcomes: BrowserOutcome[] = [];
  for (const id of requested) {
    const c = candidates.find((b) => b.id === id);
    if (c?.found) toRun.push(c);
    else {
      const why = c ? c.why : 'this build has no way to find or drive it';
      fail(`${id}: not found: ${why}`);
      outcomes.push({ browser: id, end: { kind: 'not-found', message: why }, cases: [] });
    }
  }
  if (toRun.length === 0) {
    fail(
      args.browsers
        ? `none of the requested browsers (${requested.join(', ')}) was found. On Debian, install them as root: ${DEBIAN_INSTALL}`
        : `no browser found. On Debian, install them as root: ${DEBIAN_INSTALL}; elsewhere: npx playwright install`,
    );
    return 1;
  }

  const runId = makeRunId();
  const token = randomUUID();
  const output = new OutputDir(resolve(args.out), runId);
  out(`storebench sweep ${runId}`);
  out(`  plan: ${describePlan(plan)}`);
  for (const b of toRun) out(`  ${b.id}: ${b.label} ${b.version}, driven by ${b.how}`);

  if (args.build || !distExists()) {
    if (!args.build) out('  dist/ has no built page; building it despite --no-build');
    const t0 = Date.now();
    process.stdout.write('  building the page… ');
    try {
      await buildPage();
    } catch (e) {
      out();
      fail(`building the page failed: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
    out(`done in ${formatDuration(Date.now() - t0)}`);
  }
  out();

  const controller = new AbortController();
  let signalled: NodeJS.Signals | null = null;
  const onSignal = (sig: NodeJS.Signals) => {
    if (signalled) {
      // A second Ctrl-C: the user wants out now; browsers die with this process anyway.
      process.exit(1);
    }
    signalled = sig;
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const view = new ProgressView(process.stdout);
  let session: BrowserSession | undefined;
  let server: StorebenchServer | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  try {
    server = await startServer({
      root: DIST_DIR,
      collector: {
        token,
        onMessage: (m) => session?.accept(m),
        onRejected: (r) => session?.reject(r),
      },
    });
    for (const b of toRun) {
      if (controller.signal.aborted) break;
      const startedAt = new Date().toISOString();
      let warnings = 0;
      const current: BrowserSession = new BrowserSession(b.id, defaultLimits(plan.timeoutMs), {
        onProgress: () => view.update(progressLine(b.id, current.progress, Date.now())),
        onWarning: (text) => {
          // A store that cannot delete its databases warns once per sample; the first few say enough.
          if (++warnings <= MAX_WARNINGS_SHOWN) view.note(`${b.id}: warning: ${text}`);
        },
        onCase: () => {
          // Every finished row goes to disk at once, so a crash later keeps it.
          output.writePartial(b.id, {
            schema: PARTIAL_SCHEMA,
            note: 'rows of a browser run that did not finish; the complete results file replaces this one when it does',
            run: { id: runId, browser: b.id, startedAt, plan },
            userAgent: current.progress.userAgent,
            cases: current.cases,
          });
        },
      });
      session = current;
      view.update(progressLine(b.id, current.progress, Date.now()));
      ticker = setInterval(() => view.update(progressLine(b.id, current.progress, Date.now())), 1000);
      const t0 = Date.now();
      const end = await DRIVERS[b.driver]({ browser: b, url: pageUrl(server, token, b.id, runId, plan), session: current, signal: controller.signal });
      clearInterval(ticker);
      ticker = undefined;

      let cases: readonly CaseResult[] = current.cases;
      if (end.kind === 'done') {
        cases = end.results.cases;
        if (end.results.run.browser !== b.id || end.results.run.id !== runId) {
          view.note(`${b.id}: warning: the results say run ${end.results.run.id} in ${end.results.run.browser}, expected run ${runId} in ${b.id}`);
        }
        output.writeResults(b.id, end.results);
      } else if (current.cases.length > 0) output.keepPartial(b.id);
      const hidden = warnings - MAX_WARNINGS_SHOWN;
      view.finish(`${b.id.padEnd(9)} ${summarizeEnd(end, current.cases.length, Date.now() - t0)}${hidden > 0 ? ` (${hidden} more warning${hidden === 1 ? '' : 's'} not shown)` : ''}`);
      if (end.kind !== 'done') for (const d of end.details ?? []) out(`          ${d}`);
      outcomes.push({ browser: b.id, end, cases });
    }
  } finally {
    if (ticker) clearInterval(ticker);
    session?.end({ kind: 'cancelled', message: 'the sweep stopped' });
    await server?.close();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }

  // The CSV holds complete, validated results only; partial rows stay in their .partial.json.
  const complete = outcomes.flatMap((o) => (o.end.kind === 'done' ? [o.end.results] : []));
  if (complete.length > 0) output.writeCsv(toCsv(complete));

  out();
  const columns: BrowserColumn[] = outcomes.filter((o) => o.end.kind !== 'not-found').map((o) => ({ browser: o.browser, cases: o.cases }));
  out(resultsTable(columns, plan.adapters));
  out();
  out(output.written.length > 0 ? 'Files written:' : 'No files written.');
  for (const path of output.written) out(`  ${displayPath(path)}`);
  out();
  const why = verdict(outcomes, signalled !== null);
  out(why === null ? `OK: ${outcomes.length} browser${outcomes.length === 1 ? '' : 's'} completed, no row is error or timeout.` : `FAILED: ${why}.`);
  return why === null ? 0 : 1;
}

sweep(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`sweep: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
