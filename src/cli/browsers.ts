/**
 * Browser discovery: which browsers this machine has and how each will be driven. Used by
 * `npm run browsers`, the sweep and playwright.config.ts, so all three agree.
 * Facts behind the choices are in ../shared/BROWSERS.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chromium, firefox, webkit } from 'playwright-core';

export type DriverKind = 'playwright' | 'webdriver';

export interface FoundBrowser {
  /** Name used with --browsers and in results file names. */
  id: string;
  found: true;
  label: string;
  version: string;
  driver: DriverKind;
  /** How it will be driven, in words. */
  how: string;
  /** For Playwright: which engine and how to launch it. */
  playwright?: { engine: 'chromium' | 'firefox' | 'webkit'; executablePath?: string; channel?: string; args: string[] };
  /** For WebDriver: the driver binary and the capabilities to ask for. */
  webdriver?: { driverBinary: string; needsXvfb: boolean; capabilities: Record<string, unknown> };
}

export interface MissingBrowser {
  id: string;
  found: false;
  label: string;
  /** Why it was not found, and how to get it. */
  why: string;
}

export type BrowserCandidate = FoundBrowser | MissingBrowser;

/** Chromium flags that worked here as root on a closed network (BROWSERS.md). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export const DEBIAN_INSTALL =
  'apt-get update && apt-get install -y --no-install-recommends chromium firefox-esr webkit2gtk-driver xvfb';

function versionOf(binary: string, args = ['--version']): string {
  try {
    const out = execFileSync(binary, args, { stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 }).toString();
    return /(\d+(?:\.\d+)+)/.exec(out)?.[1] ?? out.trim();
  } catch {
    return 'unknown';
  }
}

function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const candidate = `${dir}/${name}`;
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function playwrightBuild(engine: 'chromium' | 'firefox' | 'webkit'): string | undefined {
  try {
    const path = { chromium, firefox, webkit }[engine].executablePath();
    return path && existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

export function findChromium(): BrowserCandidate {
  const own = playwrightBuild('chromium');
  if (own) {
    return { id: 'chromium', found: true, label: "Chromium (Playwright's build)", version: versionOf(own), driver: 'playwright', how: 'Playwright, its own Chromium build', playwright: { engine: 'chromium', executablePath: own, args: CHROMIUM_ARGS } };
  }
  const debian = ['/usr/bin/chromium', '/usr/bin/chromium-browser', which('chromium')].find((p): p is string => !!p && existsSync(p));
  if (debian) {
    return { id: 'chromium', found: true, label: 'Chromium', version: versionOf(debian), driver: 'playwright', how: `Playwright, Chromium at ${debian}`, playwright: { engine: 'chromium', executablePath: debian, args: CHROMIUM_ARGS } };
  }
  return { id: 'chromium', found: false, label: 'Chromium', why: `no Playwright Chromium build and no chromium binary on PATH; on Debian: ${DEBIAN_INSTALL}; elsewhere: npx playwright install chromium` };
}

export function findFirefox(): BrowserCandidate {
  const own = playwrightBuild('firefox');
  if (own) {
    return { id: 'firefox', found: true, label: "Firefox (Playwright's build)", version: versionOf(own), driver: 'playwright', how: 'Playwright, its own Firefox build', playwright: { engine: 'firefox', executablePath: own, args: [] } };
  }
  const stock = ['/usr/bin/firefox-esr', '/usr/bin/firefox', which('firefox-esr'), which('firefox')].find((p): p is string => !!p && existsSync(p));
  if (stock) {
    return {
      id: 'firefox',
      found: true,
      label: 'Firefox',
      version: versionOf(stock),
      driver: 'playwright',
      // The moz- channel makes Playwright speak WebDriver BiDi to a stock Firefox (experimental).
      how: `Playwright over WebDriver BiDi (channel moz-firefox), Firefox at ${stock}`,
      playwright: { engine: 'firefox', executablePath: stock, channel: 'moz-firefox', args: [] },
    };
  }
  return { id: 'firefox', found: false, label: 'Firefox', why: `no Playwright Firefox build and no firefox or firefox-esr on PATH; on Debian: ${DEBIAN_INSTALL}; elsewhere: npx playwright install firefox` };
}

/** Debian's WebKitGTK MiniBrowser, whose directory is named for the architecture (x86_64-linux-gnu, ...). */
function miniBrowser(): string | undefined {
  for (const lib of ['/usr/lib', '/usr/libexec']) {
    let dirs: string[] = [];
    try {
      dirs = readdirSync(lib);
    } catch {
      continue;
    }
    for (const dir of ['', ...dirs.map((d) => `${d}/`)]) {
      for (const api of ['webkit2gtk-4.1', 'webkitgtk-6.0', 'webkit2gtk-4.0']) {
        const candidate = `${lib}/${dir}${api}/MiniBrowser`;
        if (existsSync(candidate)) return candidate;
      }
    }
  }
  return undefined;
}

function debianPackageVersion(pkg: string): string {
  try {
    const out = execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).toString();
    return /^(\d+(?:\.\d+)+)/.exec(out)?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * WebKitGTK over W3C WebDriver: Playwright drives only its own patched WebKit, never a stock one
 * (BROWSERS.md). WebKitWebDriver needs a display, so without $DISPLAY it runs under xvfb-run.
 */
export function findWebKit(): BrowserCandidate {
  const driverBinary = ['/usr/bin/WebKitWebDriver', which('WebKitWebDriver')].find((p): p is string => !!p && existsSync(p));
  const binary = miniBrowser();
  const needsXvfb = !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
  const xvfb = ['/usr/bin/xvfb-run', which('xvfb-run')].find((p): p is string => !!p && existsSync(p));
  const missing = [
    driverBinary ? undefined : 'no WebKitWebDriver on PATH',
    binary ? undefined : 'no WebKitGTK MiniBrowser',
    needsXvfb && !xvfb ? 'no display and no xvfb-run' : undefined,
  ].filter(Boolean);
  if (!driverBinary || !binary || (needsXvfb && !xvfb)) {
    return { id: 'webkit', found: false, label: 'WebKitGTK', why: `${missing.join(', ')}; on Debian: ${DEBIAN_INSTALL}; on macOS Safari needs safaridriver, which this build does not drive yet` };
  }
  return {
    id: 'webkit',
    found: true,
    label: 'WebKitGTK MiniBrowser',
    version: debianPackageVersion('webkit2gtk-driver'),
    driver: 'webdriver',
    how: `WebDriver, ${driverBinary}${needsXvfb ? ' under xvfb-run' : ''}, MiniBrowser at ${binary}`,
    webdriver: {
      driverBinary,
      needsXvfb,
      capabilities: { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary, args: ['--automation'] } },
    },
  };
}

/** Every browser id the sweep knows, found on this machine or not (for --browsers). */
export const KNOWN_BROWSER_IDS: readonly string[] = ['chromium', 'firefox', 'webkit'];

/** Every candidate this build knows, found or not. */
export function findBrowsers(): BrowserCandidate[] {
  return [findChromium(), findFirefox(), findWebKit()];
}
