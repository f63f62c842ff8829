/**
 * The adapters of a config, read where storebench reads its own registries (a child process,
 * vocabulary-probe.ts): each module's exports that are StoreAdapters join the registered stores,
 * with their module and commit for the results; a module that exports none, an export that is
 * nearly one, or an id that is taken stops with the JSON path and what is allowed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../../../src/cli/args/config-file.ts';
import { loadVocabulary } from '../../../../src/cli/build/vocabulary.ts';
import { adapterProblems } from '../../../../src/core/store/adapter-shape.ts';

const dir = mkdtempSync(join(tmpdir(), 'storebench-config-adapters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const adapter = (id: string) => `export const store = {
  id: '${id}', label: 'a store', backend: 'other', capabilities: ['count'],
  supported: () => true, open: async () => ({}), destroy: async () => {},
};
export const notAnAdapter = 42;
`;

function configWith(modules: Record<string, string>): ReturnType<typeof readConfig> {
  for (const [name, text] of Object.entries(modules)) writeFileSync(join(dir, name), text);
  writeFileSync(
    join(dir, 'storebench.config.json'),
    JSON.stringify({ adapters: Object.keys(modules).map((m) => `./${m}`) }),
  );
  return readConfig(undefined, dir);
}

async function refusal(modules: Record<string, string>): Promise<string> {
  const e = await loadVocabulary(configWith(modules)).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(ConfigError);
  return (e as Error).message;
}

describe('config - adapter modules', () => {
  it('an exported adapter joins the registered stores, with its module and commit', async () => {
    execFileSync('git', ['init', '-q', dir]);
    const vocab = await loadVocabulary(configWith({ 'mine.ts': adapter('mine') }));
    expect(vocab.adapters).toContain('mine');
    expect(vocab.adapters).toContain('memory');
    expect(vocab.user).toHaveLength(1);
    expect(vocab.user[0]).toMatchObject({
      id: 'mine',
      exportName: 'store',
      module: join(dir, 'mine.ts'),
      facts: {
        module: 'mine.ts',
        config: 'storebench.config.json',
        export: 'store',
        commit: 'no commit yet',
      },
    });
  });

  it('refuses a module without an adapter, a near miss, and a taken id, naming the JSON path', async () => {
    expect(await refusal({ 'none.ts': 'export const x = 1;\n' })).toBe(
      'storebench.config.json: $.adapters[0] (./none.ts): exports no StoreAdapter (an object with id, label, backend, capabilities, supported(), open() and destroy()); its exports: x',
    );
    expect(
      await refusal({
        'ok.ts': adapter('ok'),
        'near.ts': "export default { id: 'Near One', open() {} };\n",
      }),
    ).toMatch(
      /^storebench\.config\.json: \$\.adapters\[1\] \(\.\/near\.ts\): its export default is not a StoreAdapter: id: "Near One" is not an id .*; label: not a text; backend: undefined; allowed: indexeddb, .*; capabilities: not a list; supported\(\): not a function; destroy\(\): not a function$/,
    );
    expect(await refusal({ 'taken.ts': adapter('memory') })).toBe(
      'storebench.config.json: $.adapters[0] (./taken.ts): adapter id "memory" is taken by one of storebench\'s own stores; give yours another id',
    );
    expect(await refusal({ 'throws.ts': "throw new Error('needs a browser');\n" })).toBe(
      'storebench.config.json: $.adapters[0] (./throws.ts): could not be imported in Node: needs a browser',
    );
  });

  it('says what a value lacks to be an adapter', () => {
    expect(adapterProblems(null)).toEqual(['not an object']);
    expect(
      adapterProblems({
        id: 'ok',
        label: 'x',
        backend: 'memory',
        capabilities: ['count', 'teleport'],
        supported() {},
        open() {},
        destroy() {},
      }),
    ).toEqual([
      'capabilities: unknown "teleport"; allowed: bulkWrite, getMany, keyRange, skip, count, update, bulkUpdate, remove, bulkRemove, secondaryIndex, query, mapReduce, durability, worker',
    ]);
  });
});
