/**
 * `storebench init [--force]`: the two files a store's repository needs to run storebench: a
 * storebench.config.json and an adapter skeleton (bench/storebench-adapter.ts) that keeps the
 * contract as written, a Map in the page, for its author to turn into calls of their store.
 * Refuses to overwrite either unless --force.
 *
 * Exit codes: 0 written; 2 bad flags, or a file there already.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommandIo } from '../args/command-io.ts';
import { CONFIG_FILE } from '../args/config-file.ts';
import { ArgsError, scanFlags } from '../args/flags.ts';

export const ADAPTER_FILE = join('bench', 'storebench-adapter.ts');

const USAGE = `Usage: storebench init [--force]

Writes ${CONFIG_FILE} (its adapters, and the plan a sweep runs) and ${ADAPTER_FILE}, an
adapter that keeps the contract as it is (a Map in the page): replace its Map with your store's
calls, then run npx storebench check, then npx storebench sweep.

  --force   overwrite the files if they exist

Exit codes: 0 written; 2 bad flags, or a file is there already (without --force).`;

export const STARTER_CONFIG = {
  $schema: './node_modules/storebench/storebench.config.schema.json',
  adapters: [`./${ADAPTER_FILE.split('\\').join('/')}`],
  sweep: { adapters: ['mystore', 'memory'], suites: ['insert', 'read'], budget: '2m' },
};

export const STARTER_ADAPTER = `// The adapter between storebench and your store: the only code that knows your store's API.
// storebench check runs the contract on it (every answer compared with storebench's memory store);
// storebench sweep times it. Declare only the capabilities your store really has.
import type { Doc, StoreAdapter } from 'storebench';

// Stands in for your store: replace it with your store's own calls.
const databases = new Map<string, Map<string, Doc>>();

export const myStoreAdapter: StoreAdapter = {
  id: 'mystore',
  label: 'my store',
  backend: 'other',
  capabilities: ['count'],
  supported: () => true,
  async open(name) {
    let docs = databases.get(name);
    if (!docs) databases.set(name, (docs = new Map()));
    let open = true;
    const live = () => {
      if (!open) throw new Error(\`\${name} is closed\`);
      return docs;
    };
    return {
      // get must return exactly what put was given, so keep a copy.
      put: async (doc) => void live().set(doc._id, structuredClone(doc)),
      get: async (id) => {
        const doc = live().get(id);
        return doc === undefined ? undefined : structuredClone(doc);
      },
      count: async () => live().size,
      close: async () => {
        open = false;
      },
      destroy: async () => {
        open = false;
        databases.delete(name);
      },
    };
  },
  async destroy(name) {
    databases.delete(name);
  },
};
`;

export function initCommand(
  argv: readonly string[],
  io: CommandIo,
  cwd = process.cwd(),
): Promise<number> {
  let force: boolean;
  try {
    const flags = scanFlags(argv, { force: { kind: 'switch' } });
    if (flags.help) return Promise.resolve((io.stdout(`${USAGE}\n`), 0));
    force = flags.values.has('force');
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`init: ${e.message} (see --help)\n`);
    return Promise.resolve(2);
  }
  const files: [string, string][] = [
    [CONFIG_FILE, `${JSON.stringify(STARTER_CONFIG, null, 2)}\n`],
    [ADAPTER_FILE, STARTER_ADAPTER],
  ];
  const there = files.filter(([name]) => existsSync(join(cwd, name))).map(([name]) => name);
  if (there.length > 0 && !force) {
    io.stderr(`init: ${there.join(' and ')} already there; --force overwrites\n`);
    return Promise.resolve(2);
  }
  for (const [name, text] of files) {
    mkdirSync(dirname(join(cwd, name)), { recursive: true });
    writeFileSync(join(cwd, name), text);
    io.stdout(`wrote ${name}\n`);
  }
  io.stdout(
    'Next: replace the Map in the adapter with your store, then npx storebench check, then npx storebench sweep.\n',
  );
  return Promise.resolve(0);
}
