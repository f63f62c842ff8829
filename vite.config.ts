import { execSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { ISOLATION_HEADERS } from './src/cli/server/isolation.ts';
import { resultsFolder } from './src/cli/server/results-index.ts';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** What the page is built from: a change to anything else (docs, tests, results) does not make a build dirty. */
const BUILT_FROM =
  'src suites fixtures public index.html vite.config.ts package.json package-lock.json';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/**
 * The commit the page is built from, `-dirty` when what it is built from differs from it (as `git
 * describe --dirty` marks it); `unknown` outside storebench's own checkout (installed in a store's
 * node_modules, the repository around it is the store's).
 */
function gitCommit(): string {
  const git = (args: string) =>
    execSync(`git ${args}`, { cwd: HERE, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  try {
    if (realpathSync(git('rev-parse --show-toplevel')) !== realpathSync(HERE)) return 'unknown';
    const commit = git('rev-parse --short HEAD');
    return git(`status --porcelain --untracked-files=no -- ${BUILT_FROM}`) === ''
      ? commit
      : `${commit}-dirty`;
  } catch {
    return 'unknown';
  }
}

export default defineConfig({
  define: {
    __STOREBENCH_VERSION__: JSON.stringify(pkg.version),
    __STOREBENCH_COMMIT__: JSON.stringify(gitCommit()),
    // PouchDB 9's browser build still reads Node's `global` (docs/browsers.md, "Browsers on this kind of machine").
    global: 'globalThis',
  },
  server: { headers: { ...ISOLATION_HEADERS }, host: '127.0.0.1' },
  preview: { headers: { ...ISOLATION_HEADERS }, host: '127.0.0.1' },
  // results/*.json and their index, for the page's results explorer: served in dev, copied into dist/results/.
  plugins: [resultsFolder(fileURLToPath(new URL('./results', import.meta.url)))],
  worker: { format: 'es', rolldownOptions: { checks: { bundlerTimings: false } } },
  // SQLite Wasm finds sqlite3.wasm next to its own module (new URL(..., import.meta.url)); a
  // pre-bundled copy in node_modules/.vite would look for it there (package README, "Usage with vite").
  optimizeDeps: { exclude: ['@sqlite.org/sqlite-wasm'] },
  // bundlerTimings (here and in worker): Rolldown's note that plugins took most of a build,
  // printed by every `npm start` on a 2-core machine; it asks nothing of a user.
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      checks: { bundlerTimings: false },
      // The app, and the adapter contract's page that storebench check opens.
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        check: fileURLToPath(new URL('./check.html', import.meta.url)),
      },
    },
  },
});
