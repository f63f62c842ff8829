/**
 * What the noise cures (core/plan/cures.ts) ask of a browser's launch, by engine. Each setting
 * comes from a perf harness of the engine's own or of the field, named beside it; each stays only
 * while the harness's own A/B shows it lowers the noise (docs/figures.md, "The noise floor").
 * Playwright already passes Chromium the background-throttling switches those harnesses add
 * (--disable-background-timer-throttling, --disable-renderer-backgrounding, ...), so they are
 * not repeated here.
 */
import { DEFAULT_CURES, parseCures, type Cure } from '../../core/plan/cures.ts';
import { planFieldsFromQuery } from '../../core/plan/url.ts';
import { PAGE_QUERY } from '../../core/run/collector.ts';

export interface EngineSettings {
  /** Added to the Chromium command line. */
  chromiumArgs: string[];
  /** Firefox prefs (Playwright's firefoxUserPrefs). */
  firefoxPrefs: Record<string, string | number | boolean>;
}

/** V8's gc() for the page (js-framework-benchmark's runner: webdriver-ts/src/playwrightAccess.ts). */
const CHROMIUM_GC = ['--js-flags=--expose-gc'];

/**
 * Field trials at their default groups and session-random background work (the sampling heap
 * profiler) off: crossbench's NO_EXPERIMENTS_FLAGS (crossbench/browsers/chromium/chromium.py).
 */
const CHROMIUM_ENGINE = ['--enable-benchmarking', '--no-experiments'];

/**
 * From Mozilla's perf test profile (testing/profiles/perf/user.js) and common test profile
 * (testing/profiles/common/user.js), the prefs that stop work a run does not ask for.
 */
const FIREFOX_ENGINE: EngineSettings['firefoxPrefs'] = {
  // perf/user.js: "Bug 1445243 - reduces precision of tests": no jittered clamp on the clock.
  'privacy.reduceTimerPrecision': false,
  // No spare content process started mid-run (Mozilla's devtools tests turn it off for the same reason).
  'dom.ipc.processPrelaunch.enabled': false,
  // common/user.js: "we don't want daily idle tasks run during tests".
  'idle.lastDailyNotification': -1,
  // perf/user.js: no places maintenance, telemetry pings or bookmark backups during a run.
  'places.database.lastMaintenance': 2147483647,
  'toolkit.telemetry.testing.suppressPingsender': true,
  'telemetry.fog.test.activity_limit': -1,
  'telemetry.fog.test.inactivity_limit': -1,
  'browser.bookmarks.max_backups': 0,
};

export function engineSettings(cures: readonly Cure[]): EngineSettings {
  return {
    chromiumArgs: [
      ...(cures.includes('gc') ? CHROMIUM_GC : []),
      ...(cures.includes('engine') ? CHROMIUM_ENGINE : []),
    ],
    // Firefox's TestUtils.gc() needs dom.testing.testutils.enabled, which Playwright's profile sets.
    firefoxPrefs: cures.includes('engine') ? { ...FIREFOX_ENGINE } : {},
  };
}

/**
 * The settings for the plan in a page URL: its cures are the ones the page will apply, so the
 * launch and the page agree. A cures field the page will refuse launches with none.
 */
export function engineSettingsForUrl(url: string): EngineSettings {
  const query = new URL(url).searchParams;
  const text = planFieldsFromQuery(query).cures;
  const cures = text === undefined ? DEFAULT_CURES : parseCures(text);
  const settings = engineSettings(typeof cures === 'string' ? [] : cures);
  return query.get(PAGE_QUERY.machine) === '1' ? withGcCounts(settings) : settings;
}

/**
 * What the page needs to count its engine's collections for the machine record
 * (core/run/machine.ts): Chromium's exact, current heap size (else it is rounded and cached),
 * Firefox's GC counters on performance.mozMemory.
 */
function withGcCounts(settings: EngineSettings): EngineSettings {
  return {
    chromiumArgs: [...settings.chromiumArgs, '--enable-precise-memory-info'],
    firefoxPrefs: { ...settings.firefoxPrefs, 'dom.enable_memory_stats': true },
  };
}
