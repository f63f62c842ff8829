/**
 * The adapter contract's verdict (src/core/store/contract/verdict.ts) on transcripts run here in Node
 * on the memory store, which needs no browser: a store that keeps the contract has no failure, and
 * one whose range ignores limit and whose count is one too many fails exactly those two contracts,
 * each check with what was expected and what came back. The storage checks (footprints) are the
 * browser's: here every footprint is empty, as it is for a store of backend "other".
 */
import { describe, expect, it } from 'vitest';
import type { StoreAdapter } from '../../../../../src/core/store/adapter.ts';
import type { SupportedReport } from '../../../../../src/core/store/contract/report.ts';
import { showValue } from '../../../../../src/core/store/contract/values.ts';
import { byContract, contractFailures } from '../../../../../src/core/store/contract/verdict.ts';
import { transcript } from '../../../../../src/adapters/contract-probes/transcript.ts';
import { memoryAdapter } from '../../../../../src/adapters/memory.ts';
import { checkedBrowser } from '../../../../../src/cli/terminal/contract-lines.ts';

const CAPS = ['count', 'bulkWrite', 'keyRange', 'getMany', 'update', 'remove'] as const;
const NONE = { idb: [], localStorage: [], memory: [] };

/** The memory store under another id, with the capabilities above; `bugs` break range and count. */
function store(id: string, bugs: boolean): StoreAdapter {
  return {
    ...memoryAdapter,
    id,
    backend: 'other',
    capabilities: [...CAPS],
    async open(name, options) {
      const h = { ...(await memoryAdapter.open(`${id}-${name}`, options)) };
      // Only the methods of the capabilities declared: one more would be a method without its capability.
      delete h.bulkUpdate;
      delete h.bulkRemove;
      if (!bugs) return h;
      return {
        ...h,
        range: (r) => h.range!({ ...r, limit: undefined }),
        count: async () => (await h.count()) + 1,
      };
    },
    destroy: (name) => memoryAdapter.destroy(`${id}-${name}`),
  };
}

async function report(adapter: StoreAdapter): Promise<SupportedReport> {
  const methods = Object.keys(await adapter.open('methods-probe'));
  await adapter.destroy('methods-probe');
  return {
    supported: true,
    capabilities: [...adapter.capabilities],
    backend: adapter.backend,
    methods,
    reference: await transcript(memoryAdapter, adapter.capabilities),
    steps: await transcript(adapter, adapter.capabilities),
    before: NONE,
    filled: NONE,
    afterDestroy: NONE,
    afterSecondDestroy: NONE,
    byNameClosed: { footprint: NONE, countWhenReopened: 0 },
    byNameOpen: { footprint: NONE, countWhenReopened: 0 },
    afterWorker: NONE,
  };
}

describe('contractFailures', () => {
  it('a store that keeps the contract fails no check', async () => {
    expect(contractFailures(await report(store('good', false)))).toEqual([]);
  });

  it('names each broken check, expected and actual', async () => {
    const failures = contractFailures(await report(store('bad', true)));
    const groups = byContract(failures);
    expect(groups.map((g) => g[0]?.contract).sort()).toEqual(['count', 'range']);
    expect(failures).toContainEqual({
      contract: 'count',
      check: 'count, empty',
      expected: '0',
      actual: '1',
    });
    expect(failures).toContainEqual({
      contract: 'range',
      check: 'range {"gte":"doc-0000000005","limit":7}',
      expected: '7 documents [doc-0000000005 … doc-0000000011]',
      actual: '45 documents [doc-0000000005 … doc-0000000049]',
    });
    // Every range with a limit smaller than what it spans fails, and no range without one.
    const ranges = failures.filter((f) => f.contract === 'range').map((f) => f.check);
    expect(ranges.every((c) => c.includes('"limit"'))).toBe(true);
  });

  it('fails a declared capability without its method', async () => {
    const r = await report(store('good', false));
    const failures = contractFailures({
      ...r,
      methods: r.methods.filter((m) => m !== 'bulkPut'),
    });
    expect(failures).toContainEqual({
      contract: 'capabilities',
      check: 'declares bulkWrite',
      expected: 'a bulkPut() method',
      actual: 'none',
    });
  });

  it('fails a capability declared over a missing method', async () => {
    const r = await report(store('good', false));
    const failures = contractFailures({
      ...r,
      capabilities: [...r.capabilities, 'query'],
      methods: r.methods.filter((m) => m !== 'find'),
    });
    expect(failures).toContainEqual({
      contract: 'capabilities',
      check: 'declares query',
      expected: 'a find() method',
      actual: 'none',
    });
  });

  it('a store that says it cannot run must refuse to open', () => {
    expect(
      contractFailures({ supported: 'no IndexedDB here', openWhenUnsupported: 'rejected' }),
    ).toEqual([]);
    expect(
      contractFailures({ supported: 'no IndexedDB here', openWhenUnsupported: 'resolved' }),
    ).toEqual([
      {
        contract: 'supported',
        check: 'open() of a store that says it cannot run here',
        expected: 'rejected',
        actual: 'resolved',
      },
    ]);
  });

  it('shows values in a few words', () => {
    expect(showValue(undefined)).toBe('undefined');
    expect(showValue([{ _id: 'a' }, { _id: 'b' }])).toBe('2 documents [a, b]');
    expect(showValue({ _id: 'a', n: 1 })).toBe('{"_id":"a","n":1}');
    expect(showValue('x'.repeat(500)).length).toBeLessThanOrEqual(120);
  });

  it('checkedBrowser: a line per failed contract', async () => {
    const failures = contractFailures(await report(store('bad', true)));
    const seen = checkedBrowser('chromium', {
      kind: 'checked',
      outcomes: [
        { adapter: 'bad', supported: true, failures },
        { adapter: 'good', supported: true, failures: [] },
        { adapter: 'websql', supported: 'no WebSQL\u001b[31m', failures: [] },
      ],
    });
    expect(seen.failed).toEqual(['bad']);
    const fails = seen.lines.filter((l) => l.includes('FAIL'));
    expect(fails).toHaveLength(2);
    expect(fails[0]).toMatch(
      /^ {2}FAIL bad in chromium: count: count, empty: expected 0, got 1 \(\d+ more count checks failed\)$/,
    );
    expect(seen.lines).toContain('  good in chromium: keeps the contract');
    expect(seen.lines).toContain(
      '  websql in chromium: not run, unsupported here: no WebSQL\\u001b[31m',
    );
    expect(checkedBrowser('firefox', { kind: 'crashed', message: 'gone' })).toEqual({
      lines: ['  firefox: could not run the contract (crashed): gone'],
      failed: [],
      unfinished: true,
    });
  });
});
