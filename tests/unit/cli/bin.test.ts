/**
 * The installed command: `storebench COMMAND` dispatches to the commands, says which exist when
 * the name is missing or wrong (exit 2), and `storebench init` writes a config and an adapter
 * that are what the other commands read, refusing to overwrite them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/cli/args/config-file.ts';
import { PROCESS_IO } from '../../../src/cli/args/command-io.ts';
import { ADAPTER_FILE, initCommand, STARTER_ADAPTER } from '../../../src/cli/commands/init.ts';

const BIN = fileURLToPath(new URL('../../../bin/storebench.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'storebench-bin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });

describe('cli - the storebench command', () => {
  it('lists the commands without one, refuses an unknown one, and runs a known one', () => {
    const none = run();
    expect(none.status).toBe(2);
    for (const c of [
      'sweep',
      'check',
      'init',
      'study',
      'compare',
      'merge',
      'export',
      'browsers',
      'serve',
      'history',
      'site',
      'calibrate',
    ])
      expect(none.stdout).toMatch(new RegExp(`^  ${c} `, 'm'));
    const unknown = run('sweeps');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(
      'storebench: unknown command "sweeps"; allowed: sweep, check, init, study, compare, merge, export, browsers, serve, history, site, calibrate\n',
    );
    const help = run('export', '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(
      /^Usage: storebench export FILE\.\.\. --format csv\|tsv\|xlsx\|json\|bmf/,
    );
  });

  it('init writes a config and an adapter the config names, and will not overwrite them', async () => {
    expect(await initCommand([], PROCESS_IO, dir)).toBe(0);
    const config = readConfig(undefined, dir);
    expect(config?.adapters.map((a) => a.path)).toEqual([join(dir, ADAPTER_FILE)]);
    expect(readFileSync(join(dir, ADAPTER_FILE), 'utf8')).toBe(STARTER_ADAPTER);
    expect(await initCommand([], PROCESS_IO, dir)).toBe(2);
    expect(await initCommand(['--force'], PROCESS_IO, dir)).toBe(0);
    expect(await initCommand(['--forse'], PROCESS_IO, dir)).toBe(2);
    // What init wrote is a config whose adapter the CLI takes: check --help reads it without complaint.
    const check = run('check', '--help');
    expect(check.status).toBe(0);
    expect(existsSync(join(dir, 'storebench.config.json'))).toBe(true);
  });

  it('the adapter init writes type-checks against the types the package exports', () => {
    const tsc = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
    // The package's types entry is src/index.ts, compiled into types/ at pack time: mapped by path here.
    const index = fileURLToPath(new URL('../../../src/index.ts', import.meta.url));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'es2022',
          lib: ['es2022', 'dom'],
          module: 'esnext',
          moduleResolution: 'bundler',
          allowImportingTsExtensions: true,
          types: [],
          paths: { storebench: [index] },
        },
        files: [ADAPTER_FILE],
      }),
    );
    const ok = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    expect(ok.status, ok.stdout).toBe(0);
    writeFileSync(
      join(dir, ADAPTER_FILE),
      STARTER_ADAPTER.replace("backend: 'other'", "backend: 'disk'"),
    );
    const bad = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    expect(bad.stdout).toContain(`error TS2322: Type '"disk"' is not assignable to type`);
  });
});
