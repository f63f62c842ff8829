import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The README's "Add your own adapter" example is src/adapters/web-storage/session-storage.ts, word for word,
 * so the example is type-checked with the project and run by tests/e2e/example-adapter.spec.ts.
 */
const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

describe('readme - adapter example', () => {
  it('shows src/adapters/web-storage/session-storage.ts exactly', () => {
    const readme = read('README.md');
    const section = readme.slice(readme.indexOf('## Add your own adapter'));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBe(read('src/adapters/web-storage/session-storage.ts'));
  });
});
