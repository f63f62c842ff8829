// The noise cures turned into each engine's launch settings (src/cli/drivers/engine-settings.ts).
import { describe, expect, it } from 'vitest';
import { DEFAULT_CURES } from '../../../../src/core/plan/cures.ts';
import {
  engineSettings,
  engineSettingsForUrl,
} from '../../../../src/cli/drivers/engine-settings.ts';

describe('cures - the launch', () => {
  it('exposes gc() and sets the benchmarking flags only for the cures on', () => {
    expect(engineSettings([]).chromiumArgs).toEqual([]);
    expect(engineSettings(['gc']).chromiumArgs).toEqual(['--js-flags=--expose-gc']);
    expect(engineSettings(['gc']).firefoxPrefs).toEqual({});
    expect(engineSettings(['engine']).firefoxPrefs['privacy.reduceTimerPrecision']).toBe(false);
  });

  it('takes the cures from the page URL the page will apply', () => {
    const url = 'http://127.0.0.1:1/?suites=insert&cures=gc,engine';
    expect(engineSettingsForUrl(url).chromiumArgs).toEqual([
      '--js-flags=--expose-gc',
      '--enable-benchmarking',
      '--no-experiments',
    ]);
    expect(engineSettingsForUrl('http://127.0.0.1:1/').chromiumArgs).toEqual(
      engineSettings(DEFAULT_CURES).chromiumArgs,
    );
  });
});
