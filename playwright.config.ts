import { defineConfig, type PlaywrightTestProject } from '@playwright/test';
import {
  findChromium,
  findFirefox,
  findWebKit,
  type BrowserCandidate,
} from './src/cli/drivers/discovery.ts';

/**
 * One project per engine, so `npx playwright test --project=firefox` runs the end-to-end tests
 * in that engine. Browsers come from discovery (src/cli/drivers/discovery.ts), as for the sweep:
 * Playwright's own builds where installed, otherwise Debian's Chromium and a stock Firefox over
 * WebDriver BiDi (channel moz-firefox).
 *
 * WebKit is a project only when Playwright's own WebKit build is installed: Playwright drives
 * only its patched WebKit and cannot drive a stock WebKitGTK or Safari (docs/browsers.md, "Browsers on this kind of machine"). Stock
 * WebKitGTK still runs in CI, through the sweep's WebDriver driver (tests/e2e/sweep.spec.ts).
 *
 * Some tests run once, in the first project, rather than once per engine: the sweep tests
 * (sweep*.spec.ts, study.spec.ts) start browsers of their own, all three engines among them, in a child
 * process; the explorer test reads results files and draws them, which exercises no storage
 * engine and would only repeat itself.
 */
// E2E_PORT lets two checkouts run their end-to-end tests side by side without reusing each other's server.
const PORT = Number(process.env.E2E_PORT ?? 5179);
const ONCE = [/sweep[^/]*\.spec\.ts$/, /study\.spec\.ts$/, /explorer\.spec\.ts$/];

function project(
  name: 'chromium' | 'firefox' | 'webkit',
  b: BrowserCandidate,
): PlaywrightTestProject | null {
  if (!b.found || !b.playwright) return null;
  const { executablePath, args, channel } = b.playwright;
  return {
    name,
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
// With no browser at all, a bare project makes Playwright say which browser to install.
const projects =
  found.length > 0
    ? found.map((p, i) => (i === 0 ? p : { ...p, testIgnore: ONCE }))
    : [{ name: 'chromium', use: { browserName: 'chromium' as const } }];

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 120_000,
  fullyParallel: false,
  workers: 1,
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
