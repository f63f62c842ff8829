import type { Suite } from '../src/core/store/suite.ts';
import { coldSuite } from './cold.ts';
import { concurrencySuite } from './concurrency.ts';
import { crashSuite } from './crash.ts';
import { durabilitySuite } from './durability.ts';
import { encryptionSuite } from './encryption.ts';
import { findSuite } from './find.ts';
import { growthSuite } from './growth.ts';
import { insertSuite } from './insert.ts';
import { lifecycleSuite } from './lifecycle.ts';
import { paginateSuite } from './paginate.ts';
import { quotaSuite } from './quota.ts';
import { readSuite } from './read.ts';
import { tabsSuite } from './tabs.ts';
import { updateSuite } from './update.ts';
import { viewsSuite } from './views.ts';

/** Every suite, in run order. Adding a suite is one file in suites/ and one line here. */
export const SUITES: readonly Suite[] = [
  insertSuite,
  readSuite,
  paginateSuite,
  viewsSuite,
  findSuite,
  updateSuite,
  lifecycleSuite,
  growthSuite,
  durabilitySuite,
  concurrencySuite,
  encryptionSuite,
  crashSuite,
  coldSuite,
  tabsSuite,
  quotaSuite,
];

export const SUITE_IDS: readonly string[] = SUITES.map((s) => s.id);

export function suiteById(id: string): Suite {
  const suite = SUITES.find((s) => s.id === id);
  if (!suite) throw new RangeError(`unknown suite "${id}"; allowed: ${SUITE_IDS.join(', ')}`);
  return suite;
}
