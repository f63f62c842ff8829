// The TypeScript files of shipped code, for the tests that hold rules over all of it.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every folder of shipped code: the page, the CLI, the stores, the suites and the documents they write. */
const SHIPPED_ROOTS = ['src', 'suites', 'fixtures'];

/** Every .ts file under `dir`, or under every shipped root. */
export function shippedSources(dir?: string): string[] {
  if (dir === undefined) return SHIPPED_ROOTS.flatMap((root) => shippedSources(root));
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? shippedSources(path) : path.endsWith('.ts') ? [path] : [];
  });
}
