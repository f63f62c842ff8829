/**
 * A config's adapter module that does not finish importing: a synchronous endless loop
 * was blamed on "top-level await, an open handle"; it is now said as what keeps an import from
 * finishing, and a module that only leaves a timer open at import has finished, so it is read.
 * The import limit is set to a second (docs/flags.md, "Time limits"): the default of 30 s is
 * hostile-inputs.slow.test.ts's to check.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, readConfig } from '../../../../src/cli/args/config-file.ts';
import { loadVocabulary } from '../../../../src/cli/build/vocabulary.ts';

const dir = mkdtempSync(join(tmpdir(), 'storebench-vocabulary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** A project whose config names one adapter module of this text. */
function project(name: string, module: string): string {
  const at = join(dir, name);
  mkdirSync(at);
  writeFileSync(
    join(at, 'storebench.config.json'),
    JSON.stringify({ adapters: ['./adapter.mts'] }),
  );
  writeFileSync(join(at, 'adapter.mts'), module);
  return at;
}

const ADAPTER = `export const loopy = {
  id: 'loopy', label: 'loopy', backend: 'other', capabilities: [],
  supported: () => true, open: async () => ({}), destroy: async () => {},
};
`;

describe('vocabulary - a module that does not finish importing', () => {
  it('a synchronous for(;;){} at import is said as an endless loop may be, not as an open handle', async () => {
    vi.stubEnv('STOREBENCH_IMPORT_TIMEOUT_MS', '1000');
    const at = project('endless', `for (;;) {}\n${ADAPTER}`);
    const e = await loadVocabulary(readConfig(undefined, at)).catch((x: unknown) => x as Error);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toBe(
      "the config's adapter modules did not finish importing within 1 s: a top-level await that never settles, an endless loop at import, or work at import that takes longer",
    );
  }, 90_000);

  it('a module that leaves a timer open at import has finished importing: its adapter is read', async () => {
    const at = project('timer', `setInterval(() => {}, 1000);\n${ADAPTER}`);
    const vocab = await loadVocabulary(readConfig(undefined, at));
    expect(vocab.user.map((u) => u.id)).toEqual(['loopy']);
    expect(vocab.adapters).toContain('loopy');
  }, 90_000);
});
