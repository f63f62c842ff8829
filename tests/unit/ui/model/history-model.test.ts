/**
 * The explorer's trends model over real committed runs (results/), one of them with a synthetic
 * ×1.2 step applied to a copy in memory; and the published site's default files.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseResultsInput } from '../../../../src/core/results/input.ts';
import type { ResultsFile } from '../../../../src/core/results/results.ts';
import type { LoadedFile } from '../../../../src/ui/model/explorer-model.ts';
import {
  chosenTrend,
  historyInputs,
  sourceHref,
  trendOptions,
  trendPoints,
  trendsOf,
} from '../../../../src/ui/model/history-model.ts';
import { newestPerBrowser } from '../../../../src/ui/model/site-default.ts';

const RESULTS = fileURLToPath(new URL('../../../../results/', import.meta.url));
const ROW = 'chromium/insert/bulk/idb/100';

/** The committed Chromium runs as served files; from the 5th holding the row on, its samples ×1.2 (synthetic). */
function files(step: number): LoadedFile[] {
  let seen = 0;
  return readdirSync(RESULTS)
    .filter((n) => n.endsWith('-chromium.json'))
    .sort()
    .flatMap((name) => {
      const doc = parseResultsInput(
        readFileSync(join(RESULTS, name), 'utf8'),
        name,
      )[0] as ResultsFile;
      const row = doc.cases.find(
        (c) => c.suite === 'insert' && c.case === 'bulk' && c.adapter === 'idb' && c.size === 100,
      );
      if (row?.status === 'ok' && seen++ >= 4) row.samples = row.samples.map((x) => x * step);
      return [{ id: `served:${name}`, label: name, origin: 'served' as const, results: doc }];
    });
}

describe('trends model', () => {
  const stepped = trendsOf(files(1.2), 'date');

  it('shows the row asked for, with its points, the change and each segment level', () => {
    const s = chosenTrend(stepped, ROW, null)!;
    expect(s.series.key).toMatchObject({ browser: 'chromium', case: 'bulk', adapter: 'idb' });
    const points = trendPoints(s);
    expect(points).toHaveLength(8);
    expect(points.map((p) => p.change)).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
    ]);
    const change = s.changes[0]!;
    expect(points[3]!.level).toBeCloseTo(change.levelBefore, 12);
    expect(points[4]!.level).toBeCloseTo(change.levelAfter, 12);
    expect(change.levelAfter / change.levelBefore).toBeGreaterThan(1.1);
    // Each point's raw median is the file's own row's median; the net one is it less the run's shift.
    for (const p of s.series.points) {
      const shift = p.shift ? Math.exp(p.shift.y) : 1;
      expect(p.net.median).toBeCloseTo(p.raw.median / shift, 9);
    }
    expect(points[0]!.sources[0]).toMatch(/^served:.*-chromium\.json$/);
  });

  it('without a row asked for, shows the first with a change; the options name it so', () => {
    expect(chosenTrend(stepped, null, null)?.series.key.adapter).toBe('idb');
    const option = trendOptions(stepped).find((o) => o.value === ROW)!;
    expect(option).toMatchObject({ group: 'chromium', points: 8, changes: 1 });
    expect(option.text).toMatch(/\(8 points, 1 change\)$/);
  });

  it('prefers the explorer chart row when it is long enough, else the first with a change', () => {
    const row = {
      browser: 'chromium',
      suite: 'read',
      case: 'get-serial',
      adapter: 'dexie',
      size: 100,
    };
    expect(chosenTrend(stepped, null, row)?.series.key).toMatchObject(row);
    const short = { ...row, size: 1000 };
    expect(chosenTrend(stepped, null, short)?.series.key.adapter).toBe('idb');
  });

  it('counts a document loaded twice once, and links a served file to results/', () => {
    const list = files(1);
    expect(historyInputs([...list, list[0]!])).toHaveLength(list.length);
    expect(sourceHref('served:a-chromium.json#1')).toBe('results/a-chromium.json');
    expect(sourceHref('local:a.json')).toBeNull();
  });

  it("the site opens each browser's newest run", () => {
    const entry = (name: string, browser: string, startedAt: string) => ({
      name,
      bytes: 1,
      documents: [{ runId: name, browser, browserVersion: 'x', startedAt, suites: [], rows: 1 }],
    });
    expect(
      newestPerBrowser([
        entry('a-chromium.json', 'chromium', '2026-01-01T00:00:00Z'),
        entry('b-chromium.json', 'chromium', '2026-01-02T00:00:00Z'),
        entry('a-firefox.json', 'firefox', '2026-01-01T00:00:00Z'),
        { name: 'bad.json', bytes: 1, error: 'not JSON' },
      ]),
    ).toEqual(['b-chromium.json', 'a-firefox.json']);
  });
});
