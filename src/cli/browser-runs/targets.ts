/**
 * A browser discovery found, as a target to run: the driver discovery chose for it (Playwright or
 * WebDriver) bound to it. The sweep (its input check) and check run their browsers through it.
 */
import type { FoundBrowser } from '../drivers/discovery.ts';
import type { Driver } from '../drivers/driver.ts';
import { drivePlaywright } from '../drivers/playwright.ts';
import { driveWebDriver } from '../drivers/webdriver.ts';
import type { Target } from './sweep-run.ts';

const DRIVERS: Record<FoundBrowser['driver'], Driver> = {
  playwright: drivePlaywright,
  webdriver: driveWebDriver,
};

export function driveWith(b: FoundBrowser): Target {
  return {
    id: b.id,
    browser: b,
    drive: (url, session, signal, hooks) =>
      DRIVERS[b.driver]({ browser: b, url, session, signal, ...(hooks ? { hooks } : {}) }),
  };
}
