/**
 * What a run was measured on. Uses `navigator`, which exists in the page and in Workers; no DOM.
 */
import { HARNESS_COMMIT, HARNESS_VERSION } from '../base/build-info.ts';
import type { StoreAdapter } from '../store/adapter.ts';
import { errorMessage } from '../base/errors.ts';
import type { BrowserInfo, Environment } from '../results/results.ts';
import { measureTimerStep } from '../base/timer.ts';

interface UaData {
  brands?: { brand: string; version: string }[];
  platform?: string;
}

/** Browser name, version and engine from the user agent (and UA client hints where present). */
export function detectBrowser(ua: string, uaData?: UaData): BrowserInfo {
  const m = (re: RegExp) => re.exec(ua)?.[1];
  const edge = m(/Edg\/([\d.]+)/);
  if (edge) return { name: 'Edge', version: edge, engine: 'Blink' };
  const firefox = m(/Firefox\/([\d.]+)/);
  if (firefox) return { name: 'Firefox', version: firefox, engine: 'Gecko' };
  const chrome = m(/(?:Chrome|Chromium|HeadlessChrome)\/([\d.]+)/);
  if (chrome) {
    const brand = uaData?.brands?.find((b) => /Chrom/.test(b.brand))?.brand;
    const name = brand === 'Google Chrome' ? 'Chrome' : 'Chromium';
    return { name, version: chrome, engine: 'Blink' };
  }
  const webkit = m(/AppleWebKit\/([\d.]+)/);
  if (webkit) {
    const safari = m(/Version\/([\d.]+).*Safari/);
    if (safari && /Mac OS X|iPhone|iPad/.test(ua))
      return { name: 'Safari', version: safari, engine: 'WebKit' };
    return { name: 'WebKit', version: safari ?? webkit, engine: 'WebKit' };
  }
  return { name: 'unknown', version: 'unknown', engine: 'unknown' };
}

function detectOs(ua: string, uaData?: UaData): string {
  if (uaData?.platform) return uaData.platform;
  if (/Windows/.test(ua)) return 'Windows';
  if (/iPhone|iPad/.test(ua)) return 'iOS';
  if (/Mac OS X/.test(ua)) return 'macOS';
  if (/Android/.test(ua)) return 'Android';
  if (/Linux/.test(ua)) return 'Linux';
  return 'unknown';
}

/** Collect the environment. Call before the run starts; it takes a few ms (timer probe). */
export async function collectEnvironment(context: 'main' | 'worker'): Promise<Environment> {
  const nav = navigator as Navigator & { userAgentData?: UaData; deviceMemory?: number };
  const ua = nav.userAgent;
  let storageEstimate: Environment['storageEstimate'] = null;
  try {
    if (nav.storage?.estimate) {
      const est = await nav.storage.estimate();
      storageEstimate = { quota: est.quota ?? null, usage: est.usage ?? null };
    }
  } catch {
    storageEstimate = null; // WebKitGTK has no navigator.storage at all (docs/browsers.md, "Browsers on this kind of machine")
  }
  return {
    browser: detectBrowser(ua, nav.userAgentData),
    userAgent: ua,
    os: detectOs(ua, nav.userAgentData),
    cores: nav.hardwareConcurrency || null,
    deviceMemoryGb: typeof nav.deviceMemory === 'number' ? nav.deviceMemory : null,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    timerStepMs: measureTimerStep(),
    storageEstimate,
    context,
    harness: { version: HARNESS_VERSION, commit: HARNESS_COMMIT },
  };
}

/**
 * What the stores report about how they ran (StoreAdapter.describe), for environment.adapters.
 * Asked after the run, when the stores know: which SQLite VFS started, whether WebSQL was
 * emulated. Only stores with something to say; a failing describe() is recorded, not thrown.
 */
export async function describeAdapters(
  adapters: readonly StoreAdapter[],
): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for (const adapter of adapters) {
    if (!adapter.describe) continue;
    try {
      const facts = await adapter.describe();
      if (Object.keys(facts).length > 0) out[adapter.id] = { ...facts };
    } catch (e) {
      out[adapter.id] = { describeError: errorMessage(e) };
    }
  }
  return out;
}
