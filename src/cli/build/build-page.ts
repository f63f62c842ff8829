/**
 * Build the page with Vite's own API and the project's vite.config.ts, so the sweep always
 * serves the code in the working tree (the commit stamped into results comes from the config).
 * The config is imported here, through the loader this process already runs (tsx), rather than
 * bundled by Vite, which leaves a config alone when it sits in a node_modules folder, as an
 * installed storebench's does.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { InlineConfig, Plugin, UserConfig } from 'vite';
import { clipped } from '../../core/base/shown.ts';

/** The repository root, found from this file rather than the working directory. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const DIST_DIR = join(REPO_ROOT, 'dist');

export function distExists(dist = DIST_DIR): boolean {
  return existsSync(join(dist, 'index.html'));
}

/**
 * Build the page into `outDir` (default dist/). The sweep builds into a directory of its own, so
 * two sweeps from one checkout, or a sweep next to `npm run build`, never serve each other's
 * half-written files. `plugins` adds to the config's, in the page and its Workers alike (a
 * sweep's variants: variants-plugin.ts).
 */
export async function buildPage(
  root = REPO_ROOT,
  outDir = join(root, 'dist'),
  plugins: () => Plugin[] = () => [],
): Promise<string> {
  // Loaded here, not at the top: a sweep that stops at a bad flag should not wait for Vite.
  const { build, createLogger, mergeConfig } = await import('vite');
  const config = (
    (await import(pathToFileURL(join(root, 'vite.config.ts')).href)) as { default: UserConfig }
  ).default;
  // Errors reach the caller as the thrown error, said once in one line (buildProblem), not also
  // printed by Vite with their colours and code frames.
  const logger = createLogger('warn');
  logger.error = () => {};
  const merged = mergeConfig(config, {
    root,
    configFile: false,
    logLevel: 'warn',
    customLogger: logger,
    mode: 'production',
    // Rolldown warns when its plugins are slow, which on a busy machine is every build; that is
    // about the build, not the page, and it buried the sweep's own output.
    build: { outDir, emptyOutDir: true, rolldownOptions: { checks: { bundlerTimings: false } } },
    // A Worker's bundle takes plugins of its own, and the plan Worker imports the registry too.
    worker: { rolldownOptions: { checks: { bundlerTimings: false } }, plugins },
    plugins: plugins(),
  } satisfies InlineConfig) as InlineConfig;
  // Vite sets NODE_ENV to production for the whole process when it is unset, and every process
  // started after it would inherit that (npm then installs no devDependencies).
  const nodeEnv = process.env.NODE_ENV;
  try {
    await build(merged);
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const dist = outDir;
  if (!distExists(dist))
    throw new Error(
      `the build finished but ${dist} has no index.html; is there an index.html at the repository root?`,
    );
  return dist;
}

/**
 * A failed build in one line: the bundler's first error with where it is, without its colours,
 * code frame or stack (a bundler's message holds all three, 24 lines for one bad entry).
 */
export function buildProblem(e: unknown): string {
  // eslint-disable-next-line no-control-regex
  const text = (e instanceof Error ? e.message : String(e)).replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const first =
    lines.find((l) => /^\[[A-Z_]+\]/.test(l)) ??
    lines.find((l) => !/^(Build failed|error during build)/i.test(l)) ??
    lines[0] ??
    'no message';
  const where = /╭─+\[\s*(.+?)\s*\]/.exec(text)?.[1];
  const count = /^Build failed with (\d+ errors?)/.exec(lines[0] ?? '')?.[1];
  return clipped(
    `${first}${where === undefined ? '' : ` (at ${where})`}${count === undefined ? '' : `; ${count} in all`}`,
  );
}
