/**
 * The published site: the page built for any static host (relative URLs, Vite's mode `site`),
 * with the given results files in its results/ folder and their listing, and the service worker
 * that isolates the page where the host sends no headers (public/coi-serviceworker.js, loaded
 * first by a script tag in the head). Node only.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { RESULTS_FILE_NAME } from '../../core/results/input.ts';
import { ResultsError } from '../../core/results/results.ts';
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

/** Refuse an output folder that holds anything but a site this command wrote, or the repository itself. */
export function checkSiteTarget(out: string): void {
  const target = resolve(out);
  const repo = resolve(REPO_ROOT);
  if (target === repo || !relative(target, repo).startsWith('..'))
    throw new SiteError(
      `${out}: the site cannot replace the repository or a folder holding it; give a folder of its own, e.g. site/`,
    );
  if (!existsSync(target)) return;
  const names = readdirSync(target);
  if (names.length > 0 && !names.includes(SITE_MARKER))
    throw new SiteError(
      `${out}: a folder that is not empty and is not a site npm run site wrote; give a new or empty folder`,
    );
}

/** Build the site into `out`, through a folder beside it, so a failed build leaves the old site whole. */
export async function buildSite(results: ReadonlyMap<string, string>, out: string): Promise<void> {
  checkSiteTarget(out);
  const target = resolve(out);
  mkdirSync(dirname(target), { recursive: true });
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
    writeFileSync(
      join(staging, SITE_MARKER),
      'Written by npm run site; a later build replaces this folder.\n',
    );
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
  } finally {
    drop();
  }
}
