/**
 * Build the page with Vite's own API and the project's vite.config.ts, so the sweep always
 * serves the code in the working tree (the commit stamped into results comes from the config).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, found from this file rather than the working directory. */
export const REPO_ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const DIST_DIR = join(REPO_ROOT, 'dist');

export function distExists(dist = DIST_DIR): boolean {
  return existsSync(join(dist, 'index.html'));
}

export async function buildPage(root = REPO_ROOT): Promise<string> {
  // Loaded here, not at the top: a sweep that stops at a bad flag should not wait for Vite.
  const { build } = await import('vite');
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  const dist = join(root, 'dist');
  if (!distExists(dist)) throw new Error(`the build finished but ${dist} has no index.html; is there an index.html at the repository root?`);
  return dist;
}
