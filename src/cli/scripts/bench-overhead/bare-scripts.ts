/**
 * The libraries a bare page needs, each as one classic script that defines a global: fixtures/
 * (`storebenchFixtures`, so the bare page builds its documents with the harness's own generator
 * and nothing else of the harness), idb (`idb`, the package's own UMD build) and pouchdb-browser
 * (`PouchDB`, bundled from the package the adapter imports).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from '../../build/build-page.ts';
import type { BareLibrary } from './cases.ts';

/** Bundle `entry` as an IIFE that assigns its exports to the global `name`. */
async function iife(entry: string, name: string, minify: boolean): Promise<string> {
  const { build } = await import('vite');
  const out = await build({
    configFile: false,
    root: REPO_ROOT,
    logLevel: 'silent',
    // PouchDB 9's browser build still reads Node's `global`, as vite.config.ts defines it for the page.
    define: { global: 'globalThis' },
    build: {
      write: false,
      minify,
      emptyOutDir: false,
      lib: { entry, formats: ['iife'], name, fileName: name },
    },
  });
  const outputs = (Array.isArray(out) ? out : [out]) as {
    output: { type: string; code?: string }[];
  }[];
  const chunk = outputs.flatMap((o) => o.output).find((c) => c.type === 'chunk');
  if (!chunk?.code) throw new Error(`bundling ${entry} for the bare page gave no script`);
  return chunk.code;
}

const SOURCES: Record<BareLibrary, () => Promise<string>> = {
  fixtures: () => iife(join(REPO_ROOT, 'fixtures/index.ts'), 'storebenchFixtures', false),
  idb: () => readFile(join(REPO_ROOT, 'node_modules/idb/build/umd.js'), 'utf8'),
  // Minified, as the page's build is: the same package code either way.
  pouchdb: () =>
    iife(join(REPO_ROOT, 'node_modules/pouchdb-browser/lib/index.es.js'), 'PouchDB', true),
};

/** Each library's script, built once per bench run. */
export class BareScripts {
  private readonly built = new Map<BareLibrary, Promise<string>>();

  get(library: BareLibrary): Promise<string> {
    let script = this.built.get(library);
    if (!script) {
      script = SOURCES[library]();
      this.built.set(library, script);
    }
    return script;
  }
}
