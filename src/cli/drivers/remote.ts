/**
 * A browser reached through `--remote`: a Playwright browser server (ws:// or wss://), which
 * serves one engine, or a WebDriver endpoint (http:// or https://: Selenium Grid, a cloud farm)
 * that starts the browser the capabilities name. Either way it then runs like a local browser.
 *
 * What a WebDriver endpoint is asked for is the browser's defaults here (headless where the
 * browser has a headless mode, Chromium's flags as discovery uses them locally), with the user's
 * `--capabilities` merged over them as a JSON Merge Patch (RFC 7386): objects merge key by key,
 * an array or a plain value replaces the default, and null removes it.
 */
import {
  CHROMIUM_ARGS,
  findChromium,
  PLAYWRIGHT_ENGINE_OF,
  redactUrl,
  THIS_MACHINE,
  WEBDRIVER_BROWSER_NAME,
  type FoundBrowser,
  type Machine,
} from './discovery.ts';

export type Capabilities = Record<string, unknown>;

/** Where each browser's own options go among W3C capabilities. */
const OPTIONS_KEY: Readonly<Record<string, string>> = {
  chromium: 'goog:chromeOptions',
  chrome: 'goog:chromeOptions',
  msedge: 'ms:edgeOptions',
  firefox: 'moz:firefoxOptions',
};

const isObj = (v: unknown): v is Capabilities =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** RFC 7386: `patch` over `target`. Keys are defined, never assigned, so a "__proto__" key stays a key. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return patch;
  const out: Capabilities = {};
  for (const [k, v] of Object.entries(isObj(target) ? target : {}))
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else
      Object.defineProperty(out, k, {
        value: mergePatch(out[k], v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** True for an endpoint on this machine, whose nodes can use the browsers discovery finds here. */
function onThisMachine(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return /^127\./.test(host) || host === '[::1]' || host.toLowerCase() === 'localhost';
  } catch {
    return false;
  }
}

/**
 * What the sweep asks a WebDriver endpoint for when `--capabilities` says nothing: the browser's
 * W3C name, headless (a grid node has no one watching its screen), and for the Chromium family the
 * flags discovery gives a local Chromium. `--no-sandbox` among them: a node that runs as root (as
 * in most containers) cannot start Chromium's sandbox, and this browser opens the sweep's page only.
 * The Chromium binary is discovery's only when the endpoint is on this machine: elsewhere it
 * would name a path of this machine.
 */
function defaultCapabilities(id: string, url: string, m: Machine): Capabilities {
  const browserName = WEBDRIVER_BROWSER_NAME[id] ?? id;
  const key = OPTIONS_KEY[id];
  if (key === undefined) return { browserName };
  if (id === 'firefox') return { browserName, [key]: { args: ['-headless'] } };
  const local = id === 'chromium' && onThisMachine(url) ? findChromium(m) : undefined;
  const binary = local?.found ? local.playwright?.executablePath : undefined;
  return {
    browserName,
    [key]: { ...(binary ? { binary } : {}), args: ['--headless=new', ...CHROMIUM_ARGS] },
  };
}

export interface RemoteOptions {
  /** --capabilities: merged over the defaults (RFC 7386). */
  capabilities?: Capabilities | null;
  /** How long to wait for a WebDriver grid to start a session (--wait-ms). */
  waitMs: number;
}

export function remoteBrowser(
  id: string,
  url: string,
  options: RemoteOptions,
  m: Machine = THIS_MACHINE,
): FoundBrowser {
  const shown = redactUrl(url);
  if (/^wss?:/i.test(url)) {
    const engine = PLAYWRIGHT_ENGINE_OF[id];
    if (!engine)
      throw new Error(
        `${id} cannot be reached through a Playwright browser server; allowed with ws:// and wss://: ${Object.keys(PLAYWRIGHT_ENGINE_OF).join(', ')}`,
      );
    return {
      id,
      found: true,
      label: `${id} (remote)`,
      version: 'remote',
      driver: 'playwright',
      how: `Playwright connect to the ${engine} browser server at ${shown}`,
      playwright: { engine, args: [], connect: url },
    };
  }
  const capabilities = mergePatch(
    defaultCapabilities(id, url, m),
    options.capabilities ?? {},
  ) as Capabilities;
  return {
    id,
    found: true,
    label: `${id} (remote)`,
    version: 'remote',
    driver: 'webdriver',
    how: `WebDriver at ${shown}, browserName ${String(capabilities.browserName)}; asks for ${JSON.stringify(capabilities)}`,
    webdriver: {
      kind: 'remote',
      url: url.replace(/\/+$/, ''),
      capabilities,
      waitMs: options.waitMs,
    },
  };
}

/**
 * Where a browser ran, as its results record it: the endpoint without credentials, query or
 * fragment (cloud farms put keys in either). A Playwright browser server keeps only its origin:
 * the path of its endpoint is what lets anyone connect to it.
 */
export function remoteLabel(url: string): string {
  try {
    const u = new URL(url);
    if (/^wss?:$/.test(u.protocol)) return u.origin;
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return '(not a URL)';
  }
}
