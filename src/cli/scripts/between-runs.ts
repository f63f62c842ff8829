/**
 * `npm run between-runs`: measures how far identical code moves between two runs here, from the
 * committed A/A pairs (between-runs.ts), and writes src/core/stats/between-runs.json, which `compare`
 * widens its intervals by. A unit test fails while the committed table differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureBetweenRuns } from '../files/committed-pairs.ts';
import { REPO_ROOT } from '../build/build-page.ts';
import { isEntry, PROCESS_IO, runEntry } from '../args/command-io.ts';
import { ArgsError, scanFlags } from '../args/flags.ts';

export const TABLE_PATH = 'src/core/stats/between-runs.json';

const USAGE = `Usage: npm run between-runs

Measures the between-run scatter of identical code from the committed back-to-back pairs in
results/ and writes ${TABLE_PATH}, which npm run compare widens each row's interval by.
Run it after committing a new pair of identical-code sweeps. No flags.

Exit codes: 0 written; 2 bad arguments.`;

export const tableText = (): string => `${JSON.stringify(measureBetweenRuns(), null, 2)}\n`;

function betweenRuns(argv: readonly string[]): number {
  try {
    if (scanFlags(argv, {}).help) return (PROCESS_IO.stdout(`${USAGE}\n`), 0);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    PROCESS_IO.stderr(`between-runs: ${e.message}\n`);
    return 2;
  }
  writeFileSync(join(REPO_ROOT, TABLE_PATH), tableText());
  PROCESS_IO.stdout(`wrote ${TABLE_PATH}\n`);
  return 0;
}

if (isEntry(import.meta.url)) runEntry('between-runs', betweenRuns);
