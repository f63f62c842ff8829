// The noise cures as a plan field: parsed, formatted, recorded only where not the defaults, and
// turned into each engine's launch settings.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CURES, formatCures, parseCures } from '../../../../src/core/plan/cures.ts';
import { curesOf } from '../../../../src/core/plan/plan.ts';
import { parsePlan, planToFields } from '../../../../src/core/plan/fields.ts';
import {
  engineSettings,
  engineSettingsForUrl,
} from '../../../../src/cli/drivers/engine-settings.ts';
import { parseNoiseAbArgs } from '../../../../src/cli/scripts/noise-ab.ts';

const vocab = { suites: ['insert'], adapters: ['memory', 'idb'], fixtures: ['person'] };

describe('cures - the field', () => {
  it('reads a list, none and default, and refuses an unknown name with what is allowed', () => {
    expect(parseCures('engine,gc')).toEqual(['gc', 'engine']);
    expect(parseCures('batch,gc,engine')).toEqual(['gc', 'engine', 'batch']);
    expect(parseCures('none')).toEqual([]);
    expect(parseCures('default')).toEqual([...DEFAULT_CURES]);
    expect(parseCures('gc,fast')).toBe(
      '"fast" is not a cure; allowed: gc, engine, batch, core, none or default',
    );
    expect(formatCures([])).toBe('none');
  });

  it('is in a plan only where it is not the defaults, and survives the URL', () => {
    expect(parsePlan({}, vocab).cures).toBeUndefined();
    expect(curesOf(parsePlan({}, vocab))).toEqual(DEFAULT_CURES);
    const on = parsePlan({ cures: 'gc,batch' }, vocab);
    expect(on.cures).toEqual(['gc', 'batch']);
    expect(parsePlan(planToFields(on), vocab).cures).toEqual(['gc', 'batch']);
    expect(parsePlan({ cures: 'default' }, vocab).cures).toBeUndefined();
    expect(() => parsePlan({ cures: 'gcc' }, vocab)).toThrow(/cures: "gcc" is not a cure/);
  });
});

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

describe('noise-ab - flags', () => {
  it('takes the on arm cures and leaves --browsers and --out to itself', () => {
    expect(parseNoiseAbArgs(['--cures', 'gc', '--', '--budget', '60s']).cures).toEqual(['gc']);
    expect(() => parseNoiseAbArgs(['--', '--budget', '60s'])).toThrow(/name the cures/);
    expect(() => parseNoiseAbArgs(['--', '--cures', 'gc'])).toThrow(/before --/);
    expect(() => parseNoiseAbArgs(['--cures', 'none'])).toThrow(/at least one cure/);
  });
});
