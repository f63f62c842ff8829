import { describe, expect, it } from 'vitest';
import { foldedLine } from '../../src/ui/explorer/folded-charts.ts';

describe('folded charts - the one line', () => {
  it('names the suites that would fill the empty charts, once each, and the runs that would', () => {
    expect(foldedLine(['growth', 'crash', 'cold', 'tabs', 'throttle'])).toBe(
      '5 charts with nothing to draw in what is loaded: the growth, crash, cold and tabs suites and a run with --cpu-throttle N beside an unthrottled one would fill them.',
    );
    expect(foldedLine(['history'])).toBe(
      '1 chart with nothing to draw in what is loaded: two runs or more of the same plan would fill it.',
    );
    expect(foldedLine(['crash'])).toBe(
      '1 chart with nothing to draw in what is loaded: the crash suite would fill it.',
    );
  });
});
