/**
 * Reading the sweep's command line (`storebench sweep`, `npm run sweep`) into SweepArgs, over the
 * flag table of sweep-flags.ts, and its usage. Pure: the vocabulary (suite, adapter,
 * fixture and browser ids) comes in as arguments, so the tests need no registry and no browser.
 * Every mistake becomes an ArgsError with a one-line message that says what was wrong and what
 * is allowed; the entry points print it and exit with code 2.
 */
import { DEFAULT_CURES, formatCures } from '../../../core/plan/cures.ts';
import { isIP } from 'node:net';
import { MIN_SAMPLES_ON_TIME_CAP } from '../../../core/run/row.ts';
import {
  DEFAULT_THRESHOLD_PCT,
  parseThreshold,
  THRESHOLD_RANGE,
} from '../../../core/verdicts/compare.ts';
import {
  MAX_CPU_THROTTLE,
  passesOf,
  PlanError,
  type Plan,
  type PlanVocabulary,
} from '../../../core/plan/plan.ts';
import {
  AB_THRESHOLD_RANGE,
  DEFAULT_AB_THRESHOLD_PCT,
  DEFAULT_AUTO,
  DEFAULT_BUDGET_MS,
  DEFAULT_PLAN,
  DEFAULT_PLAN_SIZES,
  DEFAULT_SUITES,
  PLAN_LIMITS,
} from '../../../core/plan/defaults.ts';
import { parseDuration, parsePlan, type PlanFields } from '../../../core/plan/fields.ts';
import { planQueryProblem } from '../../../core/plan/url.ts';
import { formatDuration } from '../../../core/base/format.ts';
import { MAX_SHARDS } from '../../../core/plan/shard.ts';
import { quoted } from '../../../core/base/shown.ts';
import { parseVariant } from '../../../core/plan/variant.ts';
import {
  AB_BUDGET_MAX_MS,
  AB_PASS_MS,
  abBudgetFor,
  abPasses,
  abPassesNeeded,
  abPassesProblem,
  abPlanOfPasses,
  abSizingRange,
  SIZED_AFTER,
} from '../../../core/plan/ab-plan.ts';
import { AB_BUDGET_MS, Budget } from '../../../core/plan/budget.ts';
import { formatPercent, percentOrProblem } from '../../../core/base/percent.ts';
import { ArgsError, flagText, scanFlags, type ScannedFlags } from '../../args/flags.ts';
import { CAPABILITIES_EXAMPLE, parseCapabilities } from '../../args/capabilities.ts';
import { isAutoBudget, SWEEP_FLAGS, VALUE_FLAGS, type SweepArgs } from '../../args/sweep-flags.ts';
import { DEFAULT_HOST } from '../../server/page-server.ts';
import { own } from '../../../core/base/own.ts';

export { ArgsError };

export const DEFAULT_WAIT_MS = 10 * 60_000;
const MAX_WAIT_MS = 24 * 3600_000;

export const DEFAULT_OUT = 'out';

/** Parse the sweep's flags. Throws ArgsError; `help` set means print usage and ignore the rest. */
export function parseSweepArgs(
  argv: readonly string[],
  vocab: PlanVocabulary,
  browserIds: readonly string[],
): SweepArgs {
  if (argv.includes('--help') || argv.includes('-h')) return helpArgs(vocab);
  const flags = scanFlags(argv, SWEEP_FLAGS);
  const get = (name: string) => flagText(flags, name);
  let plan = planOf(flags, vocab);
  const browsers = parseBrowsers(get('browsers'), browserIds);
  const manual = flags.values.has('manual');
  const host = parseHost(get('host'));
  const remote = parseRemote(get('remote'), browsers);
  if (manual && browsers)
    throw new ArgsError(
      '--manual and --browsers cannot be combined: --manual records whichever browser opens the printed URL; run the other browsers in a sweep of their own',
    );
  if (manual && remote)
    throw new ArgsError(
      '--manual and --remote cannot be combined: --manual waits for a person to open the URL, --remote drives a browser elsewhere',
    );
  const webDriver = remote !== null && /^https?:/i.test(remote);
  const waitMs = parseWaitMs(get('wait-ms'), manual || webDriver);
  const capabilities = parseCapabilitiesFlag(get('capabilities'), webDriver);
  const recordMachine = flags.values.has('record-machine');
  if (recordMachine && (manual || remote))
    throw new ArgsError(
      `--record-machine reads the processes the sweep starts, and with ${manual ? '--manual' : '--remote'} the browser is not one of them: leave one of the two out`,
    );
  const sizing = parseSizing(get('budget'), get('budget-max'), plan);
  if (plan.ab) plan = samePath(abPlan(plan, get, manual, sizing), vocab);
  // Whatever the sweep accepts, the page must read as the same plan from its URL.
  const problem = planQueryProblem(plan, vocab);
  if (problem !== null) throw new ArgsError(problem);
  const launches = plan.ab ? passesOf(plan.auto) : parseLaunches(get('launches'), plan, manual);
  return {
    help: false,
    browsers,
    plan,
    out: get('out') ?? DEFAULT_OUT,
    build: !flags.values.has('no-build'),
    page: get('page') ?? null,
    manual,
    waitMs,
    host,
    remote,
    capabilities,
    baseline: parseBaseline(get('baseline'), plan.ab ? undefined : get('threshold'), plan),
    launches,
    check: !flags.values.has('no-check'),
    summary: get('summary') ?? null,
    recordMachine,
    sizing,
  };
}

/** What --help needs: the defaults, and the usage printed instead of a run. */
function helpArgs(vocab: PlanVocabulary): SweepArgs {
  return {
    help: true,
    browsers: null,
    plan: parsePlan({}, vocab),
    out: DEFAULT_OUT,
    build: true,
    page: null,
    manual: false,
    waitMs: DEFAULT_WAIT_MS,
    host: DEFAULT_HOST,
    remote: null,
    capabilities: null,
    baseline: null,
    launches: null,
    check: true,
    summary: null,
    recordMachine: false,
    sizing: null,
  };
}

/** The plan the flags give: their text through core/plan/fields.ts, each mistake named by the flag the user gave. */
function planOf(flags: ScannedFlags, vocab: PlanVocabulary): Plan {
  const get = (name: string) => flagText(flags, name);
  const fields: PlanFields = {};
  for (const [flag, field] of Object.entries(VALUE_FLAGS)) {
    const value = get(flag);
    // --budget auto is no duration: parseSizing reads it, and abPlan gives the plan its budget.
    if (field && value !== undefined && !(flag === 'budget' && isAutoBudget(value)))
      fields[field] = value;
  }
  const auto = flags.values.get('auto');
  if (auto !== undefined) fields.auto = auto === true ? 'on' : auto;
  if (fields.iterations !== undefined && (auto !== undefined || get('budget') !== undefined)) {
    throw new ArgsError(
      `--iterations takes a fixed count of samples per row; ${auto !== undefined ? '--auto' : '--budget'} samples adaptively to a precision target. Give one: e.g. --budget ${formatDuration(DEFAULT_BUDGET_MS)} (the default), or --iterations 10`,
    );
  }
  if (flags.values.has('worker')) fields.worker = 'on';
  abFields(fields, get);
  try {
    return parsePlan(fields, vocab);
  } catch (e) {
    if (!(e instanceof PlanError)) throw e;
    // PlanError messages start with the field's name, which is the flag's name, but for --ab's
    // stores, which are the plan's adapters.
    const ab = get('ab') !== undefined && e.message.startsWith('adapters:');
    throw new ArgsError(`--${ab ? `ab:${e.message.slice('adapters:'.length)}` : e.message}`);
  }
}

/** --browsers a,b: known browser ids, each once, in the order given; null when not given. */
function parseBrowsers(text: string | undefined, browserIds: readonly string[]): string[] | null {
  if (text === undefined) return null;
  const names = [
    ...new Set(
      text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (names.length === 0)
    throw new ArgsError(`--browsers: none given; allowed: ${browserIds.join(', ')}`);
  const unknown = names.filter((n) => !browserIds.includes(n));
  if (unknown.length > 0) {
    throw new ArgsError(
      `--browsers: unknown ${unknown.map((n) => `"${n}"`).join(', ')}; allowed: ${browserIds.join(', ')}`,
    );
  }
  return names;
}

/** --wait-ms N: for --manual, or a WebDriver grid that queues the session. */
function parseWaitMs(waitText: string | undefined, waits: boolean): number {
  if (waitText === undefined) return DEFAULT_WAIT_MS;
  if (!waits)
    throw new ArgsError(
      '--wait-ms applies only to --manual (how long to wait for a browser to open the URL) and to --remote http(s):// (how long to wait for a grid to start a session)',
    );
  const text = waitText.trim().replace(/_/g, '');
  if (!/^\d+$/.test(text) || Number(text) < 1000 || Number(text) > MAX_WAIT_MS)
    throw new ArgsError(
      `--wait-ms: "${waitText}" is out of range; allowed: 1000 to ${MAX_WAIT_MS} (ms)`,
    );
  return Number(text);
}

/** --capabilities JSON: only where there is a WebDriver endpoint to ask. */
function parseCapabilitiesFlag(
  text: string | undefined,
  webDriver: boolean,
): Record<string, unknown> | null {
  if (text === undefined) return null;
  if (!webDriver)
    throw new ArgsError(
      '--capabilities applies only to --remote http(s):// (what to ask a WebDriver endpoint such as Selenium Grid for); a local browser runs with the settings npm run browsers shows',
    );
  return parseCapabilities(text);
}

/** --ab A,B: the plan's two stores, A then B, and the threshold (--threshold) their rows are judged against. */
function abFields(fields: PlanFields, get: (name: string) => string | undefined): void {
  const pair = get('ab');
  if (pair === undefined) return;
  if (fields.adapters !== undefined)
    throw new ArgsError('--ab names the two stores itself, A then B; leave out --adapters');
  if (get('baseline') !== undefined)
    throw new ArgsError(
      '--ab compares two stores in one run; --baseline compares with a results file. Give one of them',
    );
  const threshold = get('threshold');
  const pct =
    threshold === undefined
      ? DEFAULT_AB_THRESHOLD_PCT
      : percentOrProblem('--threshold:', threshold, AB_THRESHOLD_RANGE, '5%');
  if (typeof pct === 'string') throw new ArgsError(pct);
  fields.adapters = pair;
  fields.ab = formatPercent(pct);
}

/**
 * --budget auto and --budget-max: the passes an --ab run may be sized to (ab-plan.abSizingRange),
 * --budget-max alone meaning --budget auto under that cap; null for a fixed budget.
 */
function parseSizing(
  budget: string | undefined,
  max: string | undefined,
  plan: Plan,
): SweepArgs['sizing'] {
  const auto = budget !== undefined && isAutoBudget(budget);
  if (!auto && max === undefined) return null;
  const flag = auto ? '--budget auto' : '--budget-max';
  if (!plan.ab)
    throw new ArgsError(
      `${flag} sizes an --ab run to its question, and this sweep has no --ab: give --budget a duration (e.g. --budget ${formatDuration(DEFAULT_BUDGET_MS)}), or --ab A,B`,
    );
  if (!auto && budget !== undefined)
    throw new ArgsError(
      `--budget ${quoted(budget)} fixes each browser's budget, and --budget-max caps --budget auto: give one of the two`,
    );
  let maxMs = AB_BUDGET_MAX_MS;
  if (max !== undefined)
    try {
      maxMs = parseDuration('budget-max', max, PLAN_LIMITS.minBudgetMs, PLAN_LIMITS.maxBudgetMs);
    } catch (e) {
      if (!(e instanceof PlanError)) throw e;
      throw new ArgsError(`--${e.message}`);
    }
  const range = abSizingRange(plan, maxMs);
  if (typeof range === 'string') throw new ArgsError(range);
  return { maxMs, ...range };
}

/**
 * An A/B plan as the sweep runs it: every pass a launch of its own, as many passes as the budget
 * gives launches (core/plan/ab-plan.ts). Refused when that can never reach a verdict. Under
 * --budget auto it starts as a plan of the most passes the cap allows, each at AB_PASS_MS, and
 * the sweep cuts it to the passes it is sized to after the first ones (commands/sweep/size.ts):
 * no look before the sizing can stop a row, and the budget per pass stays what it was.
 */
function abPlan(
  plan: Plan,
  get: (name: string) => string | undefined,
  manual: boolean,
  sizing: SweepArgs['sizing'],
): Plan {
  if (manual)
    throw new ArgsError(
      '--ab takes each pass in a browser launch of its own, its replicate; --manual runs every pass in one page. Leave out one of them',
    );
  if (get('launches') !== undefined)
    throw new ArgsError(
      '--ab takes each pass in a browser launch of its own; leave out --launches (--auto=passes:N and --budget set them)',
    );
  const budgeted = sizing
    ? abPlanOfPasses(plan, sizing.most)
    : get('budget') === undefined
      ? { ...plan, budgetMs: AB_BUDGET_MS }
      : plan;
  const problem = abPassesProblem(budgeted);
  if (problem !== null) throw new ArgsError(problem);
  const auto = budgeted.auto as NonNullable<Plan['auto']>;
  const passes = abPasses(passesOf(auto), new Budget(budgeted).browserMs ?? 0);
  return { ...budgeted, auto: { ...auto, passes } };
}

/**
 * An A/B whose one side is a build of a package (`idb@8.0.4`, `idb@file:DIR`, `mystore@git:REF`)
 * and whose other is a registered store that wraps packages: that side becomes `X@installed`, the
 * installed packages built the same way as the variant, into a chunk of their own. Bundled into
 * the page with everything else, A would differ from B in more than its code.
 */
function samePath(plan: Plan, vocab: PlanVocabulary): Plan {
  const built = (id: string) => {
    if (vocab.adapters.includes(id) || !id.includes('@')) return false;
    const kind = parseVariant(id, vocab.adapters, vocab.wraps ?? {}).spec.kind;
    return kind === 'version' || kind === 'folder' || kind === 'git';
  };
  const plain = (id: string) => vocab.adapters.includes(id) && own(vocab.wraps, id) !== undefined;
  const [a, b] = plan.adapters;
  if (a === undefined || b === undefined || built(a) === built(b)) return plan;
  const adapters = plan.adapters.map((id) => (plain(id) ? `${id}@installed` : id));
  return { ...plan, adapters };
}

/** --launches N: 1 to the plan's passes; it needs passes (adaptive sampling) and a browser the sweep starts. */
function parseLaunches(text: string | undefined, plan: Plan, manual: boolean): number | null {
  if (text === undefined) return null;
  const passes = passesOf(plan.auto);
  if (!plan.auto)
    throw new ArgsError(
      '--launches spreads the passes of adaptive sampling over browser launches; with --iterations there is one pass. Leave out one of them',
    );
  if (manual)
    throw new ArgsError(
      '--launches needs a browser the sweep starts; with --manual one page runs every pass',
    );
  const n = Number(text.trim());
  if (!/^\d+$/.test(text.trim()) || n < 1 || n > passes)
    throw new ArgsError(
      `--launches: ${quoted(text)} is out of range; allowed: 1 to ${passes} (the plan's passes; --auto=passes:N sets them)`,
    );
  return n;
}

/** --baseline FILE and its --threshold; the file itself is read by the sweep, before any browser starts. */
function parseBaseline(
  path: string | undefined,
  threshold: string | undefined,
  plan: Plan,
): SweepArgs['baseline'] {
  if (path === undefined) {
    if (threshold !== undefined)
      throw new ArgsError(
        '--threshold applies only to --baseline or --ab (the slowdown a row is decided against)',
      );
    return null;
  }
  if (!plan.auto)
    throw new ArgsError(
      '--baseline samples each row until its change is decided, which needs adaptive sampling; leave out --iterations',
    );
  try {
    return {
      path,
      thresholdPct: threshold === undefined ? DEFAULT_THRESHOLD_PCT : parseThreshold(threshold),
    };
  } catch (e) {
    throw new ArgsError(`--${(e as Error).message}`);
  }
}

/** An IP address or a host name; [::1] may keep its brackets. */
function parseHost(text: string | undefined): string {
  if (text === undefined) return DEFAULT_HOST;
  const host = text.trim();
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  const hostname =
    /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
  if (isIP(bare) === 0 && !hostname.test(host)) {
    throw new ArgsError(
      `--host: ${quoted(text)} is not an IP address or host name; allowed: e.g. 127.0.0.1 (the default), this machine's LAN address such as 192.168.1.20, or 0.0.0.0 for every interface`,
    );
  }
  return bare;
}

/** Checks the URL and what --browsers may say with it; the engine comes from --browsers. */
function parseRemote(text: string | undefined, browsers: string[] | null): string | null {
  if (text === undefined) return null;
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ArgsError(
      `--remote: ${quoted(text)} is not a URL; allowed: ws:// or wss:// (a Playwright browser server), http:// or https:// (a WebDriver endpoint such as Selenium Grid)`,
    );
  }
  if (url.protocol === 'ws:' || url.protocol === 'wss:') {
    if (browsers && browsers.length > 1)
      throw new ArgsError(
        `--remote ${url.protocol}//: a Playwright browser server runs one browser; give one with --browsers (got ${browsers.join(', ')})`,
      );
    if (browsers?.[0] === 'safari')
      throw new ArgsError(
        '--remote ws://: Safari has no Playwright browser server; drive it through safaridriver with --remote http://<mac>:<port>',
      );
  } else if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (!browsers)
      throw new ArgsError(
        '--remote http(s)://: say which browsers to ask the WebDriver endpoint for, e.g. --browsers chrome,firefox',
      );
  } else {
    throw new ArgsError(
      `--remote: ${url.protocol} is not supported; allowed: ws:// or wss:// (a Playwright browser server), http:// or https:// (a WebDriver endpoint such as Selenium Grid)`,
    );
  }
  return text.trim();
}

export function sweepUsage(vocab: PlanVocabulary, browserIds: readonly string[]): string {
  const d = DEFAULT_PLAN;
  return [
    'Usage: storebench sweep [flags]   (npm run sweep -- [flags] in storebench itself)',
    '',
    'Runs the plan in each browser (one after another), writes <out>/<run-id>-<browser>.json and',
    '<out>/<run-id>.csv, and prints a table. Flags take `--flag value` or `--flag=value`.',
    '',
    `  --browsers a,b     browsers to run (default: every one found); allowed: ${browserIds.join(', ')}`,
    `  --suites a,b       suites (default: ${DEFAULT_SUITES.join(', ')}, with their main cases); allowed: ${vocab.suites.join(', ')}`,
    `                     crash, cold, tabs and quota are driven: the sweep runs them with Playwright (Chromium, Firefox)`,
    `  --adapters a,b     stores (default: all without an @); allowed: ${vocab.adapters.join(', ')}`,
    `                     or a variant ADAPTER@SPEC: idb@8.0.4 (an npm version), pouchdb-idb@file:DIR (a local build),`,
    `                     idb@+10% (an instrument: the store made 10% slower), mystore@git:origin/main (an adapter of`,
    `                     the config, from a commit of its repository); see docs/stores.md, "Variants of a store"`,
    `  --sizes n,m        documents per case (default: ${DEFAULT_PLAN_SIZES.join(',')} for the default plan, ${d.sizes.join(',')} when --suites or --cases is given); 1 to ${PLAN_LIMITS.maxSize}`,
    `  --budget TIME      sampling time per browser (default: ${formatDuration(DEFAULT_BUDGET_MS)}), e.g. 90s, 10m, 1h: each row samples until`,
    `                     the 95% interval of its median is within ±${DEFAULT_AUTO.targetRelCi * 100}%, the time going first to the rows whose`,
    `                     interval is widest for what a sample costs, in ${DEFAULT_AUTO.passes} passes over the plan; rows always get ${MIN_SAMPLES_ON_TIME_CAP} samples`,
    `  --auto[=SPEC]      tune that adaptive sampling (it is on by default), e.g. --auto=ci:1%,min-n:10,max-n:500,max-ms:60000,passes:3`,
    `                     (ci: target, % of the median; min-n/max-n: samples per row; max-ms: time cap of one row;`,
    `                     passes: rounds over every case, each row sampling in each, 1 to ${PLAN_LIMITS.maxPasses})`,
    `  --iterations N     a fixed count of timed samples per row instead (1 to ${PLAN_LIMITS.maxIterations}); no budget, no target`,
    `  --warmup N         untimed warm-up samples per case (default: ${d.warmup}); 0 to ${PLAN_LIMITS.maxWarmup}`,
    `  --seed N           fixture and order seed (default: ${d.seed})`,
    `  --timeout-ms N     time limit of one step: a sample, or filling a shared database (default: ${d.timeoutMs});`,
    '                     a step past it made no progress and its row is timeout',
    `  --fixture NAME     document shape (default: ${d.fixture}); allowed: ${vocab.fixtures.join(', ')}`,
    "  --params 'k=v;k=1,2'  suite parameters, e.g. 'chunkSizes=1,10,100;pageSize=10'",
    '  --cases a,b        only these cases of the chosen suites, e.g. bulk (default: every case)',
    '  --worker           run the plan in a dedicated Worker in each browser instead of the main thread',
    `  --cpu-throttle N   Chromium's DevTools CPU throttling at rate N (1 to ${MAX_CPU_THROTTLE}): emulates a slower CPU, not a`,
    '                     device; where a driver cannot apply it (Firefox, WebKit), every row is unsupported',
    `  --cures a,b|none   noise cures (default: ${formatCures(DEFAULT_CURES)}): gc, a full garbage collection before`,
    "                     each sample; engine, each engine's benchmarking flags and prefs; batch, whole runs of a case",
    "                     that writes, each on its own database, until a sample lasts 25 ms; core, the page's process",
    '                     alone on CPUs of its own, everything else the sweep started on the rest (Linux;',
    '                     docs/method.md, "The page\'s own core"); none turns them all off (docs/figures.md)',
    ...runFlagLines(),
  ].join('\n');
}

/** The usage's flags of where and how the plan runs, and the exit codes: sweepUsage's second half. */
function runFlagLines(): string[] {
  return [
    '  --launches N       launches of each browser the passes are spread over (default: one per pass, at',
    "                     most one per 15 s of budget), so a row's interval counts how launches differ; 1 runs",
    '                     every pass in one browser, as the page does',
    `  --shard i/n        run only shard i of n of the plan's case groups (1 to ${MAX_SHARDS} shards); npm run merge joins them`,
    `  --out DIR          where results go (default: ${DEFAULT_OUT})`,
    '  --manual           print the page URL and record whichever browser opens it (a phone, Safari on a Mac)',
    `  --wait-ms N        with --manual: how long to wait for a browser to open the URL; with --remote http(s)://:`,
    `                     how long to wait for the grid to start a session, which a full grid queues (default: ${DEFAULT_WAIT_MS})`,
    `  --host ADDR        address the page and collector listen on (default: ${DEFAULT_HOST}, this machine only);`,
    '                     a LAN address or 0.0.0.0 lets other devices reach them: give it deliberately',
    '  --remote URL       drive a browser elsewhere: ws:// or wss:// is a Playwright browser server (one',
    '                     browser, --browsers names its engine, default chromium); http(s):// is a WebDriver',
    '                     endpoint such as Selenium Grid (--browsers names what to ask it for)',
    "  --capabilities JSON with --remote http(s)://: W3C capabilities merged over the sweep's defaults (headless,",
    "                     Chromium's flags) as a JSON Merge Patch: objects merge, an array or value replaces, null",
    `                     removes; e.g. ${CAPABILITIES_EXAMPLE}`,
    "  --baseline FILE    a results file (e.g. the main branch's): each row samples until the 95% interval of its",
    "                     median's change from the baseline row lies wholly above or below +threshold, instead of",
    '                     to the precision target; the summary compares the two, as npm run compare does',
    '  --ab A,B           B against A in one run: the two stores sample as adjacent pairs in balanced order, each',
    "                     pass in a browser launch of its own, and each row's B/A has its 95% interval over those",
    '                     launches; a row is slower when B/A is beyond +threshold and shown slower with the chance of',
    '                     any false alarm over all rows held at 5% (Holm); faster, same (the interval within ±threshold)',
    '                     or undecided otherwise, each with the slowdown the run could have caught (instead of --adapters);',
    `                     its budget is ${formatDuration(AB_BUDGET_MS)} per browser unless --budget says otherwise, at least ${formatDuration(abBudgetFor(abPassesNeeded()) ?? 0)}`,
    `                     (${abPassesNeeded()} launches, the fewest an interval needs); not with the driven suites`,
    `  --threshold P      with --baseline or --ab: the slowdown that fails the run (default: ${DEFAULT_THRESHOLD_PCT}%);`,
    `                     ${formatPercent(THRESHOLD_RANGE.min)} to ${formatPercent(THRESHOLD_RANGE.max)} with --baseline, ${formatPercent(AB_THRESHOLD_RANGE.min)} to ${formatPercent(AB_THRESHOLD_RANGE.max)} with --ab, at most ${AB_THRESHOLD_RANGE.decimals} decimals`,
    `  --detect P         with --ab: the slowdown the run must be able to catch (e.g. 10%): when more than a third`,
    '                     of the rows could not have caught it, the run is undecided (exit 3), naming the budget that would',
    '                     let enough of them catch it',
    `  --budget auto      with --ab: size the run to its question: after pass ${SIZED_AFTER} of every browser, the passes with which`,
    '                     two thirds of the rows would catch --detect (without it, twice the threshold) at the spread',
    `                     measured, each pass ${AB_PASS_MS / 1000} s as in a default --ab run, at least --auto's passes (${passesOf(DEFAULT_AUTO)}) and at most`,
    '                     what --budget-max pays for',
    `  --budget-max TIME  with --ab: the most --budget auto spends per browser (default: ${formatDuration(AB_BUDGET_MAX_MS)}); alone, it means`,
    '                     --budget auto under that cap',
    '  --no-build         reuse dist/ if it exists instead of building the page',
    '  --page DIR         serve the page already built in DIR (npm run study builds once for all its parts)',
    '  --study ID/PART    tag the results as a part of a study (set by npm run study, which reads them back)',
    '  --config FILE      a storebench.config.json (default: ./storebench.config.json when there is one): its',
    '                     adapters join the stores above, its sweep keys give the flags not given here',
    "  --no-check         time the config's adapters without running the adapter contract on them first",
    '  --summary FILE.md  also write what the run found as Markdown, for a pull request or $GITHUB_STEP_SUMMARY',
    "  --record-machine   also record with each sample the CPU time of the browser's processes, their wait for a",
    '                     CPU, the CPU pressure and the GCs (Linux); npm run noise -- FILE says what they explain',
    '  --help             this text',
    '',
    'Exit codes: 0 every browser completed and no row is error or timeout (rows stopped by the budget or',
    'a time cap are ok); 1 otherwise, or with --baseline or --ab a row slower beyond the threshold; 2 bad flags',
    'or a bad baseline file; 3 with --baseline, too few rows compared (as npm run compare), and with --ab,',
    'no row compared, or with --detect more than a third of the rows unable to catch that slowdown.',
  ];
}
