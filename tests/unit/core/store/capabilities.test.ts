import { describe, expect, it } from 'vitest';
import { memoryAdapter } from '../../../../src/adapters/memory.ts';
import type { Doc, StoreAdapter, StoreHandle } from '../../../../src/core/store/adapter.ts';
import type { Capability } from '../../../../src/core/store/capabilities.ts';
import type { Plan } from '../../../../src/core/plan/plan.ts';
import { DEFAULT_PLAN } from '../../../../src/core/plan/defaults.ts';
import { runPlan } from '../../../../src/core/run/runner.ts';
import { defineCase, type BenchCase, type Suite } from '../../../../src/core/store/suite.ts';
import { insertSuite } from '../../../../suites/insert.ts';

/*
 * Type tests: `tsc --noEmit` checks this file, and fails on a `@ts-expect-error` line that is
 * not an error. Each such line calls a method the case did not declare, or misuses its state.
 */
const none = { where: [] };

/** Declares bulkWrite and query: their methods are callable as they are, any other is not. */
const typed: BenchCase = defineCase({
  id: 'typed',
  title: 'typed',
  needs: ['bulkWrite', 'query'],
  operations: () => 1,
  setup: async (ctx) => ctx.fixture.docs(ctx.size),
  async run(ctx, docs) {
    const written: Doc[] = docs; // setup's type reached run
    await ctx.handle.bulkPut(written);
    await ctx.handle.find(none);
    await ctx.handle.countWhere(none);
    // @ts-expect-error getMany is getMany's, which the case does not need
    await ctx.handle.getMany(['a']);
  },
  async verify(ctx, docs) {
    // @ts-expect-error the state is what setup returned, not a number
    const wrong: number = docs;
    void wrong;
    // @ts-expect-error range is keyRange's, which the case does not need
    await ctx.handle.range({});
  },
});

const indexed: boolean = typed.needs.length > 1;
const someNeeds: readonly Capability[] = typed.needs;

/** A case that needs an index only sometimes: its handle promises what every branch declares. */
export const sometimesIndexed = defineCase({
  id: 'sometimes',
  title: 'sometimes',
  needs: indexed ? ['query', 'secondaryIndex'] : ['query'],
  operations: () => 1,
  async run(ctx) {
    await ctx.handle.find(none);
    // @ts-expect-error createIndex is declared in one branch only
    await ctx.handle.createIndex(['age']);
  },
});

/** Needs no one can read off the type (an array of any length) promise nothing. */
export const unknownNeeds = defineCase({
  id: 'unknown',
  title: 'unknown',
  needs: someNeeds,
  operations: () => 1,
  async run(ctx) {
    // @ts-expect-error the needs may be empty
    await ctx.handle.bulkPut([]);
  },
});

/** A handle the case opens itself is checked to the same methods by ctx.checked. */
export const selfOpened = defineCase({
  id: 'self',
  title: 'self',
  needs: ['getMany'],
  open: 'self',
  operations: () => 1,
  setup: async (ctx) => ctx.checked(await ctx.adapter.open(ctx.dbName)),
  async run(_ctx, handle) {
    await handle.getMany(['a']);
    // @ts-expect-error bulkPut is bulkWrite's, which the case does not need
    await handle.bulkPut([]);
  },
  teardown: (_ctx, handle) => handle.close(),
});

const plan = (over: Partial<Plan> = {}): Plan => ({
  ...DEFAULT_PLAN,
  suites: ['t'],
  adapters: ['memory'],
  sizes: [10],
  iterations: 3,
  warmup: 1,
  ...over,
});
const suiteOf = (...cases: BenchCase[]): Suite => ({
  id: 't',
  title: 'test',
  description: 'test suite',
  cases: () => cases,
});

/** The memory store with one method taken off its handles, while it still declares its capability. */
function without(method: keyof StoreHandle): StoreAdapter {
  return {
    ...memoryAdapter,
    id: `memory-without-${method}`,
    label: `memory without ${method}`,
    async open(name, options) {
      const { [method]: _dropped, ...rest } = await memoryAdapter.open(name, options);
      return rest as StoreHandle;
    },
  };
}

const run = (suites: Suite[], adapters: StoreAdapter[], p: Plan) =>
  runPlan({ plan: p, suites, adapters, runId: 'caps', cleanupTimeoutMs: 500, timerStepMs: 0.005 });

describe('defineCase, capability checks', () => {
  it('hands the runner the case as written', () => {
    expect(typed.needs).toEqual(['bulkWrite', 'query']);
    expect(typed.id).toBe('typed');
  });

  it('fails a row whose handle lacks a declared method', async () => {
    const broken = without('bulkPut');
    const out = await run(
      [insertSuite],
      [broken, memoryAdapter],
      plan({ suites: ['insert'], cases: ['serial', 'bulk'] }),
    );
    const row = (adapter: string, c: string) =>
      out.cases.find((r) => r.adapter === adapter && r.case === c);
    expect(row(broken.id, 'bulk')).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(
        /^memory-without-bulkPut declares bulkWrite but its handle has no bulkPut\(\).*\(warm-up sample 1, after 0 timed samples\)$/,
      ),
    });
    // It lacks no method the serial case needs, and the intact store runs both.
    expect(row(broken.id, 'serial')?.status).toBe('ok');
    expect(row('memory', 'bulk')?.status).toBe('ok');
    expect(out.leftover).toEqual([]);
  });

  it('checks a shared database before its setup fills it', async () => {
    let setups = 0;
    const shared = defineCase({
      id: 'shared',
      title: 'shared',
      needs: ['getMany'],
      db: 'shared',
      operations: () => 1,
      setup: async () => void setups++,
      run: async (ctx) => void (await ctx.handle.getMany(['a'])),
    });
    const broken = without('getMany');
    const out = await run([suiteOf(shared)], [broken, memoryAdapter], plan());
    expect(out.cases.find((r) => r.adapter === broken.id)).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(
        /declares getMany but its handle has no getMany\(\).*filling its shared database/,
      ),
    });
    expect(out.cases.find((r) => r.adapter === 'memory')?.status).toBe('ok');
    expect(setups).toBe(1); // the intact store's only
  });

  it('checks a handle once per row, not in every sample', async () => {
    let reads = 0;
    const counting: StoreAdapter = {
      ...memoryAdapter,
      id: 'counting',
      async open(name, options) {
        const handle = await memoryAdapter.open(name, options);
        const getMany = handle.getMany?.bind(handle);
        return Object.defineProperty({ ...handle }, 'getMany', {
          get: () => (reads++, getMany),
          enumerable: true,
        });
      },
    };
    const c = defineCase({
      id: 'c',
      title: 'c',
      needs: ['getMany'],
      operations: () => 1,
      run: async (ctx) => void (await ctx.handle.getMany(['a'])),
    });
    const out = await run(
      [suiteOf(c)],
      [counting],
      plan({ adapters: ['counting'], iterations: 4, warmup: 2 }),
    );
    expect(out.cases[0]?.status).toBe('ok');
    expect(reads).toBe(6 + 1); // one per run of the body, and the one check
  });

  it("ctx.checked fails a case's own handle without the method", async () => {
    const broken = without('getMany');
    const out = await run([suiteOf(selfOpened)], [broken, memoryAdapter], plan());
    expect(out.cases.find((r) => r.adapter === broken.id)).toMatchObject({
      status: 'error',
      reason: expect.stringMatching(
        /^memory-without-getMany declares getMany but its handle has no getMany\(\)/,
      ),
    });
    expect(out.cases.find((r) => r.adapter === 'memory')?.status).toBe('ok');
  });
});
