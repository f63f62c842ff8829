/**
 * Phase 1 of a sweep: check every input before anything starts. Flags, names, the output folder,
 * a prebuilt page, a baseline file and the browsers are all checked here, so a mistake stops the
 * sweep with exit 2 (or 1 when no browser can run) before a build, a browser or a signal handler.
 */
import { resolve } from 'node:path';
import { abCasesProblem } from '../../../core/plan/ab-plan.ts';
import { Budget } from '../../../core/plan/budget.ts';
import { launchPasses } from '../../../core/run/launch.ts';
import { passesOf } from '../../../core/plan/plan.ts';
import { ResultsError, type ResultsFile } from '../../../core/results/results.ts';
import { ArgsError, DEFAULT_OUT, parseSweepArgs, sweepUsage } from './args.ts';
import { SWEEP_FLAGS, type SweepArgs } from '../../args/sweep-flags.ts';
import {
  ConfigError,
  configArgsError,
  readConfig,
  withConfigFlags,
  type StorebenchConfig,
} from '../../args/config-file.ts';
import { flagText, outputsOf, scanFlags } from '../../args/flags.ts';
import {
  DEBIAN_INSTALL,
  findBrowsers,
  KNOWN_BROWSER_IDS,
  redactUrl,
  WEBDRIVER_BROWSER_NAME,
} from '../../drivers/discovery.ts';
import { askGrid, describeOffers, sameName } from '../../drivers/grid.ts';
import { remoteBrowser } from '../../drivers/remote.ts';
import { distExists } from '../../build/build-page.ts';
import { driveManual } from '../../drivers/manual.ts';
import { checkOutputs, OutputError } from '../../files/output.ts';
import { readResultsFiles } from '../../files/read-results.ts';
import { tempProblem } from '../../files/temp.ts';
import { checkPlanNames, loadVocabulary } from '../../build/vocabulary.ts';
import type {
  BrowserOutcome,
  InputsRefused,
  SweepInputs,
  Target,
} from '../../browser-runs/sweep-run.ts';
import { driveWith } from '../../browser-runs/targets.ts';
import { unreachableReason } from '../../drivers/webdriver-http.ts';
import { timeLimitMs } from '../../args/time-limits.ts';

type Io = { out: (line?: string) => void; fail: (line: string) => void };

export async function checkInputs(
  argv: readonly string[],
  io: Io,
): Promise<SweepInputs | InputsRefused> {
  const read = readInputs(argv);
  if (read instanceof Error) return refuse(io, `${read.message} (see --help)`);
  const written = outputsProblem(read.argv);
  if (written !== null) return refuse(io, written);
  const vocab = await loadVocabulary(read.config).catch((e: unknown) => e as Error);
  if (vocab instanceof ConfigError) return refuse(io, vocab.message);
  if (vocab instanceof Error) return refuse(io, vocab.message, 1);
  let args: SweepArgs;
  try {
    args = parseSweepArgs(read.argv, vocab, KNOWN_BROWSER_IDS);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    return refuse(io, `${configArgsError(e, read.config, read.fromConfig).message} (see --help)`);
  }
  if (args.help) {
    io.out(sweepUsage(vocab, KNOWN_BROWSER_IDS));
    return { exit: 0 };
  }
  const hidden = overriddenProblem(read.config, read.overridden, vocab);
  if (hidden !== null) return refuse(io, hidden);
  const names = await checkPlanNames(args.plan).catch((e: unknown) => e as Error);
  if (names instanceof Error) return refuse(io, names.message, 1);
  if (names.problem !== null) return refuse(io, `${names.problem} (see --help)`);
  const cannotCompare = args.plan.ab ? abCasesProblem(args.plan, names) : null;
  if (cannotCompare !== null) return refuse(io, cannotCompare);
  const files = checkFiles(args, names.rows, vocab.user.length > 0);
  if (typeof files === 'string') return refuse(io, files);
  const missing: BrowserOutcome[] = [];
  const targets = chooseTargets(args, missing, io.fail);
  if (targets === null) return { exit: 1 };
  const unoffered = await notOnTheGrid(args, targets);
  if (unoffered !== null) return refuse(io, unoffered);
  // --manual runs every pass in the one page it opens.
  const budget = new Budget(args.plan, args.manual ? 1 : (args.launches ?? undefined));
  return {
    args,
    plan: args.plan,
    vocab,
    user: vocab.user,
    baselineDocs: files.baselineDocs,
    targets,
    missing,
    budget,
    launchPlan: launchPasses(passesOf(args.plan.auto), budget.launches),
  };
}

/**
 * The command line with the config's keys added where it does not give them (config-file.ts),
 * or the error that stops the sweep: a bad flag, or a config that cannot be read.
 */
function readInputs(argv: readonly string[]):
  | {
      argv: string[];
      config: StorebenchConfig | null;
      fromConfig: Set<string>;
      overridden: Set<string>;
    }
  | Error {
  try {
    const scanned = scanFlags(argv, SWEEP_FLAGS);
    // --help prints the usage of storebench's own stores: a broken config must not hide it.
    if (scanned.help)
      return { argv: [...argv], config: null, fromConfig: new Set(), overridden: new Set() };
    const config = readConfig(flagText(scanned, 'config'));
    return { ...withConfigFlags(argv, config, SWEEP_FLAGS), config };
  } catch (e) {
    if (e instanceof ArgsError || e instanceof ConfigError) return e;
    throw e;
  }
}

/**
 * --out and --summary, from the flags or the config, checked before the registries are read: a
 * path that cannot be written is said in a second. The room --out needs is checked once the
 * plan's rows are known (checkFiles). Flags the scan refuses are left to parseSweepArgs to say.
 */
function outputsProblem(argv: readonly string[]): string | null {
  try {
    const flags = scanFlags(argv, SWEEP_FLAGS);
    if (flags.help) return null;
    const paths = {
      out: flagText(flags, 'out') ?? DEFAULT_OUT,
      summary: flagText(flags, 'summary'),
    };
    checkOutputs(outputsOf(SWEEP_FLAGS, paths));
    return null;
  } catch (e) {
    if (e instanceof ArgsError) return null;
    if (e instanceof OutputError) return e.message;
    throw e;
  }
}

/**
 * A bad value under a config key that a flag overrides in this run: read the config on its own,
 * as a run without that flag would. Left unchecked, it passed here and broke the next run, or CI's.
 */
function overriddenProblem(
  config: StorebenchConfig | null,
  overridden: ReadonlySet<string>,
  vocab: Awaited<ReturnType<typeof loadVocabulary>>,
): string | null {
  if (config === null || overridden.size === 0) return null;
  const alone = withConfigFlags([], config, SWEEP_FLAGS);
  try {
    parseSweepArgs(alone.argv, vocab, KNOWN_BROWSER_IDS);
    return null;
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    const flag = /^--([a-z][a-z-]*)/.exec(e.message)?.[1];
    // Only the keys a flag hides: any other is read, and refused, in this run's own parse.
    if (flag === undefined || !overridden.has(flag)) return null;
    return `${configArgsError(e, config, alone.fromConfig).message} (--${flag} overrides it in this run; a run without the flag would fail)`;
  }
}

function refuse(io: Io, line: string, exit = 2): InputsRefused {
  io.fail(line);
  return { exit };
}

/** The output folder (writable, with room for the plan's `rows`), a prebuilt page and a baseline file; a string says what is wrong with them. */
function checkFiles(
  args: SweepArgs,
  rows: number,
  userAdapters: boolean,
): { baselineDocs: ResultsFile[] } | string {
  try {
    checkOutputs(outputsOf(SWEEP_FLAGS, { out: args.out }, rows));
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    return e.message;
  }
  if (args.page !== null && !distExists(resolve(args.page)))
    return `--page: ${resolve(args.page)} has no built page (index.html)`;
  if (args.page !== null && userAdapters)
    return '--page serves a page built without the adapters of the config; leave out --page so that the sweep builds the page with them';
  const tmp = args.manual || args.remote ? null : tempProblem();
  if (tmp !== null) return tmp;
  if (!args.baseline) return { baselineDocs: [] };
  try {
    return { baselineDocs: readResultsFiles([args.baseline.path]).flat() };
  } catch (e) {
    if (!(e instanceof ResultsError)) throw e;
    return `--baseline: ${e.message}`;
  }
}

/**
 * The browsers this sweep runs: --manual's one, --remote's, or local ones found by discovery
 * (the ones asked for, or every one found). A requested browser that is not found becomes a
 * 'not-found' outcome. Null when there is nothing to run; the reason has been printed.
 */
function chooseTargets(
  args: SweepArgs,
  missing: BrowserOutcome[],
  fail: (line: string) => void,
): Target[] | null {
  if (args.manual)
    return [
      {
        id: 'manual',
        browser: null,
        drive: (_url, session, signal) => driveManual(session, signal),
      },
    ];
  if (args.remote) {
    try {
      return (args.browsers ?? ['chromium']).map((id) =>
        driveWith(
          remoteBrowser(id, args.remote as string, {
            capabilities: args.capabilities,
            waitMs: args.waitMs,
          }),
        ),
      );
    } catch (e) {
      fail(`--remote: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    }
  }
  const candidates = findBrowsers();
  const requested =
    args.browsers ?? candidates.filter((c) => c.found && !c.namedOnly).map((c) => c.id);
  const targets: Target[] = [];
  for (const id of requested) {
    const c = candidates.find((b) => b.id === id);
    if (c?.found) targets.push(driveWith(c));
    else {
      const why = c ? c.why : 'this build has no way to find or drive it';
      fail(`${id}: not found: ${why}`);
      missing.push({ browser: id, end: { kind: 'not-found', message: why }, cases: [] });
    }
  }
  if (targets.length > 0) return targets;
  fail(noneFound(args.browsers ? requested : null));
  return null;
}

/** The browsers Debian's install line brings: it is advice only for a request that names one. */
const DEBIAN_BROWSERS = ['chromium', 'firefox', 'webkit'];

/** Why nothing runs: none of those asked for (null: none asked for) was found, and what would bring one. */
function noneFound(requested: readonly string[] | null): string {
  if (requested === null)
    return `no browser found. On Debian, install them as root: ${DEBIAN_INSTALL}; elsewhere: npx playwright install`;
  const head = `none of the requested browsers (${requested.join(', ')}) was found`;
  // Safari, say, comes with macOS and no apt line brings it: its own line above says what does.
  return requested.some((id) => DEBIAN_BROWSERS.includes(id))
    ? `${head}. On Debian, install them as root: ${DEBIAN_INSTALL}`
    : `${head}; the line above says where each one runs and how to get it`;
}

/**
 * A browser the WebDriver grid has no node for, said before anything is built: what it asks for
 * and what the grid offers instead. Null when every browser is offered, or the grid does not say
 * what it offers (a cloud farm): its answer to the session request then says it.
 */
async function notOnTheGrid(args: SweepArgs, targets: readonly Target[]): Promise<string | null> {
  if (args.remote === null || !/^https?:/i.test(args.remote)) return null;
  // How long --remote is given to answer anything before the page is built.
  let reachMs: number;
  try {
    reachMs = timeLimitMs('STOREBENCH_REMOTE_TIMEOUT_MS');
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  const dead = await unreachableReason(`${args.remote.replace(/\/+$/, '')}/status`, reachMs);
  if (dead !== null)
    return `--remote ${redactUrl(args.remote)}: the endpoint cannot be reached (${dead}); give the URL of a running WebDriver server or grid`;
  const { offers } = await askGrid(args.remote.replace(/\/+$/, ''));
  if (offers === null) return null;
  for (const t of targets) {
    const name = String(t.browser?.webdriver?.capabilities.browserName);
    if (offers.some((o) => sameName(o.browserName, name))) continue;
    const ids = (offered: string) =>
      Object.keys(WEBDRIVER_BROWSER_NAME).filter((id) =>
        sameName(WEBDRIVER_BROWSER_NAME[id] as string, offered),
      );
    const asks = [...new Set(offers.flatMap((o) => ids(o.browserName)))];
    return `--browsers ${t.id}: the grid at ${redactUrl(args.remote)} has no node for browserName ${JSON.stringify(name)}; it offers ${describeOffers(offers)}${asks.length > 0 ? `, which --browsers ${asks.join(' or ')} asks for` : ''}`;
  }
  return null;
}
