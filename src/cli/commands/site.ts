/**
 * `npm run site -- FILES... --out DIR`: the page as a static site any static host can serve,
 * with the given results files in it: the explorer, the findings and the trends over them, and
 * the plan a visitor can run on their own device and download.
 */
import { ResultsError } from '../../core/results/results.ts';
import { isEntry, runEntry, PROCESS_IO, type CommandIo } from '../args/command-io.ts';
import { ArgsError, flagText, scanFlags, type FlagSpec } from '../args/flags.ts';
import { buildSite, checkSiteTarget, SiteError, siteResults } from '../build/site.ts';
import { resultsPaths } from '../files/results-paths.ts';

export const SITE_USAGE = `Usage: npm run site -- FILES... --out DIR

Writes a static site to DIR: the page, with the results files given (or every results file in
a folder given) in its results/ folder. It opens from any static host, in a sub-folder too: the
explorer shows each browser's newest run, the findings, and the trends over every file. Where the
host sends no cross-origin isolation headers, a service worker adds them (on HTTPS or
localhost); where that fails the page says what is lost. A visitor can run a plan on their own
device and download its results file.

DIR must be new, empty, or a site this command wrote before (which it replaces); a site folder
holding a file this command did not write is refused, never emptied. Links in a results folder
given are not followed.

  --out DIR   where to write the site (required)
  --help      this text

Exit codes: 0 written; 2 bad flags, a file that is not valid results, or a DIR it may not write.`;

/** --out is a folder with rules of its own (build/site.ts checkSiteTarget), checked before any work. */
export const SITE_FLAGS: Readonly<Record<string, FlagSpec>> = {
  out: { kind: 'value', example: 'site/', output: 'folder' },
};

function parseSiteArgs(argv: readonly string[]): { files: string[]; out: string } | 'help' {
  const flags = scanFlags(argv, SITE_FLAGS, { positionals: 'results files' });
  if (flags.help) return 'help';
  const out = flagText(flags, 'out');
  if (flags.positionals.length === 0)
    throw new ArgsError('no results files given; e.g. npm run site -- results/*.json --out site/');
  if (out === undefined) throw new ArgsError('--out DIR is required: where to write the site');
  return { files: flags.positionals, out };
}

export async function siteCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  let args: ReturnType<typeof parseSiteArgs>;
  try {
    args = parseSiteArgs(argv);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`site: ${e.message} (see --help)\n`);
    return 2;
  }
  if (args === 'help') {
    io.stdout(`${SITE_USAGE}\n`);
    return 0;
  }
  let results: Map<string, string>;
  try {
    checkSiteTarget(args.out);
    results = siteResults(resultsPaths(args.files));
  } catch (e) {
    if (!(e instanceof ResultsError) && !(e instanceof SiteError)) throw e;
    io.stderr(`site: ${e.message}\n`);
    return 2;
  }
  io.stdout(
    `Building the site with ${results.size} results file${results.size === 1 ? '' : 's'}…\n`,
  );
  await buildSite(results, args.out);
  io.stdout(
    `Wrote ${args.out}: serve it from any static host (index.html at its root), e.g. npx vite preview --outDir ${args.out}, which also sends the isolation headers.\n`,
  );
  return 0;
}

if (isEntry(import.meta.url)) runEntry('site', (argv) => siteCommand(argv, PROCESS_IO));
