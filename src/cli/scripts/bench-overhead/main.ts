/**
 * `npm run bench:overhead`: how much the harness itself adds to what it measures. Each case
 * (cases.ts) is timed two ways in the same browser:
 *
 * - through the harness: the built page runs the case's plan, with everything a normal run has
 *   (runner, measurement pass, rendering between samples);
 * - through a bare page (public/bare/, served by the same server): what the adapter and the case
 *   do, written by hand with the same library code, the same fixture documents (fixtures/ is
 *   bundled for the bare page) and performance.now(), and nothing else.
 *
 * The cases include the ones that await many times (a serial insert awaits once per document, a
 * paging walk once per page), where an overhead between awaits would show, and not only one
 * bulk put, where there is hardly an await for anything else to run in.
 *
 * Fair by construction: default durability in both, the runner's database per sample (or one
 * shared database for a read case, with the repeats the harness calibrated), the same number of
 * warm-up and timed samples per run, and many short runs that alternate (ABBA) between pages kept
 * open (each in its own browser context), so that drift of a busy machine lands on both alike.
 * For each case and browser it prints the ratio of the medians, harness / bare, with its 95%
 * interval, the worst last.
 *
 * `--split` adds a third way: the bare page's code run inside the harness page. Its ratio to the
 * bare page is what the page itself costs (its heap, DOM, rendering); the harness's ratio to it
 * is what the harness code around the case costs (runner, probes, progress, waits).
 *
 * `--out FILE` also writes every timed sample, round by round, as JSON.
 *
 * Exit codes: 0 every ratio is ok (summary.ts, verdict); 1 one is not, or a run failed;
 * 2 bad flags, a browser that is not there, or an --out that cannot be written.
 */
import { chromium, firefox, type Browser } from 'playwright-core';
import { rmSync } from 'node:fs';
import { errorMessage } from '../../../core/base/errors.ts';
import { median } from '../../../core/stats/stats.ts';
import { findChromium, findFirefox, type BrowserCandidate } from '../../drivers/discovery.ts';
import { buildPage, DIST_DIR, distExists } from '../../build/build-page.ts';
import { startServer } from '../../server/page-server.ts';
import { isEntry, runEntry } from '../../args/command-io.ts';
import { flagInteger, flagText, outputsOf, scanFlags, type FlagSpec } from '../../args/flags.ts';
import { checkOutputs, OutputError, writeAtomically } from '../../files/output.ts';
import { makeTempFolder } from '../../files/temp.ts';
import { BareScripts } from './bare-scripts.ts';
import { OVERHEAD_CASE_IDS, OVERHEAD_CASES, type OverheadCase } from './cases.ts';
import { bareWay, harnessPage, type RunSamples, type RunShape } from './pages.ts';
import {
  badness,
  INTERVAL_TARGET,
  meetsTarget,
  summarizeRounds,
  TARGET,
  verdict,
  type RatioSummary,
  type Round,
} from './summary.ts';

export { TARGET } from './summary.ts';

export const OVERHEAD_BROWSERS = ['chromium', 'firefox'] as const;
type BrowserId = (typeof OVERHEAD_BROWSERS)[number];

export interface OverheadArgs {
  help: boolean;
  rounds: number;
  samples: number;
  warmup: number;
  /** Documents for every case; each case's own size when undefined. */
  size?: number;
  build: boolean;
  split: boolean;
  browsers: BrowserId[];
  cases: string[];
  /** Where to write every sample, round by round, as JSON; none when undefined. */
  out?: string;
}

export const OVERHEAD_USAGE = [
  'Usage: npm run bench:overhead -- [--browsers LIST] [--cases LIST] [--rounds N] [--samples N] [--warmup N] [--size N] [--split] [--out FILE] [--no-build]',
  '',
  'Times each case through the harness and through a bare page that does the same with the same',
  'library code, in alternating runs, and prints each ratio of the medians (harness / bare) with',
  'its 95% interval, per browser, the worst last.',
  '',
  `  --browsers LIST  comma-separated, of ${OVERHEAD_BROWSERS.join(', ')} (default both)`,
  `  --cases LIST     comma-separated, of ${OVERHEAD_CASE_IDS.join(', ')} (default all):`,
  ...OVERHEAD_CASES.map(
    (c) =>
      `                     ${c.id.padEnd(11)} ${c.suite}/${c.case} on ${c.adapter}, ${c.size} documents${c.sampleScale ? `, ${c.sampleScale}× the samples (short ones)` : ''}`,
  ),
  '  --rounds N       rounds of one run each way per case, alternating which goes first (default 20)',
  '  --samples N      timed samples per run (default 4)',
  '  --warmup N       warm-up samples per run (default 1)',
  "  --size N         documents for every case (default: each case's own, above)",
  "  --split          also run the bare page's code inside the harness page, to split the",
  '                   overhead into what the page costs and what the harness code costs',
  '  --out FILE       also write every timed sample, round by round and in the order run, as JSON',
  '  --no-build       reuse dist/ if it exists',
  '',
  `Each ratio is ok when its interval lies within ${100 * INTERVAL_TARGET}% of 1 and holds 1 or the ratio is within ${100 * TARGET}%`,
  `of 1; outside when the interval lies wholly beyond ${100 * TARGET}% of 1; else undecided (too wide to tell).`,
  'Exit codes: 0 every ratio is ok; 1 one is not, or a run failed; 2 bad flags, a browser that is not there, or an --out that cannot be written.',
].join('\n');

export const OVERHEAD_FLAGS: Readonly<Record<string, FlagSpec>> = {
  browsers: { kind: 'value', example: 'chromium,firefox' },
  cases: { kind: 'value', example: 'serial-idb,bulk' },
  rounds: { kind: 'value', example: '20' },
  samples: { kind: 'value', example: '4' },
  warmup: { kind: 'value', example: '1' },
  size: { kind: 'value', example: '1000' },
  out: { kind: 'value', example: 'overhead.json', output: 'file' },
  split: { kind: 'switch' },
  'no-build': { kind: 'switch' },
};

/** A comma-separated list of names from `allowed`, in the order given; all of them when absent. */
function nameList<T extends string>(
  text: string | undefined,
  flag: string,
  allowed: readonly T[],
): T[] {
  if (text === undefined) return [...allowed];
  const names = text.split(',').map((s) => s.trim());
  if (names.includes(''))
    throw new Error(
      `--${flag}: "${text}" names none between two commas or at an end; allowed: ${allowed.join(', ')}`,
    );
  const bad = names.filter((n) => !(allowed as readonly string[]).includes(n));
  if (bad.length > 0)
    throw new Error(
      `--${flag}: unknown ${bad.map((b) => `"${b}"`).join(', ')}; allowed: ${allowed.join(', ')}`,
    );
  return [...new Set(names)] as T[];
}

export function parseOverheadArgs(argv: readonly string[]): OverheadArgs {
  // Many short runs rather than a few long ones: on a busy machine the load changes within
  // seconds, and only a fine alternation spreads it evenly over both ways.
  const flags = scanFlags(argv, OVERHEAD_FLAGS);
  const limits = {
    rounds: [1, 1000, 20],
    samples: [1, 1000, 4],
    warmup: [0, 100, 1],
    size: [1, 1_000_000, 0],
  } as const;
  const out = flagText(flags, 'out');
  const count = (name: keyof typeof limits) =>
    flagInteger(flags, name, limits[name][0], limits[name][1], limits[name][2]);
  const size = flags.values.has('size') ? count('size') : undefined;
  return {
    help: flags.help,
    rounds: count('rounds'),
    samples: count('samples'),
    warmup: count('warmup'),
    ...(size !== undefined && { size }),
    build: !flags.values.has('no-build'),
    split: flags.values.has('split'),
    browsers: nameList(flagText(flags, 'browsers'), 'browsers', OVERHEAD_BROWSERS),
    cases: nameList(flagText(flags, 'cases'), 'cases', OVERHEAD_CASE_IDS),
    ...(out !== undefined && { out }),
  };
}

const IN_HARNESS = 'bare code in the harness page';

/** One case in one browser while the bench runs: its ways and its rounds so far. */
interface CaseRun {
  c: OverheadCase;
  ways: Record<string, () => Promise<RunSamples>>;
  rounds: { order: string[]; samples: Record<string, number[]> }[];
  /** The repeats the harness's last run calibrated, for the bare page's next run. */
  repeats: number;
}

/** What one browser gave: each case's rounds. */
interface BrowserResult {
  id: BrowserId;
  label: string;
  runs: CaseRun[];
}

const FINDERS: Record<BrowserId, () => BrowserCandidate> = {
  chromium: findChromium,
  firefox: findFirefox,
};
const ENGINES = { chromium, firefox };

async function launch(id: BrowserId): Promise<{ browser: Browser; label: string; tmp: string }> {
  const found = FINDERS[id]();
  if (!found.found || !found.playwright)
    throw new Error(`${id}: ${found.found ? 'no Playwright launch settings' : found.why}`);
  const { executablePath, args, channel } = found.playwright;
  // Short enough for Chromium's socket whatever TMPDIR is (files/temp.ts), as the sweep gives its browsers.
  const tmp = makeTempFolder('browser');
  const browser = await ENGINES[id].launch({
    executablePath,
    args,
    env: { ...process.env, TMPDIR: tmp },
    ...(channel ? { channel } : {}),
    headless: true,
  });
  return { browser, label: `${found.label} ${found.version}`, tmp };
}

/** Open each case's pages in the browser: the harness, the bare page and, with --split, the bare code in the harness page. */
async function openCases(
  browser: Browser,
  origin: string,
  a: OverheadArgs,
  scripts: BareScripts,
): Promise<CaseRun[]> {
  const runs: CaseRun[] = [];
  for (const id of a.cases) {
    const c = OVERHEAD_CASES.find((k) => k.id === id) as OverheadCase;
    const shape: RunShape = {
      size: a.size ?? c.size,
      samples: a.samples * (c.sampleScale ?? 1),
      warmup: a.warmup,
    };
    const h = await harnessPage(browser, origin, c, shape);
    const run: CaseRun = { c, ways: {}, rounds: [], repeats: 1 };
    const bare = await bareWay(browser, origin, c, shape, scripts);
    run.ways.harness = async () => {
      const got = await h.run();
      run.repeats = got.repeats;
      return got;
    };
    run.ways.bare = () => bare(run.repeats);
    if (a.split) {
      const inHarness = await bareWay(browser, origin, c, shape, scripts, h.page);
      run.ways[IN_HARNESS] = () => inHarness(run.repeats);
    }
    runs.push(run);
  }
  return runs;
}

/** One browser's rounds: every case each round, each case's ways in alternating order. */
async function benchBrowser(
  id: BrowserId,
  origin: string,
  a: OverheadArgs,
  scripts: BareScripts,
  out: (line: string) => void,
): Promise<BrowserResult> {
  const { browser, label, tmp } = await launch(id);
  try {
    out(`${id}: ${label}`);
    const runs = await openCases(browser, origin, a, scripts);
    // A first round of each, not counted: all start with their code compiled and their caches warm.
    for (const run of runs) for (const way of Object.keys(run.ways)) await run.ways[way]?.();
    for (let round = 0; round < a.rounds; round++) {
      for (const run of runs) {
        const ways = Object.keys(run.ways);
        const order = round % 2 === 0 ? ways : [...ways].reverse();
        const samples: Record<string, number[]> = {};
        for (const way of order) samples[way] = (await run.ways[way]?.())?.samples ?? [];
        run.rounds.push({ order, samples });
      }
      if (a.rounds <= 20 || (round + 1) % 10 === 0) {
        const ratios = runs.map((r) => {
          const s = r.rounds.at(-1)?.samples ?? {};
          return `${r.c.id} ${(median(s.harness ?? []) / median(s.bare ?? [])).toFixed(3)}`;
        });
        out(`  round ${round + 1}: ${ratios.join(', ')} (harness / bare, the round's medians)`);
      }
    }
    return { id, label, runs };
  } finally {
    await browser.close().catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A summary line per case and browser, the worst last, with the split lines under each. */
function report(
  results: readonly BrowserResult[],
  a: OverheadArgs,
  out: (line: string) => void,
): boolean {
  const rows: { s: RatioSummary; line: string; split?: string }[] = [];
  for (const b of results) {
    for (const run of b.runs) {
      const pick = (num: string, den: string): Round[] =>
        run.rounds.map((r) => ({ harness: r.samples[num] ?? [], bare: r.samples[den] ?? [] }));
      const s = summarizeRounds(pick('harness', 'bare'));
      if (!s) continue;
      const line = `  ${b.id.padEnd(8)} ${run.c.id.padEnd(10)} ${s.ratio.toFixed(4)} [${s.lo.toFixed(4)}, ${s.hi.toFixed(4)}]  ${verdict(s).padEnd(7)} medians ${fmt(s.harnessMedian)} / ${fmt(s.bareMedian)} ms, ${s.rounds} rounds (${run.c.title}, ${a.size ?? run.c.size} docs)`;
      let split: string | undefined;
      if (a.split) {
        const page = summarizeRounds(pick(IN_HARNESS, 'bare'));
        const code = summarizeRounds(pick('harness', IN_HARNESS));
        if (page && code)
          split = `             split: the page ${page.ratio.toFixed(4)} [${page.lo.toFixed(4)}, ${page.hi.toFixed(4)}] (bare code, harness page / bare page) × the harness code ${code.ratio.toFixed(4)} [${code.lo.toFixed(4)}, ${code.hi.toFixed(4)}]`;
      }
      rows.push({ s, line, ...(split && { split }) });
    }
  }
  out('');
  out(
    'harness / bare: ratio of the medians of all timed samples, 95% interval by a bootstrap over rounds; the worst last',
  );
  rows.sort((x, y) => badness(x.s) - badness(y.s));
  for (const r of rows) {
    out(r.line);
    if (r.split) out(r.split);
  }
  return rows.length > 0 && rows.every((r) => meetsTarget(r.s));
}

function writeOut(file: string, results: readonly BrowserResult[], a: OverheadArgs): void {
  const record = {
    tool: 'storebench bench:overhead',
    date: new Date().toISOString(),
    args: { ...a, out: undefined },
    browsers: results.map((b) => ({
      id: b.id,
      label: b.label,
      cases: b.runs.map((run) => ({
        id: run.c.id,
        suite: run.c.suite,
        case: run.c.case,
        adapter: run.c.adapter,
        size: a.size ?? run.c.size,
        summary: summarizeRounds(
          run.rounds.map((r) => ({ harness: r.samples.harness ?? [], bare: r.samples.bare ?? [] })),
        ),
        rounds: run.rounds.map((r, i) => ({ round: i + 1, ...r })),
      })),
    })),
  };
  writeAtomically(file, `${JSON.stringify(record, null, 1)}\n`);
}

type Say = (line?: string) => void;

export async function benchOverhead(argv: readonly string[]): Promise<number> {
  const out: Say = (line = '') => process.stdout.write(`${line}\n`);
  const fail = (line: string) => process.stderr.write(`bench:overhead: ${line}\n`);
  let args: OverheadArgs;
  try {
    args = parseOverheadArgs(argv);
  } catch (e) {
    fail(`${errorMessage(e)} (see --help)`);
    return 2;
  }
  if (args.help) {
    out(OVERHEAD_USAGE);
    return 0;
  }
  const refused = preflight(args);
  if (refused) {
    fail(refused.why);
    return refused.code;
  }
  const results = await measure(args, out, fail);
  if (results === null) return 1;
  const within = report(results, args, out);
  if (args.out) {
    try {
      writeOut(args.out, results, args);
      out(`wrote every sample to ${args.out}`);
    } catch (e) {
      fail(`cannot write ${args.out}: ${errorMessage(e)}`);
    }
  }
  out(
    within
      ? 'every ratio is ok'
      : `not every ratio is ok (an interval within ${100 * INTERVAL_TARGET}% of 1 that holds 1, or with the ratio within ${100 * TARGET}%); undecided ones need more --rounds, or a quieter machine`,
  );
  return within ? 0 : 1;
}

/** What stops the bench before minutes of runs rather than after: an --out that cannot be written, or a browser that is not there (2). */
function preflight(args: OverheadArgs): { why: string; code: number } | null {
  try {
    checkOutputs(outputsOf(OVERHEAD_FLAGS, { out: args.out }));
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    return { why: e.message, code: 2 };
  }
  const missing = args.browsers.map((id) => FINDERS[id]()).filter((b) => !b.found || !b.playwright);
  if (missing.length > 0)
    return {
      why: missing
        .map((b) => `no ${b.id}: ${b.found ? 'no Playwright launch settings' : b.why}`)
        .join('; '),
      code: 2,
    };
  return null;
}

/** Every browser's rounds, against the built page served here; null (said) when a browser failed. */
async function measure(
  args: OverheadArgs,
  out: Say,
  fail: (line: string) => void,
): Promise<BrowserResult[] | null> {
  if (args.build || !distExists()) {
    process.stdout.write('building the page… ');
    await buildPage();
    out('done');
  }
  const server = await startServer({ root: DIST_DIR });
  const results: BrowserResult[] = [];
  try {
    out(
      `bench:overhead: ${args.cases.join(', ')} in ${args.browsers.join(', ')}: ${args.rounds} rounds of ${args.samples} samples (+${args.warmup} warm-up) each way`,
    );
    const scripts = new BareScripts();
    for (const id of args.browsers)
      results.push(await benchBrowser(id, server.origin, args, scripts, out));
    return results;
  } catch (e) {
    fail(errorMessage(e));
    return null;
  } finally {
    await server.close();
  }
}

const fmt = (ms: number) => ms.toFixed(2);

if (isEntry(import.meta.url)) runEntry('bench:overhead', benchOverhead);
