import { defineConfig, type PlaywrightTestProject } from '@playwright/test';
import {
  findChromium,
  findFirefox,
  findWebKit,
  type BrowserCandidate,
} from './src/cli/drivers/discovery.ts';

/**
 * One project per engine, so `npx playwright test --project=firefox` runs the page's end-to-end
 * tests in that engine. Browsers come from discovery (src/cli/drivers/discovery.ts), as for the sweep:
 * Playwright's own builds where installed, otherwise Debian's Chromium and a stock Firefox over
 * WebDriver BiDi (channel moz-firefox).
 *
 * WebKit is a project only when Playwright's own WebKit build is installed: Playwright drives
 * only its patched WebKit and cannot drive a stock WebKitGTK or Safari (docs/browsers.md,
 * "Browsers on this kind of machine"). Stock WebKitGTK still runs in CI, through the sweep's
 * WebDriver driver (tests/e2e/sweep.spec.ts).
 *
 * Some tests run once rather than once per engine:
 * - the CLI tests (sweep*.spec.ts, study.spec.ts) start browsers of their own, all three engines
 *   among them, in a child process; they are the `cli` and `cli-xvfb` projects, with the first
 *   engine found (Chromium here) for the pages they open themselves;
 * - the explorer test reads results files and draws them, which exercises no storage engine and
 *   would only repeat itself: it runs in the first engine.
 *
 * Two workers. Each engine's page tests run one file at a time; the `cli` project's files may
 * take both workers, since in one worker they were the run's longest chain (the driven suites and
 * the installed package alone took 16 of its 27 minutes in CI). Each of its files starts its own
 * sweeps, servers and temporary folders, so two run side by side as a CLI test and a page test
 * always have. `cli-xvfb` holds the CLI tests that start WebKitGTK,
 * under Xvfb, so that no two of them do at once: `xvfb-run -a` takes the first display number
 * free when it looks, and two at once can take the same one.
 */
// E2E_PORT lets two checkouts run their end-to-end tests side by side without reusing each other's server.
const PORT = Number(process.env.E2E_PORT ?? 5179);
const CLI = [/sweep[^/]*\.spec\.ts$/, /study\.spec\.ts$/];
const CLI_XVFB = [/sweep\.spec\.ts$/, /sweep-crash\.spec\.ts$/, /sweep-remote\.spec\.ts$/];
const FIRST_ENGINE_ONLY = [/explorer\.spec\.ts$/];

function project(
  name: 'chromium' | 'firefox' | 'webkit',
  b: BrowserCandidate,
): PlaywrightTestProject | null {
  if (!b.found || !b.playwright) return null;
  const { executablePath, args, channel } = b.playwright;
  return {
    name,
    workers: 1,
    use: {
      browserName: name,
      ...(channel ? { channel } : {}),
      launchOptions: { ...(executablePath ? { executablePath } : {}), args },
    },
  };
}

const found = [
  project('chromium', findChromium()),
  project('firefox', findFirefox()),
  project('webkit', findWebKit()),
].filter((p): p is PlaywrightTestProject => p !== null);
const engines = found.map((p, i) => ({
  ...p,
  testIgnore: i === 0 ? CLI : [...CLI, ...FIRST_ENGINE_ONLY],
}));
const first = found[0];
const cli: PlaywrightTestProject[] = first
  ? [
      { ...first, name: 'cli', workers: 2, testMatch: CLI, testIgnore: CLI_XVFB },
      { ...first, name: 'cli-xvfb', testMatch: CLI_XVFB },
    ]
  : [];
// With no browser at all, a bare project makes Playwright say which browser to install.
const projects =
  engines.length > 0
    ? [...cli, ...engines]
    : [{ name: 'chromium', use: { browserName: 'chromium' as const } }];

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 120_000,
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: 'off' },
  webServer: {
    command: `npx vite --port ${PORT} --strictPort --logLevel warn`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
  },
  projects,
});
