/**
 * check.html: the adapter contract (src/adapters/contract-probes/) on the stores its URL names
 * (`?check=a,b`), one after another, each shown as it ends; with a collector in the URL
 * (`storebench check`, or a sweep before it times anything), the outcomes go there. Without one,
 * a person can open it to see the same verdicts.
 */
import { PAGE_QUERY } from '../../core/run/collector.ts';
import type { ContractOutcome } from '../../core/store/contract/report.ts';
import { checkAdapter } from '../../adapters/contract-probes/run.ts';
import { CollectorClient } from '../host/collector-client.ts';
import { setPageState } from '../host/page-state.ts';

/** The query key of the stores to check. */
export const CHECK_QUERY = 'check';

function show(list: HTMLElement, o: ContractOutcome): void {
  const item = document.createElement('li');
  const verdict =
    o.supported !== true
      ? `not run here: ${o.supported}`
      : o.failures.length === 0
        ? 'keeps the contract'
        : `${o.failures.length} failed check${o.failures.length === 1 ? '' : 's'}`;
  item.textContent = `${o.adapter}: ${verdict}`;
  if (o.failures.length > 0) item.className = 'fail';
  const details = document.createElement('ul');
  for (const f of o.failures) {
    const line = document.createElement('li');
    line.textContent = `${f.contract}: ${f.check}: expected ${f.expected}, got ${f.actual}`;
    details.append(line);
  }
  item.append(details);
  list.append(item);
}

async function main(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const ids = (query.get(CHECK_QUERY) ?? '').split(',').filter(Boolean);
  const collector = query.get(PAGE_QUERY.collector);
  const token = query.get(PAGE_QUERY.token);
  const browser = query.get(PAGE_QUERY.browser) ?? 'browser';
  const client =
    collector && token
      ? new CollectorClient(new URL(collector, location.href).href, token, browser)
      : null;
  setPageState({ status: 'running' });
  await client?.hello(navigator.userAgent);
  const list = document.getElementById('outcomes') as HTMLElement;
  const outcomes: ContractOutcome[] = [];
  for (const id of ids) {
    const { adapter, supported, failures } = await checkAdapter(id);
    const outcome = { adapter, supported, failures };
    outcomes.push(outcome);
    show(list, outcome);
  }
  await client?.contract(outcomes);
  setPageState({ status: 'done' });
}

main().catch((e: unknown) => {
  setPageState({ status: 'error', error: String(e) });
});
