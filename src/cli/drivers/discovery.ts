/**
 * Browser discovery: which browsers this machine has and how each will be driven. Used by
 * `npm run browsers`, the sweep and playwright.config.ts, so all three agree.
 * The facts behind the choices are in docs/browsers.md, "Browsers on this kind of machine".
 *
 * Each browser id has an ordered list of ways to get it; the first one present wins. Playwright's
 * own builds come first where they exist, because Playwright is tested against exactly them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium, firefox, webkit } from 'playwright-core';

export type DriverKind = 'playwright' | 'webdriver';
export type PlaywrightEngine = 'chromium' | 'firefox' | 'webkit';

export interface PlaywrightLaunch {
  engine: PlaywrightEngine;
  executablePath?: string;
  channel?: string;
  args: string[];
  /** A browser server's ws:// or wss:// endpoint (`--remote`): connect to it instead of launching. */
  connect?: string;
}

export type WebDriverTarget =
  /** A driver binary the sweep starts on a free loopback port, and stops at the end. */
  | {
      kind: 'local';
      driverBinary: string;
      portArgs: (port: number) => string[];
      needsXvfb: boolean;
      capabilities: Record<string, unknown>;
      /** Environment the driver, and the browser it starts, get on top of the sweep's own. */
      env?: Record<string, string>;
    }
  /** A WebDriver endpoint someone else runs (`--remote http://...`: Selenium Grid, a cloud grid). */
  | {
      kind: 'remote';
      url: string;
      capabilities: Record<string, unknown>;
      /** How long to wait for the grid to start a session: a full grid queues it (--wait-ms). */
      waitMs: number;
    };

export interface FoundBrowser {
  /** Name used with --browsers and in results file names. */
  id: string;
  found: true;
  label: string;
  version: string;
  driver: DriverKind;
  /** How it will be driven, in words. */
  how: string;
  playwright?: PlaywrightLaunch;
  webdriver?: WebDriverTarget;
  /** Another build of an engine the sweep already runs: it runs only when --browsers names it. */
  namedOnly?: true;
}

export interface MissingBrowser {
  id: string;
  found: false;
  label: string;
  /** Why it was not found, and how to get it. */
  why: string;
}

export type BrowserCandidate = FoundBrowser | MissingBrowser;

/** Chromium flags that worked here as root on a closed network (docs/browsers.md, "Browsers on this kind of machine"). */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // performance.measureUserAgentSpecificMemory() then answers at once instead of at the next
  // garbage collection (10 to 20 s), so the page can record the heap after each insert sample.
  '--enable-blink-features=ForceEagerMeasureMemory',
];

export const DEBIAN_INSTALL =
  'apt-get update && apt-get install -y --no-install-recommends chromium firefox-esr webkit2gtk-driver xvfb';

/** Every browser id the sweep knows, found on this machine or not (for --browsers). */
export const KNOWN_BROWSER_IDS: readonly string[] = [
  'chromium',
  'chromium-headless-shell',
  'firefox',
  'webkit',
  'chrome',
  'msedge',
  'safari',
];

/** The Playwright engine behind each id, for `--remote ws://...` (a browser server speaks one engine). */
const PLAYWRIGHT_ENGINE_OF: Readonly<Record<string, PlaywrightEngine>> = {
  chromium: 'chromium',
  chrome: 'chromium',
  msedge: 'chromium',
  firefox: 'firefox',
  webkit: 'webkit',
};

/** W3C `browserName` for each id on a remote WebDriver endpoint (what Selenium Grid nodes register). */
const WEBDRIVER_BROWSER_NAME: Readonly<Record<string, string>> = {
  chromium: 'chrome',
  chrome: 'chrome',
  msedge: 'MicrosoftEdge',
  firefox: 'firefox',
  safari: 'safari',
  webkit: 'MiniBrowser',
};

/** What discovery reads from the machine; tests substitute it. */
export interface Machine {
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
  exists(path: string): boolean;
  listDir(path: string): string[];
  /** First line-ish output of a command, or undefined when it fails. */
  run(binary: string, args: readonly string[]): string | undefined;
  /** Where Playwright's own build of an engine would be, present or not. */
  playwrightBuild(engine: PlaywrightEngine): string | undefined;
  /** The browser version Playwright's build of an engine is (from playwright-core's browsers.json). */
  playwrightBuildVersion(engine: PlaywrightEngine): string | undefined;
}

const THIS_MACHINE: Machine = {
  platform: process.platform,
  env: process.env,
  exists: existsSync,
  listDir(path) {
    try {
      return readdirSync(path);
    } catch {
      return [];
    }
  },
  run(binary, args) {
    try {
      return execFileSync(binary, args, {
        stdio: ['ignore', 'pipe', 'ignore'],
        timeout: 20_000,
      }).toString();
    } catch {
      return undefined;
    }
  },
  playwrightBuild(engine) {
    try {
      return { chromium, firefox, webkit }[engine].executablePath() || undefined;
    } catch {
      return undefined;
    }
  },
  playwrightBuildVersion(engine) {
    try {
      const dir = dirname(createRequire(import.meta.url).resolve('playwright-core/package.json'));
      const data = JSON.parse(readFileSync(join(dir, 'browsers.json'), 'utf8')) as {
        browsers: { name: string; browserVersion?: string }[];
      };
      return data.browsers.find((b) => b.name === engine)?.browserVersion;
    } catch {
      return undefined;
    }
  },
};

function versionFrom(text: string | undefined): string {
  if (text === undefined) return 'unknown';
  return /(\d+(?:\.\d+)+)/.exec(text)?.[1] ?? (text.trim() || 'unknown');
}

function onPath(m: Machine, name: string): string | undefined {
  const sep = m.platform === 'win32' ? ';' : ':';
  for (const dir of (m.env.PATH ?? '').split(sep)) {
    const candidate = `${dir}/${name}`;
    if (dir && m.exists(candidate)) return candidate;
  }
  return undefined;
}

function firstExisting(m: Machine, paths: readonly (string | undefined)[]): string | undefined {
  return paths.find((p): p is string => !!p && m.exists(p));
}

function ownBuild(m: Machine, engine: PlaywrightEngine): string | undefined {
  const path = m.playwrightBuild(engine);
  return path && m.exists(path) ? path : undefined;
}

export function findChromium(m: Machine = THIS_MACHINE): BrowserCandidate {
  const own = ownBuild(m, 'chromium');
  if (own) {
    return {
      id: 'chromium',
      found: true,
      label: "Chromium (Playwright's build)",
      version: m.playwrightBuildVersion('chromium') ?? versionFrom(m.run(own, ['--version'])),
      driver: 'playwright',
      how: `Playwright, its own Chromium build at ${own}`,
      playwright: { engine: 'chromium', executablePath: own, args: CHROMIUM_ARGS },
    };
  }
  const debian = firstExisting(m, [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    onPath(m, 'chromium'),
    onPath(m, 'chromium-browser'),
  ]);
  if (debian) {
    return {
      id: 'chromium',
      found: true,
      label: 'Chromium',
      version: versionFrom(m.run(debian, ['--version'])),
      driver: 'playwright',
      how: `Playwright, Chromium at ${debian}`,
      playwright: { engine: 'chromium', executablePath: debian, args: CHROMIUM_ARGS },
    };
  }
  return {
    id: 'chromium',
    found: false,
    label: 'Chromium',
    why: `no Playwright Chromium build and no chromium on PATH; get it with: npx playwright install chromium; on Debian (root): ${DEBIAN_INSTALL}`,
  };
}

/**
 * Chromium's headless shell: the same Blink and V8 without the full browser's UI, which full
 * `--headless` keeps (its own `--top-chrome-webui` renderer and a storage service process). Debian
 * packages it as chromium-headless-shell. Named only: it is the chromium engine again, run when a
 * sweep asks for it (docs/method.md, "The page's own core", says what it measured).
 */
export function findChromiumShell(m: Machine = THIS_MACHINE): BrowserCandidate {
  const shell = firstExisting(m, [
    '/usr/bin/chromium-headless-shell',
    onPath(m, 'chromium-headless-shell'),
  ]);
  if (shell)
    return {
      id: 'chromium-headless-shell',
      found: true,
      label: 'Chromium headless shell',
      version: versionFrom(m.run(shell, ['--version'])),
      driver: 'playwright',
      how: `Playwright, Chromium's headless shell at ${shell}`,
      playwright: { engine: 'chromium', executablePath: shell, args: CHROMIUM_ARGS },
      namedOnly: true,
    };
  return {
    id: 'chromium-headless-shell',
    found: false,
    label: 'Chromium headless shell',
    why: 'no chromium-headless-shell on PATH; on Debian (root): apt-get install -y --no-install-recommends chromium-headless-shell',
  };
}

export function findFirefox(m: Machine = THIS_MACHINE): BrowserCandidate {
  const own = ownBuild(m, 'firefox');
  if (own) {
    return {
      id: 'firefox',
      found: true,
      label: "Firefox (Playwright's build)",
      version: m.playwrightBuildVersion('firefox') ?? versionFrom(m.run(own, ['--version'])),
      driver: 'playwright',
      how: `Playwright, its own Firefox build at ${own}`,
      playwright: { engine: 'firefox', executablePath: own, args: [] },
    };
  }
  const stock = firstExisting(m, [
    '/usr/bin/firefox-esr',
    '/usr/bin/firefox',
    onPath(m, 'firefox-esr'),
    onPath(m, 'firefox'),
    m.platform === 'darwin' ? '/Applications/Firefox.app/Contents/MacOS/firefox' : undefined,
  ]);
  if (stock) {
    return {
      id: 'firefox',
      found: true,
      label: 'Firefox',
      version: versionFrom(m.run(stock, ['--version'])),
      driver: 'playwright',
      // The moz- channel makes Playwright speak WebDriver BiDi to a stock Firefox; it is not in
      // Playwright's documentation, so it is experimental (docs/browsers.md, "Browsers on this kind of machine").
      how: `Playwright over WebDriver BiDi (channel moz-firefox, experimental), Firefox at ${stock}`,
      playwright: { engine: 'firefox', executablePath: stock, channel: 'moz-firefox', args: [] },
    };
  }
  return {
    id: 'firefox',
    found: false,
    label: 'Firefox',
    why: `no Playwright Firefox build and no firefox or firefox-esr on PATH; get it with: npx playwright install firefox; on Debian (root): ${DEBIAN_INSTALL}`,
  };
}

/**
 * Turns off WebKitGTK's accelerated compositing. Under Xvfb there is no GPU, and its compositor
 * thread draws through Mesa's software GL, which can crash the web process (a segfault in
 * swrast_dri.so) partway through a default sweep. Set only when the sweep starts Xvfb itself,
 * and never over a value the user set.
 */
const NO_COMPOSITING = 'WEBKIT_DISABLE_COMPOSITING_MODE';

/** Debian's WebKitGTK MiniBrowser, whose directory is named for the architecture (x86_64-linux-gnu, ...). */
function miniBrowser(m: Machine): string | undefined {
  for (const lib of ['/usr/lib', '/usr/libexec']) {
    for (const dir of ['', ...m.listDir(lib).map((d) => `${d}/`)]) {
      for (const api of ['webkit2gtk-4.1', 'webkitgtk-6.0', 'webkit2gtk-4.0']) {
        const candidate = `${lib}/${dir}${api}/MiniBrowser`;
        if (m.exists(candidate)) return candidate;
      }
    }
  }
  return undefined;
}

function debianPackageVersion(m: Machine, pkg: string): string {
  const out = m.run('dpkg-query', ['-W', '-f=${Version}', pkg]);
  return out === undefined ? 'unknown' : (/^(\d+(?:\.\d+)+)/.exec(out)?.[1] ?? 'unknown');
}

/**
 * WebKit: Playwright's own WebKit build when installed; otherwise a stock WebKitGTK over W3C
 * WebDriver, because Playwright drives only its own patched WebKit, never a stock one
 * (docs/browsers.md, "Browsers on this kind of machine"). WebKitWebDriver needs a display, so without one it runs under xvfb-run.
 */
export function findWebKit(m: Machine = THIS_MACHINE): BrowserCandidate {
  const own = ownBuild(m, 'webkit');
  if (own) {
    return {
      id: 'webkit',
      found: true,
      label: "WebKit (Playwright's build)",
      version: m.playwrightBuildVersion('webkit') ?? 'unknown',
      driver: 'playwright',
      how: `Playwright, its own WebKit build at ${own}`,
      playwright: { engine: 'webkit', executablePath: own, args: [] },
    };
  }
  const driverBinary = firstExisting(m, ['/usr/bin/WebKitWebDriver', onPath(m, 'WebKitWebDriver')]);
  const binary = miniBrowser(m);
  const needsXvfb = !m.env.DISPLAY && !m.env.WAYLAND_DISPLAY;
  const xvfb = firstExisting(m, ['/usr/bin/xvfb-run', onPath(m, 'xvfb-run')]);
  if (!driverBinary || !binary || (needsXvfb && !xvfb)) {
    const missing = [
      driverBinary ? undefined : 'no WebKitWebDriver on PATH',
      binary ? undefined : 'no WebKitGTK MiniBrowser',
      needsXvfb && !xvfb ? 'no display and no xvfb-run' : undefined,
    ].filter(Boolean);
    return {
      id: 'webkit',
      found: false,
      label: 'WebKit',
      why: `no Playwright WebKit build, and for WebKitGTK: ${missing.join(', ')}; get it with: npx playwright install webkit; on Debian (root): ${DEBIAN_INSTALL}; on macOS use safari`,
    };
  }
  const env =
    needsXvfb && m.env[NO_COMPOSITING] === undefined ? { [NO_COMPOSITING]: '1' } : undefined;
  return {
    id: 'webkit',
    found: true,
    label: 'WebKitGTK MiniBrowser',
    version: debianPackageVersion(m, 'webkit2gtk-driver'),
    driver: 'webdriver',
    how: `WebDriver, ${driverBinary}${needsXvfb ? ' under xvfb-run' : ''}${env ? `, accelerated compositing off (${NO_COMPOSITING}=1)` : ''}, MiniBrowser at ${binary}`,
    webdriver: {
      kind: 'local',
      driverBinary,
      portArgs: (port) => [`--port=${port}`],
      needsXvfb,
      capabilities: {
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary, args: ['--automation'] },
      },
      ...(env ? { env } : {}),
    },
  };
}

/** Where Chrome and Edge install themselves; the same places Playwright's `channel` looks. */
const CHANNEL_PATHS: Record<'chrome' | 'msedge', Partial<Record<NodeJS.Platform, string[]>>> = {
  chrome: {
    linux: ['/opt/google/chrome/chrome'],
    darwin: ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
    win32: ['\\Google\\Chrome\\Application\\chrome.exe'],
  },
  msedge: {
    linux: ['/opt/microsoft/msedge/msedge'],
    darwin: ['/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'],
    win32: ['\\Microsoft\\Edge\\Application\\msedge.exe'],
  },
};

function channelPath(m: Machine, channel: 'chrome' | 'msedge'): string | undefined {
  const paths = CHANNEL_PATHS[channel][m.platform] ?? [];
  if (m.platform !== 'win32') return firstExisting(m, paths);
  const roots = [m.env.LOCALAPPDATA, m.env.PROGRAMFILES, m.env['PROGRAMFILES(X86)']].filter(
    (r): r is string => !!r,
  );
  return firstExisting(
    m,
    roots.flatMap((root) => paths.map((p) => `${root}${p}`)),
  );
}

/** Installed Google Chrome or Microsoft Edge, launched by Playwright through its `channel`. */
export function findChannel(
  channel: 'chrome' | 'msedge',
  m: Machine = THIS_MACHINE,
): BrowserCandidate {
  const label = channel === 'chrome' ? 'Google Chrome' : 'Microsoft Edge';
  const path = channelPath(m, channel);
  if (path) {
    // Windows builds print nothing for --version; the version then comes from the results' user agent.
    const version = m.platform === 'win32' ? 'unknown' : versionFrom(m.run(path, ['--version']));
    return {
      id: channel,
      found: true,
      label,
      version,
      driver: 'playwright',
      how: `Playwright, channel ${channel}, ${label} at ${path}`,
      playwright: { engine: 'chromium', channel, args: CHROMIUM_ARGS },
    };
  }
  const where = (CHANNEL_PATHS[channel][m.platform] ?? []).join(' or ') || 'its usual place';
  const get =
    channel === 'chrome'
      ? 'install it from https://www.google.com/chrome/, or: npx playwright install chrome'
      : 'install it from https://www.microsoft.com/edge, or: npx playwright install msedge';
  return {
    id: channel,
    found: false,
    label,
    why: `${label} is not installed (looked for ${where}); ${get}${m.platform === 'linux' ? " (it is not in Debian's own archive)" : ''}`,
  };
}

/**
 * Safari through safaridriver, which ships with macOS. Safari allows one automated session at
 * a time and has no headless mode; `safaridriver --enable` (once, as an administrator) allows
 * remote automation.
 */
export function findSafari(m: Machine = THIS_MACHINE): BrowserCandidate {
  if (m.platform !== 'darwin') {
    return {
      id: 'safari',
      found: false,
      label: 'Safari',
      why: "Safari runs only on macOS, where safaridriver drives it; on this machine use webkit (WebKitGTK or Playwright's WebKit) for the WebKit engine, or open the URL of `npm run sweep -- --manual --host <LAN address>` in Safari on a Mac or an iPhone",
    };
  }
  const driverBinary = firstExisting(m, ['/usr/bin/safaridriver', onPath(m, 'safaridriver')]);
  if (!driverBinary)
    return {
      id: 'safari',
      found: false,
      label: 'Safari',
      why: 'no safaridriver on this Mac (it ships with Safari in /usr/bin); update macOS or Safari',
    };
  return {
    id: 'safari',
    found: true,
    label: 'Safari',
    // "Included with Safari 17.4 (19618.1.15.11.14)"
    version: versionFrom(m.run(driverBinary, ['--version'])),
    driver: 'webdriver',
    how: `WebDriver, ${driverBinary} (run \`safaridriver --enable\` once if the session is refused)`,
    webdriver: {
      kind: 'local',
      driverBinary,
      portArgs: (port) => ['--port', String(port)],
      needsXvfb: false,
      capabilities: { browserName: 'safari' },
    },
  };
}

/** Every candidate this build knows, found or not, in KNOWN_BROWSER_IDS order. */
export function findBrowsers(m: Machine = THIS_MACHINE): BrowserCandidate[] {
  return [
    findChromium(m),
    findChromiumShell(m),
    findFirefox(m),
    findWebKit(m),
    findChannel('chrome', m),
    findChannel('msedge', m),
    findSafari(m),
  ];
}

/** A URL for printing: cloud grids put credentials in it (https://user:key@hub...). */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.username || u.password) {
      u.username = u.username ? '***' : '';
      u.password = u.password ? '***' : '';
    }
    return u.toString();
  } catch {
    return url;
  }
}

// What remote.ts builds a remote browser from, besides what discovery itself uses them for.
export { CHROMIUM_ARGS, PLAYWRIGHT_ENGINE_OF, THIS_MACHINE, WEBDRIVER_BROWSER_NAME };
