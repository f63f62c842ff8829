import { describe, expect, it } from 'vitest';
import {
  findBrowsers,
  findChannel,
  findChromium,
  findChromiumShell,
  findFirefox,
  findSafari,
  findWebKit,
  CHROMIUM_ARGS,
  KNOWN_BROWSER_IDS,
  redactUrl,
  type Machine,
} from '../../../../src/cli/drivers/discovery.ts';
import { mergePatch, remoteBrowser, remoteLabel } from '../../../../src/cli/drivers/remote.ts';

/** A machine with exactly these files, and these answers to `<binary> --version`. */
function machine(
  files: string[],
  over: Partial<Machine> = {},
  versions: Record<string, string> = {},
): Machine {
  const set = new Set(files);
  return {
    platform: 'linux',
    env: { PATH: '/usr/bin:/bin' },
    exists: (p) => set.has(p),
    listDir: (dir) => [
      ...new Set(
        files
          .filter((f) => f.startsWith(`${dir}/`))
          .map((f) => f.slice(dir.length + 1).split('/')[0] as string),
      ),
    ],
    run: (binary, args) =>
      binary === 'dpkg-query' ? '2.50.6-1' : args[0] === '--version' ? versions[binary] : undefined,
    playwrightBuild: () => undefined,
    playwrightBuildVersion: () => undefined,
    ...over,
  };
}

const DEBIAN = [
  '/usr/bin/chromium',
  '/usr/bin/firefox-esr',
  '/usr/bin/WebKitWebDriver',
  '/usr/bin/xvfb-run',
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
];
const VERSIONS = {
  '/usr/bin/chromium': 'Chromium 156.0.8078.79 built on Debian',
  '/usr/bin/firefox-esr': 'Mozilla Firefox 153.7.0esr',
};

describe('cli browsers - Debian packages', () => {
  it('finds Chromium, a stock Firefox over BiDi and WebKitGTK over WebDriver under Xvfb', () => {
    const m = machine(DEBIAN, {}, VERSIONS);
    const [chromium, shell, firefox, webkit] = findBrowsers(m);
    expect(shell?.found).toBe(false);
    expect(chromium).toMatchObject({
      id: 'chromium',
      found: true,
      version: '156.0.8078.79',
      driver: 'playwright',
      playwright: { engine: 'chromium', executablePath: '/usr/bin/chromium' },
    });
    expect(firefox).toMatchObject({
      id: 'firefox',
      found: true,
      version: '153.7.0',
      driver: 'playwright',
      playwright: {
        engine: 'firefox',
        channel: 'moz-firefox',
        executablePath: '/usr/bin/firefox-esr',
      },
    });
    expect(webkit).toMatchObject({
      id: 'webkit',
      found: true,
      version: '2.50.6',
      driver: 'webdriver',
      webdriver: { kind: 'local', driverBinary: '/usr/bin/WebKitWebDriver', needsXvfb: true },
    });
    expect(webkit?.found && webkit.webdriver?.capabilities).toEqual({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
        args: ['--automation'],
      },
    });
    expect(
      webkit?.found && webkit.webdriver?.kind === 'local' && webkit.webdriver.portArgs(4444),
    ).toEqual(['--port=4444']);
  });

  it('needs no Xvfb where there is a display', () => {
    const webkit = findWebKit(
      machine(
        DEBIAN.filter((f) => !f.includes('xvfb')),
        { env: { PATH: '/usr/bin', DISPLAY: ':0' } },
      ),
    );
    expect(webkit.found).toBe(true);
    expect(webkit.found ? webkit.how : '').not.toContain('xvfb');
    // A real display keeps the browser's own compositing.
    expect(
      webkit.found && webkit.webdriver?.kind === 'local' && webkit.webdriver.env,
    ).toBeUndefined();
  });

  it('under Xvfb, turns off accelerated compositing, unless the user set it', () => {
    const webkit = findWebKit(machine(DEBIAN, {}, VERSIONS));
    expect(webkit.found && webkit.webdriver?.kind === 'local' && webkit.webdriver.env).toEqual({
      WEBKIT_DISABLE_COMPOSITING_MODE: '1',
    });
    expect(webkit.found ? webkit.how : '').toContain(
      'under xvfb-run, accelerated compositing off (WEBKIT_DISABLE_COMPOSITING_MODE=1)',
    );
    const own = findWebKit(
      machine(
        DEBIAN,
        { env: { PATH: '/usr/bin', WEBKIT_DISABLE_COMPOSITING_MODE: '0' } },
        VERSIONS,
      ),
    );
    expect(own.found && own.webdriver?.kind === 'local' && own.webdriver.env).toBeUndefined();
  });

  it('says what is missing and how to get it', () => {
    const m = machine(['/usr/bin/WebKitWebDriver']);
    const chromium = findChromium(m);
    expect(chromium.found).toBe(false);
    expect(!chromium.found && chromium.why).toMatch(
      /^no Playwright Chromium build and no chromium on PATH; get it with: npx playwright install chromium; on Debian \(root\): apt-get update && apt-get install .*chromium/,
    );
    const webkit = findWebKit(m);
    expect(!webkit.found && webkit.why).toMatch(
      /^no Playwright WebKit build, and for WebKitGTK: no WebKitGTK MiniBrowser, no display and no xvfb-run; get it with: npx playwright install webkit; on Debian/,
    );
  });
});

describe('findChromiumShell', () => {
  it("finds Debian's headless shell as a Chromium that runs only when named", () => {
    const m = machine(
      [...DEBIAN, '/usr/bin/chromium-headless-shell'],
      {},
      {
        '/usr/bin/chromium-headless-shell': 'Chromium 156.0.8078.114 built on Debian',
      },
    );
    expect(findChromiumShell(m)).toMatchObject({
      id: 'chromium-headless-shell',
      found: true,
      version: '156.0.8078.114',
      namedOnly: true,
      playwright: { engine: 'chromium', executablePath: '/usr/bin/chromium-headless-shell' },
    });
  });

  it('says how to install it where it is missing', () => {
    const shell = findChromiumShell(machine(DEBIAN));
    expect(!shell.found && shell.why).toMatch(/apt-get install .*chromium-headless-shell/);
  });
});

describe('cli browsers - Playwright builds come first', () => {
  it("uses Playwright's own Chromium, Firefox and WebKit where they are installed", () => {
    const builds = {
      chromium: '/pw/chromium/chrome',
      firefox: '/pw/firefox/firefox',
      webkit: '/pw/webkit/pw_run.sh',
    };
    const m = machine([...DEBIAN, ...Object.values(builds)], {
      playwrightBuild: (e) => builds[e],
      playwrightBuildVersion: (e) =>
        ({ chromium: '156.0.8078.4', firefox: '157.0', webkit: '27.2' })[e],
    });
    expect(findChromium(m)).toMatchObject({
      found: true,
      label: "Chromium (Playwright's build)",
      version: '156.0.8078.4',
      playwright: { executablePath: builds.chromium },
    });
    const firefox = findFirefox(m);
    expect(firefox).toMatchObject({
      found: true,
      version: '157.0',
      playwright: { engine: 'firefox', executablePath: builds.firefox },
    });
    expect(firefox.found && firefox.playwright?.channel).toBeUndefined();
    expect(findWebKit(m)).toMatchObject({
      found: true,
      driver: 'playwright',
      version: '27.2',
      playwright: { engine: 'webkit', executablePath: builds.webkit },
    });
  });

  it('does not take a build Playwright only knows the path of', () => {
    const m = machine(DEBIAN, { playwrightBuild: () => '/pw/not-installed/chrome' }, VERSIONS);
    expect(findChromium(m)).toMatchObject({
      found: true,
      playwright: { executablePath: '/usr/bin/chromium' },
    });
  });
});

describe('cli browsers - Chrome, Edge and Safari', () => {
  it('finds installed Chrome and Edge for Playwright channels, on Linux, macOS and Windows', () => {
    expect(
      findChannel(
        'chrome',
        machine(
          ['/opt/google/chrome/chrome'],
          {},
          { '/opt/google/chrome/chrome': 'Google Chrome 150.0.1.2' },
        ),
      ),
    ).toMatchObject({
      found: true,
      version: '150.0.1.2',
      playwright: { engine: 'chromium', channel: 'chrome' },
    });
    expect(
      findChannel(
        'msedge',
        machine(['/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge'], {
          platform: 'darwin',
        }),
      ),
    ).toMatchObject({ found: true, playwright: { channel: 'msedge' } });
    const win = machine(['C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'], {
      platform: 'win32',
      env: { PROGRAMFILES: 'C:\\Program Files' },
    });
    expect(findChannel('chrome', win)).toMatchObject({ found: true, version: 'unknown' });
  });

  it('says where it looked for a missing Chrome or Edge, and how to install it', () => {
    const edge = findChannel('msedge', machine([]));
    expect(!edge.found && edge.why).toBe(
      "Microsoft Edge is not installed (looked for /opt/microsoft/msedge/msedge); install it from https://www.microsoft.com/edge, or: npx playwright install msedge (it is not in Debian's own archive)",
    );
  });

  it('finds Safari through safaridriver on macOS only', () => {
    const mac = machine(
      ['/usr/bin/safaridriver'],
      { platform: 'darwin' },
      { '/usr/bin/safaridriver': 'Included with Safari 17.4 (19618.1.15.11.14)' },
    );
    const safari = findSafari(mac);
    expect(safari).toMatchObject({
      found: true,
      version: '17.4',
      driver: 'webdriver',
      webdriver: {
        kind: 'local',
        driverBinary: '/usr/bin/safaridriver',
        needsXvfb: false,
        capabilities: { browserName: 'safari' },
      },
    });
    expect(
      safari.found && safari.webdriver?.kind === 'local' && safari.webdriver.portArgs(5555),
    ).toEqual(['--port', '5555']);
    const linux = findSafari(machine([]));
    expect(linux.found).toBe(false);
    expect(linux.found ? '' : linux.why).toMatch(
      /^Safari runs only on macOS, where safaridriver drives it; /,
    );
  });

  it('knows every id, found or not, in the order npm run browsers prints them', () => {
    expect(findBrowsers(machine([])).map((b) => b.id)).toEqual([...KNOWN_BROWSER_IDS]);
    expect(KNOWN_BROWSER_IDS).toEqual([
      'chromium',
      'chromium-headless-shell',
      'firefox',
      'webkit',
      'chrome',
      'msedge',
      'safari',
    ]);
  });
});

describe('cli browsers - remote', () => {
  const WAIT = { waitMs: 600_000 };
  const debian = machine(['/usr/bin/chromium'], {}, { '/usr/bin/chromium': 'Chromium 156.0.1' });

  it('ws:// is a Playwright browser server of the engine --browsers names', () => {
    expect(remoteBrowser('firefox', 'ws://10.0.0.5:3000/pw', WAIT)).toMatchObject({
      driver: 'playwright',
      playwright: { engine: 'firefox', connect: 'ws://10.0.0.5:3000/pw' },
    });
    expect(remoteBrowser('msedge', 'wss://grid/pw', WAIT)).toMatchObject({
      playwright: { engine: 'chromium' },
    });
    expect(() => remoteBrowser('safari', 'ws://h/x', WAIT)).toThrow(
      'safari cannot be reached through a Playwright browser server; allowed with ws:// and wss://: chromium, chrome, msedge, firefox, webkit',
    );
  });

  it("http:// is a WebDriver endpoint, asked for the grid's browser names, headless, credentials never printed", () => {
    const grid = remoteBrowser('chromium', 'http://grid:4444/', WAIT, debian);
    expect(grid).toMatchObject({
      driver: 'webdriver',
      webdriver: { kind: 'remote', url: 'http://grid:4444', waitMs: 600_000 },
    });
    // A grid elsewhere gets no path of this machine: its nodes keep their browsers where they do.
    expect(grid.webdriver?.capabilities).toEqual({
      browserName: 'chrome',
      'goog:chromeOptions': { args: ['--headless=new', ...CHROMIUM_ARGS] },
    });
    expect(remoteBrowser('msedge', 'http://grid:4444', WAIT).webdriver?.capabilities).toEqual({
      browserName: 'MicrosoftEdge',
      'ms:edgeOptions': { args: ['--headless=new', ...CHROMIUM_ARGS] },
    });
    expect(remoteBrowser('firefox', 'http://grid:4444', WAIT).webdriver?.capabilities).toEqual({
      browserName: 'firefox',
      'moz:firefoxOptions': { args: ['-headless'] },
    });
    // Safari has no headless mode: its name alone.
    const cloud = remoteBrowser('safari', 'https://me:secret@hub.example/wd/hub', WAIT);
    expect(cloud.how).toBe(
      'WebDriver at https://***:***@hub.example/wd/hub, browserName safari; asks for {"browserName":"safari"}',
    );
    expect(redactUrl('http://grid:4444/')).toBe('http://grid:4444/');
  });

  it("a grid on this machine gets discovery's Chromium binary", () => {
    expect(
      remoteBrowser('chromium', 'http://127.0.0.1:4444/wd/hub', WAIT, debian).webdriver
        ?.capabilities,
    ).toEqual({
      browserName: 'chrome',
      'goog:chromeOptions': {
        binary: '/usr/bin/chromium',
        args: ['--headless=new', ...CHROMIUM_ARGS],
      },
    });
    // Google Chrome is chromedriver's own default: no binary.
    expect(
      remoteBrowser('chrome', 'http://localhost:4444', WAIT, debian).webdriver?.capabilities,
    ).not.toHaveProperty(['goog:chromeOptions', 'binary']);
  });

  it('--capabilities merges over the defaults as a JSON Merge Patch: objects merge, arrays replace, null removes', () => {
    const asked = remoteBrowser(
      'chromium',
      'http://127.0.0.1:4444/wd/hub',
      {
        ...WAIT,
        capabilities: {
          platformName: 'linux',
          'goog:chromeOptions': { binary: null, args: ['--headless=new'] },
          'sauce:options': { name: 'storebench' },
        },
      },
      debian,
    ).webdriver?.capabilities;
    expect(asked).toEqual({
      browserName: 'chrome',
      platformName: 'linux',
      'goog:chromeOptions': { args: ['--headless=new'] },
      'sauce:options': { name: 'storebench' },
    });
    // A "__proto__" key from JSON stays a key: it cannot reach any object's prototype.
    const merged = mergePatch({}, JSON.parse('{"__proto__":{"polluted":1}}')) as object;
    expect(Object.keys(merged)).toEqual(['__proto__']);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });

  it('results record where a browser ran without credentials, query, or a browser server path', () => {
    expect(remoteLabel('https://me:key@hub.example/wd/hub/?token=x#f')).toBe(
      'https://hub.example/wd/hub',
    );
    expect(remoteLabel('ws://10.0.0.5:3000/6a1f9c')).toBe('ws://10.0.0.5:3000');
  });
});
