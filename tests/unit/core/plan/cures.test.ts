// The noise cures as a plan field: parsed, formatted, recorded only where not the defaults.
// Each engine's launch settings for them: cli/drivers/engine-settings.test.ts.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CURES, formatCures, parseCures } from '../../../../src/core/plan/cures.ts';
import { curesOf } from '../../../../src/core/plan/plan.ts';
import { parsePlan, planToFields } from '../../../../src/core/plan/fields.ts';

const vocab = { suites: ['insert'], adapters: ['memory', 'idb'], fixtures: ['person'] };

describe('parseCures, formatCures', () => {
  it('reads a list, none and default', () => {
    expect(parseCures('engine,gc')).toEqual(['gc', 'engine']);
    expect(parseCures('batch,gc,engine')).toEqual(['gc', 'engine', 'batch']);
    expect(parseCures('none')).toEqual([]);
    expect(parseCures('default')).toEqual([...DEFAULT_CURES]);
    expect(formatCures([])).toBe('none');
  });

  it('refuses an unknown name with what is allowed', () => {
    expect(parseCures('gc,fast')).toBe(
      '"fast" is not a cure; allowed: gc, engine, batch, core, none or default',
    );
  });

  it('is in a plan only where it is not the defaults', () => {
    expect(parsePlan({}, vocab).cures).toBeUndefined();
    expect(curesOf(parsePlan({}, vocab))).toEqual(DEFAULT_CURES);
    expect(parsePlan({ cures: 'default' }, vocab).cures).toBeUndefined();
    expect(() => parsePlan({ cures: 'gcc' }, vocab)).toThrow(/cures: "gcc" is not a cure/);
  });

  it("survives the plan's text fields", () => {
    const on = parsePlan({ cures: 'gc,batch' }, vocab);
    expect(on.cures).toEqual(['gc', 'batch']);
    expect(parsePlan(planToFields(on), vocab).cures).toEqual(['gc', 'batch']);
  });
});
