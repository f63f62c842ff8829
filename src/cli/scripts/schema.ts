/**
 * `npm run schema`: writes the published JSON Schemas from their one definitions:
 * results/schema.json (src/core/schema/results-schema.ts) and storebench.config.schema.json
 * (src/cli/args/config-schema.ts). A unit test fails when a committed file differs from what this writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { publishedSchemaText, RESULTS_SCHEMA_PATH } from '../../core/schema/results-schema.ts';
import { CONFIG_SCHEMA_PATH, publishedConfigSchemaText } from '../args/config-schema.ts';
import { helpOrNoFlags, isEntry, PROCESS_IO, runEntry } from '../args/command-io.ts';
import { REPO_ROOT } from '../build/build-page.ts';

const USAGE = `Usage: npm run schema

Writes ${RESULTS_SCHEMA_PATH}, the JSON Schema of a results file, from src/core/schema/results-schema.ts,
and ${CONFIG_SCHEMA_PATH}, the JSON Schema of storebench.config.json, from
src/cli/args/config-schema.ts (its sweep keys from the sweep's flags). Run it after changing
either, or the sweep's flags, and commit the files. No flags.

Exit codes: 0 written; 2 bad arguments.`;

export function schema(argv: readonly string[]): Promise<number> {
  const early = helpOrNoFlags('schema', USAGE, argv);
  if (early !== null) return Promise.resolve(early);
  for (const [file, text] of [
    [RESULTS_SCHEMA_PATH, publishedSchemaText()],
    [CONFIG_SCHEMA_PATH, publishedConfigSchemaText()],
  ] as const) {
    const path = join(REPO_ROOT, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    PROCESS_IO.stdout(`wrote ${file}\n`);
  }
  return Promise.resolve(0);
}

if (isEntry(import.meta.url)) runEntry('schema', schema);
