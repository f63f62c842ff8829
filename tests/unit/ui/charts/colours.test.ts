import { describe, expect, it } from 'vitest';
import { ADAPTER_IDS } from '../../../../src/adapters/registry.ts';
import { adapterColour } from '../../../../src/ui/charts/colours.ts';

describe('chart colours', () => {
  it('gives every store in the registry a colour of its own', () => {
    const colours = ADAPTER_IDS.map(adapterColour);
    expect(new Set(colours).size).toBe(ADAPTER_IDS.length);
  });
});
