/**
 * `npm run schema`: writes results/schema.json, the results schema as JSON
 * Schema, from its one definition (src/core/results-schema.ts). A unit test fails when the
 * committed file differs from what this writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishedSchemaText, RESULTS_SCHEMA_PATH } from '../../core/results-schema.ts';
import { helpOrNoFlags, PROCESS_IO } from '../args/command-io.ts';

const USAGE = `Usage: npm run schema

Writes ${RESULTS_SCHEMA_PATH}, the JSON Schema of a results file, from src/core/results-schema.ts.
Run it after changing the schema there, and commit both. No flags.

Exit codes: 0 written; 2 bad arguments.`;

helpOrNoFlags('schema', USAGE);

const path = join(fileURLToPath(new URL('../../..', import.meta.url)), RESULTS_SCHEMA_PATH);
mkdirSync(dirname(path), { recursive: true });
writeFileSync(path, publishedSchemaText());
PROCESS_IO.stdout(`wrote ${RESULTS_SCHEMA_PATH}\n`);
