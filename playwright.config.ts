import { defineConfig } from '@playwright/test';
import { findChromium, findFirefox, type BrowserCandidate } from './src/cli/browsers.ts';

/**
 * One project per engine. Browsers come from discovery (src/cli/browsers.ts): Playwright's own
 * builds where installed, otherwise Debian's packages. `npx playwright test --project=firefox`
 * runs the end-to-end tests in that engine.
 */
const PORT = 5179;

function launchOptions(b: BrowserCandidate) {
  if (!b.found || !b.playwright) return {};
  return { executablePath: b.playwright.executablePath, args: b.playwright.args, ...(b.playwright.channel ? { channel: b.playwright.channel } : {}) };
}

const chromium = findChromium();

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 120_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: { baseURL: `http://127.0.0.1:${PORT}`, trace: 'off' },
  webServer: {
    command: `npx vite --port ${PORT} --strictPort --logLevel warn`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium', launchOptions: launchOptions(chromium) } },
  ],
});
