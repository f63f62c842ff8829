/**
 * The published site: the page built for any static host (relative URLs, Vite's mode `site`),
 * with the given results files in its results/ folder and their listing, and the service worker
 * that isolates the page where the host sends no headers (public/coi-serviceworker.js, loaded
 * first by a script tag in the head). Node only.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import { RESULTS_FILE_NAME } from '../../core/results/input.ts';
import { ResultsError } from '../../core/results/results.ts';
import { clipped } from '../../core/base/shown.ts';
import { OutputDir, OutputError } from '../files/output.ts';
import { readResultsFiles, readResultsText } from '../files/read-results.ts';
import {
  readResultsIndex,
  RESULTS_INDEX_NAME,
  RESULTS_SCHEMA_NAME,
} from '../server/results-index.ts';
import { REPO_ROOT } from './build-page.ts';

/** Left in every site this command writes, so a later build may replace that folder and no other. */
export const SITE_MARKER = '.storebench-site';

/** A folder the site may not be written to, or a file that cannot go into it: exit 2. */
export class SiteError extends Error {
  override readonly name = 'SiteError';
}

/** The script tag that loads the isolating service worker before the page's own module. */
function isolationScript(): Plugin {
  return {
    name: 'storebench-site-isolation',
    transformIndexHtml: () => [
      { tag: 'script', attrs: { src: './coi-serviceworker.js' }, injectTo: 'head' },
    ],
  };
}

/** The files' texts by the name they get in results/, each read and validated as every reader does. */
export function siteResults(files: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const path of files) {
    const name = basename(path);
    if (name === RESULTS_SCHEMA_NAME || name === RESULTS_INDEX_NAME) continue;
    if (!RESULTS_FILE_NAME.test(name))
      throw new ResultsError(
        `${path}: "${name}" cannot be a file name in the site's results/ (letters, digits, ".", "_", "-", ending in .json)`,
      );
    if (out.has(name))
      throw new ResultsError(
        `${path}: two files are named ${name}; results/ holds one of each name`,
      );
    const text = readResultsText(path);
    readResultsFiles([path], () => text);
    out.set(name, text);
  }
  if (out.size === 0) throw new ResultsError('no results files given: the site would show nothing');
  return out;
}

/** The marker's first line; the files the build wrote follow, one a line. */
const MARKER_HEAD =
  'Written by npm run site. A later build replaces the files listed here, and refuses this folder if it holds any other.';

/** Every file under `dir`, as a relative path with `/`; links are listed, never followed. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => !d.isDirectory())
    .map((d) => relative(dir, join(d.parentPath, d.name)).split(sep).join('/'));
}

/**
 * Refuse an output folder that is not a folder, holds anything but a site this command wrote
 * (its marker lists every file it wrote: a file a user added is never deleted by a rebuild), or
 * holds the repository; and a place where no folder can be made (/proc).
 */
export function checkSiteTarget(out: string): void {
  const target = resolve(out);
  const repo = resolve(REPO_ROOT);
  if (target === repo || !relative(target, repo).startsWith('..'))
    throw new SiteError(
      `${out}: the site cannot replace the repository or a folder holding it; give a folder of its own, e.g. site/`,
    );
  let kind;
  try {
    kind = lstatSync(target);
  } catch {
    return checkParent(out, target);
  }
  if (!kind.isDirectory())
    throw new SiteError(`${out}: not a folder; give a new or empty folder for the site`);
  const names = readdirSync(target);
  if (names.length === 0) return checkParent(out, target);
  if (!names.includes(SITE_MARKER))
    throw new SiteError(
      `${out}: a folder that is not empty and is not a site npm run site wrote; give a new or empty folder`,
    );
  const wrote = new Set(readFileSync(join(target, SITE_MARKER), 'utf8').split('\n').slice(1));
  const others = filesUnder(target).filter((f) => f !== SITE_MARKER && !wrote.has(f));
  if (others.length > 0)
    throw new SiteError(
      `${out}: holds ${others.length} file${others.length === 1 ? '' : 's'} npm run site did not write (${clipped(others.slice(0, 3).join(', '), 200)}); a rebuild would delete them: move them, or give another folder`,
    );
  checkParent(out, target);
}

/** The folder beside which the build stages the site must take a new folder: tried now. */
function checkParent(out: string, target: string): void {
  try {
    OutputDir.prepare(dirname(target));
  } catch (e) {
    if (!(e instanceof OutputError)) throw e;
    throw new SiteError(`${out}: ${e.message.replace(/^--out:? ?/, '')}`);
  }
  // Node's recursive mkdir never returns where the system refuses a folder with ENOENT (/proc).
  const probe = `${target}.check-${process.pid}`;
  try {
    mkdirSync(probe);
    rmSync(probe, { recursive: true, force: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    throw new SiteError(
      `${out}: no folder can be made in ${dirname(target)} (${code}); give another place`,
    );
  }
}

/** Build the site into `out`, through a folder beside it, so a failed build leaves the old site whole. */
export async function buildSite(results: ReadonlyMap<string, string>, out: string): Promise<void> {
  checkSiteTarget(out);
  const target = resolve(out);
  const staging = `${target}.partial-${process.pid}`;
  const drop = () => rmSync(staging, { recursive: true, force: true });
  process.once('SIGINT', () => {
    drop();
    process.exit(130);
  });
  try {
    const { build } = await import('vite');
    await build({
      root: REPO_ROOT,
      configFile: join(REPO_ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'site',
      base: './',
      build: { outDir: staging, emptyOutDir: true },
      plugins: [isolationScript()],
    });
    // The build copies the repository's results/; the site holds the files given instead.
    const folder = join(staging, 'results');
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
    for (const [name, text] of results) writeFileSync(join(folder, name), text);
    writeFileSync(
      join(folder, RESULTS_INDEX_NAME),
      `${JSON.stringify(readResultsIndex(folder), null, 1)}\n`,
    );
    // GitHub Pages would otherwise run Jekyll over the folder.
    writeFileSync(join(staging, '.nojekyll'), '');
    writeFileSync(join(staging, SITE_MARKER), [MARKER_HEAD, ...filesUnder(staging)].join('\n'));
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  } finally {
    drop();
  }
}
