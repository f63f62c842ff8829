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

/**
 * What a store author asks first: how it stands against raw IndexedDB, the floor every IndexedDB
 * store is built on, and against the stores people choose between on that backend. Compared
 * with `memory` alone the findings were "memory is 157× faster", which nobody acts on.
 */
export const STARTER_PEERS = ['indexeddb-raw', 'idb', 'dexie', 'localforage-indexeddb'];

const USAGE = `Usage: storebench init [--force]

Writes ${CONFIG_FILE} (its adapters, and the plan a sweep runs: your store against
raw IndexedDB and ${STARTER_PEERS.slice(1).join(', ')}) and ${ADAPTER_FILE}, an adapter that keeps
the contract as it is (a Map in the page), its rules as comments: replace its Map with your store's
calls, then run npx storebench check, then npx storebench sweep. The guide, with a whole adapter of
a store from npm: node_modules/storebench/docs/your-store.md.

  --force   overwrite the files if they exist

Exit codes: 0 written; 2 bad flags, or a file is there already (without --force).`;

export const STARTER_CONFIG = {
  $schema: './node_modules/storebench/storebench.config.schema.json',
  adapters: [`./${ADAPTER_FILE.split('\\').join('/')}`],
  sweep: { adapters: ['mystore', ...STARTER_PEERS], suites: ['insert', 'read'], budget: '2m' },
};

export const STARTER_ADAPTER = `// The adapter between storebench and your store: the only code that knows your store's API.
// storebench check runs the contract on it (every answer compared with storebench's memory store);
// storebench sweep times it. The rules, each with why: node_modules/storebench/docs/your-store.md.
import type { Doc, StoreAdapter } from 'storebench';
// To compare releases of your store's package (mystore@1.2.3 against the one installed):
// import * as installed from 'your-store-package';
// import type { VariantBuild } from 'storebench';

// Stands in for your store: replace it with your store's own calls.
const databases = new Map<string, Map<string, Doc>>();

async function open(name: string): ReturnType<StoreAdapter['open']> {
  let docs = databases.get(name);
  if (!docs) databases.set(name, (docs = new Map()));
  let isOpen = true;
  // Rule: once close() or destroy() has run, every call rejects.
  const live = () => {
    if (!isOpen) throw new Error(\`\${name} is closed\`);
    return docs;
  };
  // On IndexedDB, rule: close the connection on versionchange (db.onversionchange = () =>
  // db.close()). The runner deletes a database while a handle may be open; a connection left
  // open blocks that delete, and the contract fails it at once.
  return {
    // Rule: get returns exactly what put was given (same fields, same order), so keep a copy.
    put: async (doc) => void live().set(doc._id, structuredClone(doc)),
    get: async (id) => {
      const doc = live().get(id);
      return doc === undefined ? undefined : structuredClone(doc);
    },
    // Rule: count is the number of documents. Declare 'count' only if your store counts natively.
    count: async () => live().size,
    // Rule: close keeps the data; a later open of the same name sees it.
    close: async () => {
      isOpen = false;
    },
    // Rule: destroy deletes everything the store made for this name (databases, keys, files).
    destroy: async () => {
      isOpen = false;
      databases.delete(name);
    },
  };
}

function myStore(id: string, label: string): StoreAdapter {
  return {
    id,
    label,
    // Where your store keeps its data: 'indexeddb', 'localstorage', 'opfs', 'websql' or 'other'.
    // The contract checks that it stores its data there and leaves none behind.
    backend: 'other',
    // Rule: declare a capability only if the handle has its methods and the store does it natively
    // (bulkWrite: bulkPut; keyRange: range; update: update, rejecting a missing id; ...).
    capabilities: ['count'],
    // true, or a one-line reason it cannot run in this browser; then open must fail.
    supported: () => true,
    open: (name) => open(name),
    // Rule: delete by name, with or without a handle open; the runner calls it after a case that hung.
    async destroy(name) {
      databases.delete(name);
    },
    // wraps: { packages: ['your-store-package'] },
    // variant: (build: VariantBuild<[typeof installed]>) =>
    //   myStore(build.id, \`my store (\${build.what})\`, async () => (await build.load())[0]),
  };
}

export const myStoreAdapter: StoreAdapter = myStore('mystore', 'my store');
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
