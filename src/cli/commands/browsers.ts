/**
 * `storebench browsers`: one line per browser the sweep knows, found or not: its version and how
 * the sweep will drive it, or why it is missing and how to get it. The same discovery the
 * sweep uses, so this is exactly what `storebench sweep` will run.
 */
import { findBrowsers, type BrowserCandidate } from '../drivers/discovery.ts';
import {
  helpOrNoFlags,
  isEntry,
  PROCESS_IO,
  runEntry,
  type CommandIo,
} from '../args/command-io.ts';

export function browserLines(candidates: readonly BrowserCandidate[]): string[] {
  const width = Math.max(...candidates.map((b) => b.id.length));
  return candidates.map((b) =>
    b.found
      ? `${b.id.padEnd(width)}  found      ${b.label} ${b.version}; driven by ${b.how}`
      : `${b.id.padEnd(width)}  not found  ${b.why}`,
  );
}

const USAGE = `Usage: storebench browsers   (npm run browsers in storebench's own checkout)

Lists every browser storebench sweep knows, one line each: found, with its version and how the
sweep drives it, or not found, with how to get it. No flags.

Exit codes: 0 some browser found; 1 none found; 2 bad arguments.`;

export function browsersCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const early = helpOrNoFlags('browsers', USAGE, argv);
  if (early !== null) return Promise.resolve(early);
  const candidates = findBrowsers();
  for (const line of browserLines(candidates)) io.stdout(`${line}\n`);
  const found = candidates.filter((b) => b.found && !b.namedOnly).map((b) => b.id);
  const named = candidates.filter((b) => b.found && b.namedOnly).map((b) => b.id);
  const onlyNamed = named.length > 0 ? `; ${named.join(', ')} only when named` : '';
  io.stdout(
    found.length + named.length > 0
      ? `\nstorebench sweep runs ${found.join(', ')} unless --browsers says otherwise${onlyNamed}. Browsers elsewhere: --remote URL (a Playwright browser server or a WebDriver grid), or --manual (open a URL in any browser).\n`
      : '\nNo browser found; storebench sweep can still record a browser opened by hand (--manual) or a remote one (--remote URL).\n',
  );
  return Promise.resolve(found.length + named.length > 0 ? 0 : 1);
}

if (isEntry(import.meta.url)) runEntry('browsers', (argv) => browsersCommand(argv, PROCESS_IO));
