import type { Suite } from '../src/core/suite.ts';
import { insertSuite } from './insert.ts';

/** Every suite, in run order. Adding a suite is one file in suites/ and one line here. */
export const SUITES: readonly Suite[] = [insertSuite];

export const SUITE_IDS: readonly string[] = SUITES.map((s) => s.id);

export function suiteById(id: string): Suite {
  const suite = SUITES.find((s) => s.id === id);
  if (!suite) throw new RangeError(`unknown suite "${id}"; allowed: ${SUITE_IDS.join(', ')}`);
  return suite;
}
