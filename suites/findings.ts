import type { CaseResult } from '../src/core/results.ts';
import { describeLost } from './crash.ts';
import { describeQuota } from './quota.ts';
import { describeTabs } from './tabs.ts';

/**
 * What a driven row found besides its time, in words: lost writes for crash, latencies, events
 * and visibility for tabs, what fit and the error for quota. Null for every other row. The sweep prints it under its table; the
 * page's results table puts it in the row's notes.
 */
export function drivenFinding(row: CaseResult): string | null {
  return describeLost(row) ?? describeTabs(row) ?? describeQuota(row);
}
