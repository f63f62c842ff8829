import { describe, expect, it } from 'vitest';
import { foldedLine } from '../../../../src/ui/explorer/folded-charts.ts';
import { servedLine } from '../../../../src/ui/explorer/explorer-sources.ts';
import type { ResultsIndexEntry } from '../../../../src/core/results/input.ts';

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

  it('says "little or nothing" when a drawn chart folds too, with what would give it more', () => {
    expect(
      foldedLine([
        { kind: 'bars', little: "another browser's results" },
        { kind: 'scaling', little: 'results at two sizes or more' },
        'crash',
      ]),
    ).toBe(
      "3 charts with little or nothing to draw in what is loaded: the crash suite, another browser's results and results at two sizes or more would fill them.",
    );
  });
});

describe('served files - the folded line', () => {
  const entry = (name: string, browser: string, suites: string[]): ResultsIndexEntry => ({
    name,
    bytes: 1000,
    documents: [{ runId: 'r', browser, browserVersion: '1', startedAt: '', suites, rows: 3 }],
  });

  it('counts the files, names their browsers and suites, and how many are open', () => {
    const index = [
      entry('a.json', 'chromium', ['insert']),
      entry('b.json', 'firefox', ['insert', 'crash']),
    ];
    expect(servedLine(index, new Set())).toBe(
      '2 files of chromium, firefox (suites insert, crash), none open: tick one to open it.',
    );
    expect(servedLine(index, new Set(['b.json']))).toBe(
      '2 files of chromium, firefox (suites insert, crash), 1 open: tick one to open it.',
    );
  });

  it('lists a few suites and counts the rest', () => {
    const suites = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    expect(servedLine([entry('x.json', 'webkit', suites)], new Set())).toBe(
      '1 file of webkit (suites a, b, c, d, e and 2 more), none open: tick one to open it.',
    );
  });
});
