/**
 * `storebench init [--force]`: the two files a store's repository needs to run storebench: a
 * storebench.config.json and an adapter skeleton (bench/storebench-adapter.ts) that keeps the
 * contract as written, a Map in the page, for its author to turn into calls of their store.
 * Refuses to overwrite either unless --force.
 *
 * It writes only regular files that it creates or replaces inside the project: everything is
 * checked before anything is written (files/project-files.ts), so a refusal leaves the folder as it was,
 * and each file goes through a new temporary file renamed into place, so a link is never
 * written through and a FIFO never opened.
 *
 * Exit codes: 0 written; 1 a write failed after the checks (the line says what was written);
 * 2 bad flags, a file there already, something other than a regular file where init writes, or
 * a folder that takes no new files.
 */
import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CommandIo } from '../args/command-io.ts';
import { CONFIG_FILE } from '../args/config-file.ts';
import { ArgsError, scanFlags } from '../args/flags.ts';
import { OutputError, writeAtomically } from '../files/output.ts';
import { projectFilesProblem, systemReason } from '../files/project-files.ts';

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

init writes only regular files inside this folder: a symbolic link, a folder, a FIFO or a device
where a file goes (or a link named bench) is refused, with --force too, and nothing is written.

Exit codes: 0 written; 1 a write failed after the checks; 2 bad flags, a file is there already
(without --force), something other than a regular file where init writes, or a folder that takes
no new files.`;

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
  // The adapter first: a config is never left naming an adapter that is not there.
  const files: [string, string][] = [
    [ADAPTER_FILE, STARTER_ADAPTER],
    [CONFIG_FILE, `${JSON.stringify(STARTER_CONFIG, null, 2)}\n`],
  ];
  const found = projectFilesProblem(
    cwd,
    files.map(([name]) => name),
  );
  const problem =
    'problem' in found
      ? found.problem
      : found.there.length > 0 && !force
        ? `${found.there.join(' and ')} already there; --force overwrites`
        : null;
  if (problem !== null) {
    io.stderr(`init: ${problem}\n`);
    return Promise.resolve(2);
  }
  const wrote: string[] = [];
  for (const [name, text] of files) {
    try {
      if (name === ADAPTER_FILE) makeFolderOf(cwd, name);
      writeAtomically(join(cwd, name), text);
      wrote.push(name);
    } catch (e) {
      // Only a change since the checks (a disk that filled up, a link put there) gets here.
      const before = wrote.length > 0 ? `wrote ${wrote.join(' and ')}, then ` : '';
      const why = e instanceof OutputError ? e.message : systemReason(e);
      io.stderr(`init: ${before}cannot write ${name}: ${why}\n`);
      return Promise.resolve(1);
    }
  }
  for (const name of wrote) io.stdout(`wrote ${name}\n`);
  io.stdout(
    'Next: replace the Map in the adapter with your store, then npx storebench check, then npx storebench sweep.\n',
  );
  return Promise.resolve(0);
}

/** The adapter's folder (bench/), made when it is not there; projectFilesProblem has checked what is. */
function makeFolderOf(cwd: string, file: string): void {
  const folder = dirname(join(cwd, file));
  try {
    mkdirSync(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  // A link put there since the check would take the adapter out of the project.
  if (!lstatSync(folder).isDirectory())
    throw Object.assign(new Error(`${folder} is no longer a folder`), { code: 'ENOTDIR' });
}
