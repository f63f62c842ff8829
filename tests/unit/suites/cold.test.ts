import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../src/adapters/memory.ts';
import type { StoreAdapter, StoreHandle } from '../../../src/core/store/adapter.ts';
import { awaitsDriver } from '../../../src/core/run/driver-cases.ts';
import type { Plan } from '../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../src/core/plan/defaults.ts';
import type { CaseIdentity } from '../../../src/core/base/identity.ts';
import { validateResults } from '../../../src/core/results/recompute.ts';
import { runPlan } from '../../../src/core/run/runner.ts';
import { coldRow, coldSteps, coldSuite } from '../../../suites/cold.ts';
import { fixtureShape, makeDocs } from '../../../fixtures/index.ts';
import { runnerResultsDoc } from '../helpers/runner-doc.ts';

const plan = (over: Partial<Plan> = {}): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['cold'],
  adapters: ['memory', 'disk'],
  sizes: [50],
  iterations: 6,
  warmup: 1,
  ...over,
});
const disk: StoreAdapter = { ...memoryAdapter, id: 'disk', backend: 'indexeddb' };

describe('cold suite', () => {
  it('leaves the reads a store can do to the driver, in all three states', async () => {
    const out = await runPlan({
      plan: plan(),
      suites: [coldSuite],
      adapters: [memoryAdapter, disk],
      runId: 'cold',
      timerStepMs: 0.005,
    });
    // The memory store has get and key ranges, not views or queries over an index.
    expect(
      out.cases.filter((c) => c.adapter === 'disk' && awaitsDriver(c)).map((c) => c.case),
    ).toEqual([
      'get-warm',
      'get-reload',
      'get-restart',
      'page-warm',
      'page-reload',
      'page-restart',
    ]);
    expect(
      out.cases
        .filter((c) => c.adapter === 'memory')
        .every((c) => c.status === 'unsupported' && !awaitsDriver(c)),
    ).toBe(true);
    expect(
      out.cases.find((c) => c.adapter === 'memory' && c.case === 'get-warm')?.reason,
    ).toContain('keeps nothing across a reload or a restart');
  });

  it('reads what it filled, and refuses to time a read that finds nothing', async () => {
    const docs = makeDocs(fixtureShape('person'), 3, 40);
    const handle = await memoryAdapter.open('cold-read');
    const get = coldSteps(handle, 'get', 'age', 'memory');
    await expect(get.read(docs)).rejects.toThrow(/found nothing after doc-/);
    await get.fill(docs);
    await expect(get.read(docs)).resolves.toBeUndefined();
    await expect(coldSteps(handle, 'page', 'age', 'memory').read(docs)).resolves.toBeUndefined();
  });

  it('checks the handle for the methods of the op before any step, naming the store and the method', async () => {
    const noRange: StoreHandle = { ...(await memoryAdapter.open('cold-no-range')) };
    delete noRange.range;
    expect(() => coldSteps(noRange, 'page', 'age', 'disk')).toThrow(
      /^disk declares keyRange but its handle has no range\(\)/,
    );
    expect(() => coldSteps(noRange, 'get', 'age', 'disk')).not.toThrow();
  });

  it('a row times open plus read, and keeps each apart', () => {
    const identity: CaseIdentity = {
      suite: 'cold',
      case: 'get-restart',
      title: 't',
      adapter: 'idb',
      size: 50,
      params: { op: 'get', state: 'restart' },
      operations: 1,
    };
    const row = coldRow(identity, [
      { openMs: 10, readMs: 2 },
      { openMs: 20, readMs: 4 },
    ]);
    expect(row).toMatchObject({
      status: 'ok',
      samples: [12, 24],
      metrics: { openMs: [10, 20], readMs: [2, 4] },
    });
    expect(() => validateResults(runnerResultsDoc('r', plan(), [row], []))).not.toThrow();
  });
});
