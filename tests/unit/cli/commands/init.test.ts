/**
 * `storebench init` writes only regular files it creates or replaces inside the project (issue
 * 54, faults 2 to 4): a link, a FIFO, a folder or a device where it would write, and a folder that
 * takes no new files, are refused with exit 2 and one line saying what is there, and a refusal
 * leaves the project and everything outside it exactly as they were (a snapshot before and after).
 * Writing a new project is tested with the command itself (bin.test.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ADAPTER_FILE, initCommand, STARTER_ADAPTER } from '../../../../src/cli/commands/init.ts';

const BIN = fileURLToPath(new URL('../../../../bin/storebench.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'storebench-init-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Outside every project here: what init must never write, create or replace. */
const outside = join(dir, 'outside');
mkdirSync(outside);

let projects = 0;
/** A new project folder. */
function project(): string {
  const at = join(dir, `project-${++projects}`);
  mkdirSync(at);
  return at;
}

/** Every entry under `root`, as lstat sees it: a file's content, a link's target, a folder. */
function snapshot(root: string): Record<string, string> {
  const seen: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = join(root, rel, name);
      const key = join(rel, name);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) seen[key] = `link to ${readlinkSync(path)}`;
      else if (stat.isDirectory()) {
        seen[key] = 'folder';
        walk(key);
      } else if (stat.isFile()) seen[key] = `file: ${readFileSync(path, 'utf8')}`;
      else seen[key] = stat.isFIFO() ? 'fifo' : 'other';
    }
  };
  walk('');
  return seen;
}

/** init in `cwd` as a command in this process: its exit code and what it printed. */
async function init(cwd: string, ...argv: string[]) {
  const said = { stdout: '', stderr: '' };
  const code = await initCommand(
    argv,
    { stdout: (t) => (said.stdout += t), stderr: (t) => (said.stderr += t) },
    cwd,
  );
  return { code, ...said };
}

/** A refusal: exit 2, one line on stderr that says `what`, nothing on stdout. */
function expectRefused(run: Awaited<ReturnType<typeof init>>, what: RegExp): void {
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^init: [^\n]+\n$/);
  expect(run.stderr).toMatch(what);
  expect(run.stderr).not.toContain('a bug');
}

describe('init - only regular files inside the project', () => {
  it('with --force, a link at the adapter or the config leaves the file outside untouched', async () => {
    for (const name of [ADAPTER_FILE, 'storebench.config.json']) {
      const at = project();
      mkdirSync(join(at, 'bench'), { recursive: true });
      const target = join(outside, `target-of-${name.replace(/\W/g, '-')}`);
      writeFileSync(target, 'keep me');
      symlinkSync(target, join(at, name));
      const before = { at: snapshot(at), outside: snapshot(outside) };
      expectRefused(
        await init(at, '--force'),
        new RegExp(`^init: ${name.replace('.', '\\.')} is a symbolic link \\(to ${target}\\): `),
      );
      expect({ at: snapshot(at), outside: snapshot(outside) }).toEqual(before);
    }
  });

  it('a dangling config link is refused and its target never created', async () => {
    const at = project();
    const target = join(outside, 'made-by-a-dangling-link.json');
    symlinkSync(target, join(at, 'storebench.config.json'));
    const before = { at: snapshot(at), outside: snapshot(outside) };
    for (const argv of [[], ['--force']]) {
      expectRefused(
        await init(at, ...argv),
        /^init: storebench\.config\.json is a symbolic link \(to .*made-by-a-dangling-link\.json\): only a regular file there is replaced/,
      );
      expect({ at: snapshot(at), outside: snapshot(outside) }).toEqual(before);
    }
  });

  it('a bench/ that is a link to a folder outside receives nothing', async () => {
    const at = project();
    const elsewhere = join(outside, 'linked-bench');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(at, 'bench'));
    const before = { at: snapshot(at), outside: snapshot(outside) };
    expectRefused(
      await init(at, '--force'),
      /^init: bench is a symbolic link \(to .*linked-bench\), where a folder of the project holds bench\/storebench-adapter\.ts: files are written inside the project, never through a link;/,
    );
    expect({ at: snapshot(at), outside: snapshot(outside) }).toEqual(before);
  });

  it('with --force, a file hard-linked from outside is replaced in the project, not written through', async () => {
    const at = project();
    const shared = join(outside, 'shared-config.json');
    writeFileSync(shared, 'keep me');
    linkSync(shared, join(at, 'storebench.config.json'));
    expect((await init(at, '--force')).code).toBe(0);
    expect(readFileSync(shared, 'utf8')).toBe('keep me');
    expect(readFileSync(join(at, ADAPTER_FILE), 'utf8')).toBe(STARTER_ADAPTER);
    expect(JSON.parse(readFileSync(join(at, 'storebench.config.json'), 'utf8'))).toMatchObject({
      adapters: ['./bench/storebench-adapter.ts'],
    });
  });

  it('a FIFO named storebench.config.json is refused at once, never opened, with --force', () => {
    const at = project();
    execFileSync('mkfifo', [join(at, 'storebench.config.json')]);
    const before = snapshot(at);
    // A child process with a time limit: a write that opened the FIFO would block this one for good.
    const run = spawnSync(process.execPath, [BIN, 'init', '--force'], {
      cwd: at,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'init: storebench.config.json is a named pipe (FIFO): only a regular file there is replaced, never a link, a folder, a FIFO or a device; move it away, or run in another folder\n',
    );
    expect(snapshot(at)).toEqual(before);
  });

  it('a file named bench, a dangling config link, a config that is a folder: exit 2 saying what is there, never a bug', async () => {
    const cases: [(at: string) => void, string[], RegExp][] = [
      [
        (at) => writeFileSync(join(at, 'bench'), 'mine'),
        [],
        /^init: bench is a regular file, where a folder holds bench\/storebench-adapter\.ts; move it away/,
      ],
      [
        (at) =>
          symlinkSync(join(dir, 'no-such-folder', 'x.json'), join(at, 'storebench.config.json')),
        [],
        /^init: storebench\.config\.json is a symbolic link \(to .*x\.json\)/,
      ],
      [
        (at) => mkdirSync(join(at, 'storebench.config.json')),
        ['--force'],
        /^init: storebench\.config\.json is a folder: only a regular file there is replaced/,
      ],
      [
        (at) => mkdirSync(join(at, ADAPTER_FILE), { recursive: true }),
        ['--force'],
        /^init: bench\/storebench-adapter\.ts is a folder: /,
      ],
      [
        (at) => symlinkSync('/dev/null', join(at, 'storebench.config.json')),
        ['--force'],
        /^init: storebench\.config\.json is a symbolic link \(to \/dev\/null\)/,
      ],
    ];
    for (const [make, argv, what] of cases) {
      const at = project();
      make(at);
      const before = snapshot(at);
      expectRefused(await init(at, ...argv), what);
      expect(snapshot(at)).toEqual(before);
    }
  });

  it('run in /proc or /sys, exit 2 with the reason, never a bug', async () => {
    // /proc and /sys take no new file even for root, whom permission bits do not stop (tests may run as root).
    expectRefused(
      await init('/proc'),
      /^init: cannot create files in \/proc: no file can be made there \(ENOENT\); run in a folder you can write\n$/,
    );
    expectRefused(
      await init('/sys', '--force'),
      /^init: cannot create files in \/sys: (permission denied \(EACCES\)|the file system is read-only \(EROFS\)); run in a folder you can write\n$/,
    );
  });

  it('without --force, files already there are named and left as they were', async () => {
    const at = project();
    writeFileSync(join(at, 'storebench.config.json'), 'mine');
    const before = snapshot(at);
    expectRefused(
      await init(at),
      /^init: storebench\.config\.json already there; --force overwrites\n$/,
    );
    expect(snapshot(at)).toEqual(before);
  });
});
