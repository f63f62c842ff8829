/**
 * The adapter contract's outcomes as lines for a terminal: per store and browser whether it keeps
 * the contract, and one line per failed contract (the store's method) with its first failed check,
 * what was expected and what came back, and how many more of its checks failed. Pure; names and
 * values from the page are escaped.
 */
import type { ContractOutcome } from '../../core/store/contract/report.ts';
import { byContract } from '../../core/store/contract/verdict.ts';
import type { RunEnd } from '../server/session.ts';
import { printableField } from './escape.ts';

export interface CheckedBrowser {
  lines: string[];
  /** The stores that failed a check in this browser. */
  failed: string[];
  /** The browser could not run the contract (it crashed, the page stalled, ...). */
  unfinished: boolean;
}

function outcomeLines(o: ContractOutcome, browser: string): string[] {
  const who = `${printableField(o.adapter)} in ${browser}`;
  if (o.supported !== true)
    return [`  ${who}: not run, unsupported here: ${printableField(o.supported)}`];
  if (o.failures.length === 0) return [`  ${who}: keeps the contract`];
  return byContract(o.failures).map((group) => {
    const [f] = group as [(typeof group)[number]];
    const more =
      group.length > 1
        ? ` (${group.length - 1} more ${f.contract} check${group.length === 2 ? '' : 's'} failed)`
        : '';
    return `  FAIL ${who}: ${printableField(f.contract)}: ${printableField(f.check)}: expected ${printableField(f.expected)}, got ${printableField(f.actual)}${more}`;
  });
}

export function checkedBrowser(browser: string, end: RunEnd): CheckedBrowser {
  if (end.kind !== 'checked') {
    const message = 'message' in end ? end.message : end.kind;
    return {
      lines: [`  ${browser}: could not run the contract (${end.kind}): ${printableField(message)}`],
      failed: [],
      unfinished: true,
    };
  }
  return {
    lines: end.outcomes.flatMap((o) => outcomeLines(o, browser)),
    failed: end.outcomes.filter((o) => o.failures.length > 0).map((o) => o.adapter),
    unfinished: false,
  };
}
