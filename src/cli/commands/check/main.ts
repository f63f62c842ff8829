/**
 * `storebench check [ADAPTER...] [--browsers a,b] [--config FILE]`: the adapter contract that
 * storebench's own stores keep (src/adapters/contract-probes/, the contract test runs the same), on the
 * stores named, or on the config's adapters, in each browser. It builds the page with the config's
 * adapters, opens its check.html in each browser (run.ts) and prints, per store and browser,
 * whether it keeps the contract, and one line per failed contract with what was expected and what
 * came back. A sweep runs the same check on the config's adapters before it times them.
 *
 * Exit codes: 0 every store keeps the contract (or cannot run in a browser, which is said); 1 a
 * browser could not run it, or --summary could not be written at the end; 2 a store failed a
 * check, or bad flags, names or config, or a --summary that cannot be written (said before any work).
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { PlanError } from '../../../core/plan/plan.ts';
import { parsePlan } from '../../../core/plan/fields.ts';
import type { CommandIo } from '../../args/command-io.ts';
import { ConfigError, readConfig, type StorebenchConfig } from '../../args/config-file.ts';
import { ArgsError, flagText, outputsOf, scanFlags, type FlagSpec } from '../../args/flags.ts';
import { buildPage, REPO_ROOT } from '../../build/build-page.ts';
import { pagePlugins } from '../../build/page-plugins.ts';
import { removeGitBuild } from '../../build/user-adapters.ts';
import { loadVocabulary, type Vocabulary } from '../../build/vocabulary.ts';
import { findBrowsers, KNOWN_BROWSER_IDS } from '../../drivers/discovery.ts';
import { makeTempFolder } from '../../files/temp.ts';
import { checkOutputs, OutputError } from '../../files/output.ts';
import { startServer } from '../../server/page-server.ts';
import type { BrowserSession } from '../../server/session.ts';
import { checkedBrowser } from '../../terminal/contract-lines.ts';
import { driveWith } from '../../browser-runs/targets.ts';
import type { Target } from '../../browser-runs/sweep-run.ts';
import { prepareVariants, type Builds } from '../../browser-runs/variants.ts';
import { checkInBrowser } from '../../browser-runs/contract-run.ts';
import { EndedSummary } from '../../browser-runs/ended-summary.ts';
import { CHECK_SUMMARY } from '../../../export/summary-markdown.ts';

export const CHECK_FLAGS: Record<string, FlagSpec> = {
  browsers: { kind: 'value', example: 'chromium,firefox' },
  config: { kind: 'value', example: 'storebench.config.json' },
  summary: { kind: 'value', example: 'check.md', output: 'file' },
};

export const CHECK_USAGE = `Usage: storebench check [ADAPTER...] [--browsers a,b] [--config FILE] [--summary FILE.md]   (npm run check -- ...)

Runs the adapter contract on each store in each browser: the same operations on the store and
on the memory store, every answer compared (put, get, count, range, getMany, update, remove,
queries, views, durability, a Worker: each only where the store declares the capability), that
destroy really deletes, and that each declared capability has its methods. Prints one line per
failed contract, with what was expected and what came back.

  ADAPTER        stores to check: storebench's own, your config's, or variants of them
                 (default: every adapter of the config)
  --browsers a,b browsers (default: the config's sweep.browsers, else every one found); allowed:
                 ${KNOWN_BROWSER_IDS.join(', ')}
  --config FILE  the config whose adapters join storebench's (default: ./storebench.config.json)
  --summary FILE.md  also write the outcome as Markdown, whatever it is, for a pull request or
                 $GITHUB_STEP_SUMMARY: each store in each browser, the failed checks, the exit code

storebench sweep runs this check on the config's adapters before it times them (--no-check skips it).
Exit codes: 0 every store keeps the contract; 1 a browser could not run it; 2 a store failed a
check, or bad flags, store names or config, or a --summary FILE that cannot be written (said
before anything runs).`;

interface CheckInputs {
  config: StorebenchConfig | null;
  ids: string[];
  browsers: string[] | null;
  /** --summary FILE.md, or null. */
  summary: string | null;
}

function parseCheckArgs(argv: readonly string[]): CheckInputs | 'help' {
  const flags = scanFlags(argv, CHECK_FLAGS, { positionals: 'adapter ids' });
  if (flags.help) return 'help';
  const config = readConfig(flagText(flags, 'config'));
  const split = (text: string) =>
    text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const browsersText = flagText(flags, 'browsers') ?? config?.sweep.get('browsers');
  const browsers = typeof browsersText === 'string' ? [...new Set(split(browsersText))] : null;
  const unknown = (browsers ?? []).filter((b) => !KNOWN_BROWSER_IDS.includes(b));
  if (unknown.length > 0 || browsers?.length === 0)
    throw new ArgsError(
      `--browsers: ${unknown.length > 0 ? `unknown ${unknown.map((b) => `"${b}"`).join(', ')}` : 'none given'}; allowed: ${KNOWN_BROWSER_IDS.join(', ')}`,
    );
  return {
    config,
    ids: flags.positionals.flatMap(split),
    browsers,
    summary: flagText(flags, 'summary') ?? null,
  };
}

/** The stores to check, as the plan names them (variants in their shortest form); a PlanError says which is unknown. */
function storesToCheck(inputs: CheckInputs, vocab: Vocabulary): string[] {
  if (inputs.ids.length === 0) {
    if (vocab.user.length === 0)
      throw new ArgsError(
        'name the stores to check (e.g. storebench check memory), or give a storebench.config.json with adapters',
      );
    return vocab.user.map((u) => u.id);
  }
  try {
    return parsePlan({ adapters: inputs.ids.join(',') }, vocab).adapters;
  } catch (e) {
    if (e instanceof PlanError) throw new ArgsError(e.message);
    throw e;
  }
}

function targetsFor(browsers: string[] | null, fail: (line: string) => void): Target[] {
  const found = findBrowsers();
  const wanted = browsers ?? found.filter((b) => b.found).map((b) => b.id);
  const targets: Target[] = [];
  for (const id of wanted) {
    const b = found.find((c) => c.id === id);
    if (b?.found) targets.push(driveWith(b));
    else fail(`${id}: not found: ${b ? b.why : 'this build cannot drive it'}`);
  }
  return targets;
}

export async function checkCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const told = new EndedSummary(argv, CHECK_SUMMARY);
  const out = (line = '') => io.stdout(`${line}\n`);
  const fail = (line: string) => {
    told.failed(line);
    io.stderr(`check: ${line}\n`);
  };
  let code = 1;
  try {
    code = await checkPhases(argv, { out, fail }, told);
  } finally {
    // Checked before any work, the file may still fail now (a disk that filled up): CI must hear.
    if (!told.write(code, out, fail) && code === 0) code = 1;
  }
  return code;
}

async function checkPhases(
  argv: readonly string[],
  { out, fail }: { out: (line?: string) => void; fail: (line: string) => void },
  told: EndedSummary,
): Promise<number> {
  let inputs: CheckInputs | 'help';
  let vocab: Vocabulary;
  let ids: string[];
  try {
    inputs = parseCheckArgs(argv);
    if (inputs === 'help') {
      // Nothing ran: no summary to write, as the sweep writes none for --help.
      told.reported();
      return (out(CHECK_USAGE), 0);
    }
    // Before any work: a summary found unwritable after every browser ran tells CI nothing.
    checkOutputs(outputsOf(CHECK_FLAGS, { summary: inputs.summary }));
    vocab = await loadVocabulary(inputs.config);
    ids = storesToCheck(inputs, vocab);
  } catch (e) {
    if (!(e instanceof ArgsError) && !(e instanceof ConfigError) && !(e instanceof OutputError))
      throw e;
    return (fail(`${e.message}${e instanceof ArgsError ? ' (see --help)' : ''}`), 2);
  }
  const targets = targetsFor(inputs.browsers, fail);
  if (targets.length === 0) return (fail('no browser to run the contract in'), 1);
  const builds = await prepareVariants(
    { ids, vocab, user: vocab.user, page: null },
    { out, fail },
    new AbortController().signal,
  );
  if ('exit' in builds) return builds.exit;
  try {
    return await checkStores(ids, targets, vocab, builds, out, told);
  } finally {
    for (const b of builds.git) removeGitBuild(b);
  }
}

/** Build, serve, and run the contract in each browser in turn; the exit code. */
async function checkStores(
  ids: readonly string[],
  targets: readonly Target[],
  vocab: Vocabulary,
  builds: Builds,
  out: (line?: string) => void,
  told: EndedSummary,
): Promise<number> {
  out(`storebench check: ${ids.join(', ')} in ${targets.map((t) => t.id).join(', ')}`);
  const dir = makeTempFolder('page');
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  let session: BrowserSession | undefined;
  const token = randomUUID();
  try {
    out('  building the page…');
    await buildPage(REPO_ROOT, dir, pagePlugins({ ...builds, user: vocab.user }));
    const server = await startServer({
      root: dir,
      collector: { token, onMessage: (m) => void session?.accept(m) },
    });
    const failed = new Set<string>();
    let unfinished = false;
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    try {
      for (const target of targets) {
        if (stop.signal.aborted) break;
        const end = await checkInBrowser({
          origin: server.origin,
          token,
          target,
          ids,
          signal: stop.signal,
          onSession: (s) => (session = s),
        });
        const seen = checkedBrowser(target.id, end);
        for (const line of seen.lines) {
          told.failed(line.trim());
          out(line);
        }
        seen.failed.forEach((id) => failed.add(id));
        unfinished ||= seen.unfinished;
      }
    } finally {
      process.off('SIGINT', onSignal);
      await server.close();
    }
    return verdict(out, [...failed], unfinished || stop.signal.aborted);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function verdict(out: (line?: string) => void, failed: string[], unfinished: boolean): number {
  out();
  if (failed.length > 0) {
    out(`FAILED: ${failed.join(', ')} broke the contract (the lines above say where).`);
    return 2;
  }
  if (unfinished) {
    out('FAILED: a browser could not run the contract (see above).');
    return 1;
  }
  out('OK: every store keeps the contract in every browser it runs in.');
  return 0;
}
