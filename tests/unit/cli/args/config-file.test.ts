/**
 * storebench.config.json: its published schema is what its one definition generates, every sweep
 * flag has its key (made from the flag definitions, so a flag added later has one too), a config
 * is read against that schema with the JSON path and what is allowed in every refusal, and its
 * keys become flags that the command line overrides.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ConfigError,
  configArgsError,
  readConfig,
  withConfigFlags,
} from '../../../../src/cli/args/config-file.ts';
import {
  CONFIG_SCHEMA_PATH,
  publishedConfigSchemaText,
  sweepKeysSchema,
} from '../../../../src/cli/args/config-schema.ts';
import { ArgsError } from '../../../../src/cli/args/flags.ts';
import { parseSweepArgs } from '../../../../src/cli/commands/sweep/args.ts';
import { NOT_IN_CONFIG, SWEEP_FLAGS } from '../../../../src/cli/args/sweep-flags.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'storebench-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, data: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
}

function refusal(data: unknown): string {
  write('storebench.config.json', data);
  try {
    readConfig(undefined, dir);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected the config to be refused');
}

describe('config - schema', () => {
  it('the published file is what the one definition generates (npm run schema)', () => {
    expect(readFileSync(join(ROOT, CONFIG_SCHEMA_PATH), 'utf8')).toBe(publishedConfigSchemaText());
  });

  it('every sweep flag but --config has a key of its name in the published schema', () => {
    const published = JSON.parse(readFileSync(join(ROOT, CONFIG_SCHEMA_PATH), 'utf8')) as {
      properties: { sweep: { properties: Record<string, unknown> } };
    };
    const keys = Object.keys(published.properties.sweep.properties).sort();
    const flags = Object.keys(SWEEP_FLAGS)
      .filter((f) => !NOT_IN_CONFIG.includes(f))
      .sort();
    expect(keys).toEqual(flags);
    expect(flags.length).toBeGreaterThan(25);
  });

  it('a flag added to the definitions gets its key, typed by its kind', () => {
    const schema = sweepKeysSchema({ ...SWEEP_FLAGS, 'new-flag': { kind: 'value' } });
    expect(schema.properties['new-flag']).toMatchObject({ type: 'string' });
    expect(schema.properties.worker).toMatchObject({ type: 'boolean' });
  });
});

describe('config - reading', () => {
  it('is not required: without --config and without the file, there is none', () => {
    const empty = mkdtempSync(join(dir, 'empty-'));
    expect(readConfig(undefined, empty)).toBeNull();
    expect(() => readConfig('nope.json', empty)).toThrow('--config: nope.json: no such file');
  });

  it('resolves adapter modules against its own folder and turns keys into flag text', () => {
    mkdirSync(join(dir, 'bench'), { recursive: true });
    write('bench/a.ts', 'export {};');
    const path = write('sub.json', {
      adapters: ['./bench/a.ts'],
      sweep: {
        browsers: ['chromium', 'firefox'],
        sizes: [100, 1000],
        warmup: 0,
        worker: true,
        manual: false,
        auto: 'ci:1%',
      },
    });
    const config = readConfig(path, '/');
    expect(config?.adapters).toEqual([
      { path: join(dir, 'bench', 'a.ts'), written: './bench/a.ts' },
    ]);
    expect(Object.fromEntries(config?.sweep ?? [])).toEqual({
      browsers: 'chromium,firefox',
      sizes: '100,1000',
      warmup: '0',
      worker: true,
      auto: 'ci:1%',
    });
  });

  it('refuses an unknown key, a wrong type, a missing module and bad JSON, with the JSON path', () => {
    expect(refusal({ sweep: { budgte: '2m' } })).toMatch(
      /^storebench\.config\.json: \$\.sweep\.budgte: unknown key; allowed: browsers, suites, .*budget/,
    );
    expect(refusal({ adapters: './x.ts' })).toBe(
      'storebench.config.json: $.adapters: expected an array, got "./x.ts"',
    );
    expect(refusal({ sweep: { worker: 'yes' } })).toBe(
      'storebench.config.json: $.sweep.worker: expected true or false, got "yes"',
    );
    expect(refusal({ sweep: { warmup: -1 } })).toMatch(
      /^storebench\.config\.json: \$\.sweep\.warmup: /,
    );
    expect(refusal({ adaptors: [] })).toMatch(
      /\$\.adaptors: unknown key; allowed: \$schema, adapters, sweep$/,
    );
    expect(refusal({ adapters: ['./missing.ts'] })).toMatch(
      /^storebench\.config\.json: \$\.adapters\[0\]: \.\/missing\.ts is no file/,
    );
    expect(refusal('{ "sweep": ')).toBe('storebench.config.json: not JSON (at line 1, column 12)');
  });
});

describe('config - with the command line', () => {
  const config = (sweep: Record<string, string | true>) => ({
    shown: 'storebench.config.json',
    path: join(dir, 'storebench.config.json'),
    dir,
    adapters: [],
    sweep: new Map(Object.entries(sweep)),
  });
  const vocab = { suites: ['insert', 'read'], adapters: ['memory', 'idb'], fixtures: ['person'] };

  it('adds the keys the command line does not give; a flag given overrides its key', () => {
    const merged = withConfigFlags(
      ['--budget', '30s'],
      config({ budget: '2m', suites: 'read', worker: true }),
      SWEEP_FLAGS,
    );
    expect(merged.argv).toEqual(['--budget', '30s', '--suites=read', '--worker']);
    expect([...merged.fromConfig]).toEqual(['suites', 'worker']);
    const args = parseSweepArgs(merged.argv, vocab, ['chromium']);
    expect(args.plan.budgetMs).toBe(30_000);
    expect(args.plan.suites).toEqual(['read']);
  });

  it('a flag that stands for a choice drops the keys of the other choices: --ab over adapters, --iterations over budget', () => {
    const merged = withConfigFlags(
      ['--ab', 'memory,idb', '--iterations', '3'],
      config({ adapters: 'memory', budget: '2m', baseline: 'b.json', browsers: 'chromium' }),
      SWEEP_FLAGS,
    );
    expect(merged.argv).toEqual(['--ab', 'memory,idb', '--iterations', '3', '--browsers=chromium']);
  });

  it("--budget auto keeps the config's budget-max, a fixed --budget drops it, and --budget-max drops its budget", () => {
    const cfg = config({ 'budget-max': '5m', budget: 'auto', ab: 'memory,idb' });
    const auto = withConfigFlags(['--budget', 'auto'], cfg, SWEEP_FLAGS);
    expect(auto.argv).toEqual(['--budget', 'auto', '--budget-max=5m', '--ab=memory,idb']);
    expect(parseSweepArgs(auto.argv, vocab, ['chromium']).sizing?.maxMs).toBe(300_000);
    const fixed = withConfigFlags(['--budget', '4m'], cfg, SWEEP_FLAGS);
    expect(fixed.argv).toEqual(['--budget', '4m', '--ab=memory,idb']);
    expect(parseSweepArgs(fixed.argv, vocab, ['chromium']).sizing).toBeNull();
    const capped = withConfigFlags(
      ['--budget-max', '2m'],
      config({ budget: '4m', ab: 'memory,idb' }),
      SWEEP_FLAGS,
    );
    expect(capped.argv).toEqual(['--budget-max', '2m', '--ab=memory,idb']);
    expect(parseSweepArgs(capped.argv, vocab, ['chromium']).sizing?.maxMs).toBe(120_000);
  });

  it('a bad value from the config is said as its key, not as a flag nobody typed', () => {
    const merged = withConfigFlags([], config({ sizes: '0' }), SWEEP_FLAGS);
    let message = '';
    try {
      parseSweepArgs(merged.argv, vocab, ['chromium']);
    } catch (e) {
      message = configArgsError(e as ArgsError, config({ sizes: '0' }), merged.fromConfig).message;
    }
    expect(message).toMatch(/^storebench\.config\.json: \$\.sweep\.sizes: /);
  });
});
