/**
 * The adapter contract, run in the page on one store: its report (src/core/store/contract/report.ts)
 * and the verdict on it (src/core/store/contract/verdict.ts). The contract test (tests/e2e/
 * adapters-contract.spec.ts) and `storebench check` (check.html, src/ui/check/) both run it, on
 * storebench's stores and a store author's alike.
 */
import type { StoreAdapter } from '../../core/store/adapter.ts';
import type {
  ContractOutcome,
  ContractReport,
  Footprint,
  SupportedReport,
} from '../../core/store/contract/report.ts';
import { contractFailures } from '../../core/store/contract/verdict.ts';
import { memoryAdapter } from '../memory.ts';
import { adapterById } from '../registry.ts';
import { deleteByName, durabilitySeen, footprint, inWorker, within } from './probes.ts';
import { queryReport } from './queries.ts';
import { settle, transcript, uniqueName } from './transcript.ts';
import { BlockedDeleteError, unblocked } from '../indexeddb/blocked-deletes.ts';

async function runContract(adapter: StoreAdapter): Promise<ContractReport> {
  const supported = await adapter.supported();
  if (supported !== true) {
    // A store that says it cannot run here must not quietly open something else instead.
    const opened = within(adapter.open(uniqueName(adapter.id, 'unsupported')), 10_000, 'open');
    return { supported, openWhenUnsupported: await settle(opened) };
  }
  const reference = await transcript(memoryAdapter, adapter.capabilities);
  const before = await footprint();
  const seen: { filled: Footprint; afterDestroy: Footprint } = {
    filled: before,
    afterDestroy: before,
  };
  const steps = await transcript(adapter, adapter.capabilities, {
    filled: async () => void (seen.filled = await footprint()),
    destroyed: async () => void (seen.afterDestroy = await footprint()),
  });
  const afterSecondDestroy = await footprint();
  const probe = await adapter.open(uniqueName(adapter.id, 'methods'));
  const methods = Object.entries(probe).flatMap(([k, v]) => (typeof v === 'function' ? [k] : []));
  await probe.destroy();
  const report: SupportedReport = {
    supported,
    capabilities: [...adapter.capabilities],
    backend: adapter.backend,
    methods,
    reference,
    steps,
    before,
    ...seen,
    afterSecondDestroy,
    byNameClosed: await deleteByName(adapter, false),
    byNameOpen: await deleteByName(adapter, true),
    afterWorker: before,
  };
  return withCapabilities(adapter, report);
}

/** The parts only some stores have: queries, durability and the Worker, each where declared. */
async function withCapabilities(
  adapter: StoreAdapter,
  report: SupportedReport,
): Promise<SupportedReport> {
  const caps = adapter.capabilities;
  if (caps.includes('query'))
    report.queries = { ...(await queryReport(adapter)), left: await footprint() };
  if (caps.includes('durability')) report.durability = await durabilitySeen(adapter);
  if (caps.includes('worker')) report.worker = await inWorker(adapter);
  report.afterWorker = await footprint();
  return report;
}

/** One store by id (registered, a config's, or a variant): the report and its failures, or why it did not run. */
export async function checkAdapter(
  id: string,
): Promise<ContractOutcome & { report?: ContractReport }> {
  let adapter: StoreAdapter;
  try {
    adapter = adapterById(id);
  } catch (e) {
    const failure = {
      contract: 'registry',
      check: `adapter "${id}"`,
      expected: 'in this page',
      actual: String(e),
    };
    return { adapter: id, supported: true, failures: [failure] };
  }
  const started = performance.now();
  try {
    // A delete that a connection of the store blocks fails the contract at once, with what to do.
    const report = await unblocked(() => runContract(adapter));
    return { adapter: id, supported: report.supported, failures: contractFailures(report), report };
  } catch (e) {
    if (e instanceof BlockedDeleteError) {
      const failure = {
        contract: 'destroy',
        check: 'every delete of a database the store opened',
        expected: 'no connection left open to block it',
        // When: at once, where a timeout would have waited 20 s.
        actual: `${e.message} (${((performance.now() - started) / 1000).toFixed(1)} s into the contract)`,
      };
      return { adapter: id, supported: true, failures: [failure] };
    }
    const thrown = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    const failure = {
      contract: 'contract',
      check: 'the contract ran to its end',
      expected: 'no exception',
      actual: thrown,
    };
    return { adapter: id, supported: true, failures: [failure] };
  }
}
