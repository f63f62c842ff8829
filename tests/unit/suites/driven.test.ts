import { describe, expect, it } from 'vitest';
import { resultsTable } from '../../../src/cli/terminal/table.ts';
import type { CaseIdentity } from '../../../src/core/base/identity.ts';
import { resolveSuiteParams } from '../../../src/core/store/suite.ts';
import { coldCaseOf, coldRow, coldSuite } from '../../../suites/cold.ts';
import { crashRow } from '../../../suites/crash.ts';
import {
  DRIVEN_SUITE_IDS,
  DRIVEN_SUITES,
  drivenFinding,
  isTimedSection,
} from '../../../suites/driven.ts';
import { SUITES } from '../../../suites/index.ts';
import { quotaRow } from '../../../suites/quota.ts';
import { tabsCaseOf, tabsRow, tabsSuite } from '../../../suites/tabs.ts';

const identity = (suite: string, kase: string, params: CaseIdentity['params']): CaseIdentity => ({
  suite,
  case: kase,
  title: 't',
  adapter: 'idb',
  size: 100,
  params,
  operations: 1,
});

describe('driven suites - the registry', () => {
  it('lists exactly the suites whose cases the page leaves to a driver, each under its own id', () => {
    const driven = SUITES.filter((s) =>
      s.cases(resolveSuiteParams(s, {})).some((c) => c.driven !== undefined),
    );
    expect(DRIVEN_SUITE_IDS).toEqual(driven.map((s) => s.id));
    for (const id of DRIVEN_SUITE_IDS) {
      const { suite } = DRIVEN_SUITES[id];
      expect(suite.id).toBe(id);
      expect(SUITES).toContain(suite);
      // A driven suite is driven throughout: the page runs none of its cases.
      expect(
        suite.cases(resolveSuiteParams(suite, {})).every((c) => c.driven !== undefined),
        id,
      ).toBe(true);
    }
  });

  it("tells a row's suite by its id, not by a prefix of its case", () => {
    const crash = crashRow(
      identity('crash', 'serial-default', { durability: 'default', chunkSize: 1 }),
      [{ acknowledged: ['a', 'b'], elapsedMs: 4, present: ['a'], count: 1 }],
    );
    expect(drivenFinding(crash)).toBe(
      'lost 1 of 2 acknowledged writes; 1 of 1 kill lost some (95% CI 21–100% of kills)',
    );
    expect(drivenFinding({ ...crash, suite: 'insert' })).toBeNull();
    expect(drivenFinding({ ...crash, suite: 'crashes' })).toBeNull();
    expect(isTimedSection(crash)).toBe(false);
    expect(isTimedSection({ suite: 'cold' })).toBe(true);
    expect(isTimedSection({ suite: 'insert' })).toBe(true);
  });

  it('reads the case a tabs or cold row measures from its params and id', () => {
    const cases = tabsSuite.cases(resolveSuiteParams(tabsSuite, { tabs: [1, 3] }));
    expect(cases.map((c) => tabsCaseOf(c.params ?? {}))).toEqual([
      { k: 1, visibility: 'visible', ops: 200 },
      { k: 3, visibility: 'visible', ops: 200 },
      { k: 3, visibility: 'hidden', ops: 200 },
    ]);
    expect(tabsCaseOf({ k: 2, visibility: 'background', ops: 200 })).toBeNull();
    expect(tabsCaseOf({ op: 'get', state: 'warm' })).toBeNull();
    for (const c of coldSuite.cases({})) expect(coldCaseOf(c.id)).toEqual(c.params);
    expect(coldCaseOf('get-warmer')).toBeNull();
    expect(coldCaseOf('visible-2')).toBeNull();
  });
});

describe('driven suites - the sweep prints their findings', () => {
  it('under each heading in the order of the registry, none for cold; a crash row is never marked under the timer', () => {
    const crash = crashRow(
      identity('crash', 'serial-default', { durability: 'default', chunkSize: 1 }),
      [{ acknowledged: ['a'], elapsedMs: 0.001, present: ['a'], count: 1 }],
    );
    const tab = (latency: number) => ({ startedAt: 0, endedAt: 10, latencies: [latency, latency] });
    const tabs = tabsRow(identity('tabs', 'visible-2', { k: 2, visibility: 'visible', ops: 2 }), [
      {
        tabs: [tab(1), tab(3)],
        blocked: 0,
        versionchange: 1,
        unseen: 0,
        settleMs: 0,
        lost: 0,
        extra: 0,
      },
    ]);
    const quota = quotaRow(identity('quota', 'fill', { quotaMb: 5, maxDocs: 10 }), [
      {
        ms: 5,
        docs: 10,
        stored: 10,
        jsonBytes: 2e6,
        usageBytes: null,
        quotaBytes: null,
        persisted: null,
        error: 'no failure within 10 documents',
      },
    ]);
    const cold = coldRow(identity('cold', 'get-warm', { op: 'get', state: 'warm' }), [
      { openMs: 0.0005, readMs: 0.0005 },
    ]);
    const text = resultsTable([
      { browser: 'chromium', cases: [quota, cold, tabs, crash], timerStepMs: 0.1 },
    ]);
    const lines = text.split('\n');
    const at = (line: string) => lines.indexOf(line);
    expect(at(DRIVEN_SUITES.crash.finding!.heading)).toBeGreaterThan(0);
    expect(at(DRIVEN_SUITES.tabs.finding!.heading)).toBeGreaterThan(
      at(DRIVEN_SUITES.crash.finding!.heading),
    );
    expect(at(DRIVEN_SUITES.quota.finding!.heading)).toBeGreaterThan(
      at(DRIVEN_SUITES.tabs.finding!.heading),
    );
    expect(text).toContain(
      '  chromium idb serial-default size 100: lost 0 of 1 acknowledged write; 0 of 1 kill lost some',
    );
    expect(text).toContain(
      '  chromium idb visible-2 size 100: median p50 2 ms, p95 3 ms, max 3 ms per operation; 0 blocked, 1 versionchange events',
    );
    expect(text).toContain(
      '  chromium idb fill size 100: documents that fit per fill: 10 (1.91 MiB of JSON in the first)',
    );
    // The cold row's 1 µs is marked as timer noise; the crash row's 1 µs per write is not.
    expect(lines.find((l) => l.startsWith('cold ') && l.includes('get-warm'))).toMatch(/ ~$/);
    expect(lines.find((l) => l.startsWith('crash ') && l.includes('serial-default'))).not.toMatch(
      / ~$/,
    );
  });
});
