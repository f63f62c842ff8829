import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../../src/cli/build/build-page.ts';
import { removeStalePartials } from '../../../../src/cli/build/npm-install.ts';
import {
  installedPackages,
  folderSource,
  gitCommit,
  npmSource,
  variantCache,
  VariantSourceError,
} from '../../../../src/cli/build/variant-sources.ts';
import { parseVariant, type Wraps } from '../../../../src/core/plan/variant.ts';

/** The sweep's variant sources (src/cli/build/variant-sources.ts) on real folders, and on npm where it can be reached. */

const WRAPS: Record<string, Wraps> = {
  'pouchdb-idb': {
    packages: ['pouchdb-browser', 'pouchdb-find'],
    before: { version: '6.2.0', packages: ['pouchdb'] },
  },
  idb: { packages: ['idb'] },
};
const variant = <K extends 'version' | 'folder'>(id: string) =>
  parseVariant(id, Object.keys(WRAPS), WRAPS) as ReturnType<typeof parseVariant> & {
    spec: { kind: K };
  };

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'storebench-variant-test-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function writePackage(dir: string, pkg: Record<string, unknown>, files: string[] = []): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
  for (const f of files) {
    mkdirSync(join(dir, f, '..'), { recursive: true });
    writeFileSync(join(dir, f), '');
  }
}

const git = (dir: string, ...args: string[]) =>
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
    encoding: 'utf8',
  }).trim();

describe('variant sources - a local folder', () => {
  it('takes the folder of the wrapped package, its companion from a sibling folder, and their commits', () => {
    writePackage(
      join(tmp, 'packages', 'pouchdb-browser'),
      { name: 'pouchdb-browser', version: '9.1.0-dev', module: 'lib/index.es.js' },
      ['lib/index.es.js'],
    );
    writePackage(
      join(tmp, 'packages', 'pouchdb-find'),
      { name: 'pouchdb-find', version: '9.1.0-dev' },
      ['index.js'],
    );
    git(tmp, 'init', '-q');
    git(tmp, 'add', '.');
    git(tmp, 'commit', '-q', '-m', 'x');
    const head = git(tmp, 'rev-parse', 'HEAD');
    const source = folderSource(
      variant<'folder'>('pouchdb-idb@file:packages/pouchdb-browser'),
      WRAPS['pouchdb-idb'] as Wraps,
      tmp,
    );
    expect(source).toMatchObject({
      id: 'pouchdb-idb@file:packages/pouchdb-browser',
      version: '9.1.0-dev',
      what: 'pouchdb-browser 9.1.0-dev from packages/pouchdb-browser',
      legacy: false,
      dirs: [join(tmp, 'packages', 'pouchdb-browser'), join(tmp, 'packages', 'pouchdb-find')],
      facts: {
        package: 'pouchdb-browser',
        version: '9.1.0-dev',
        source: 'folder',
        folder: join(tmp, 'packages', 'pouchdb-browser'),
        commit: head,
        'pouchdb-find': `sibling folder ${join(tmp, 'packages', 'pouchdb-find')}, 9.1.0-dev, commit ${head}`,
      },
    });
    // A change in the work tree marks the commit dirty.
    writeFileSync(join(tmp, 'packages', 'pouchdb-browser', 'lib', 'index.es.js'), 'changed');
    expect(gitCommit(join(tmp, 'packages', 'pouchdb-browser'))).toBe(`${head}-dirty`);
  });

  it('takes a companion from this project when there is no sibling, and says so; a folder outside git says that too', () => {
    writePackage(join(tmp, 'pouchdb-browser'), { name: 'pouchdb-browser', version: '9.0.0' }, [
      'index.js',
    ]);
    const source = folderSource(
      variant<'folder'>(`pouchdb-idb@file:${join(tmp, 'pouchdb-browser')}`),
      WRAPS['pouchdb-idb'] as Wraps,
      REPO_ROOT,
    );
    expect(source.dirs).toEqual([
      join(tmp, 'pouchdb-browser'),
      join(REPO_ROOT, 'node_modules', 'pouchdb-find'),
    ]);
    expect(source.facts.commit).toBe('not a git folder');
    expect(source.facts['pouchdb-find']).toBe(
      `installed 9.0.0 (this project's node_modules; no sibling folder ${join(tmp, 'pouchdb-find')})`,
    );
    expect(source.local).toEqual([join(tmp, 'pouchdb-browser')]);
  });

  const refused: [string, (dir: string) => void, string, string][] = [
    ['a folder that does not exist', () => {}, 'x', `x: no such folder (${'{tmp}'}/x)`],
    [
      'a folder without a package.json',
      (d) => mkdirSync(join(d, 'x')),
      'x',
      'x has no package.json; give the folder of the package itself',
    ],
    [
      'a folder of another package',
      (d) => writePackage(join(d, 'x'), { name: 'foo', version: '1.0.0' }),
      'x',
      'x holds package "foo", not idb',
    ],
    [
      'a package whose build is missing',
      (d) =>
        writePackage(join(d, 'x'), { name: 'idb', version: '8.0.4', module: './build/index.js' }),
      'x',
      'x has no "./build/index.js" (its package.json\'s module): build the package first',
    ],
  ];
  for (const [what, make, path, message] of refused) {
    it(`refuses ${what} in one line`, () => {
      make(tmp);
      const run = () =>
        folderSource(variant<'folder'>(`idb@file:${path}`), WRAPS.idb as Wraps, tmp);
      expect(run).toThrow(VariantSourceError);
      expect(run).toThrow(message.replace('{tmp}', tmp));
    });
  }

  // What a package.json may say that would bundle a file outside the folder, or nothing at all:
  // each is refused before the build, naming the field, and no file outside is read.
  const idb = (d: string, pkg: Record<string, unknown>, files: string[] = []) =>
    writePackage(join(d, 'x'), { name: 'idb', version: '9.9.9', ...pkg }, files);
  const hostile: [string, (dir: string) => void, string][] = [
    [
      'a main outside the folder',
      (d) => idb(d, { main: '../../../../../../../../etc/passwd' }),
      'x: its package.json\'s main, "../../../../../../../../etc/passwd", lies outside the folder; a local build\'s entries must be files inside it',
    ],
    [
      'an absolute main',
      (d) => idb(d, { main: '/etc/passwd' }),
      'x: its package.json\'s main, "/etc/passwd", lies outside the folder',
    ],
    [
      'a module outside while main is inside',
      (d) => idb(d, { main: 'index.js', module: '../y.js' }, ['index.js']),
      'x: its package.json\'s module, "../y.js", lies outside the folder',
    ],
    [
      'neither main nor module, and no index.js',
      (d) => idb(d, {}),
      'x: its package.json names no entry (exports, browser, module or main) and the folder has no index.js: build the package first',
    ],
    [
      'an exports map whose "." leaves the folder',
      (d) => idb(d, { exports: { '.': { import: '../../etc/passwd' } } }, ['index.js']),
      'x: its package.json\'s exports["."]["import"], "../../etc/passwd", lies outside the folder',
    ],
    [
      'an exports subpath that leaves the folder',
      (d) =>
        idb(d, { exports: { '.': './index.js', './secret': '../../etc/passwd' } }, ['index.js']),
      'x: its package.json\'s exports["./secret"], "../../etc/passwd", lies outside the folder',
    ],
    [
      'an exports map with no entry a browser imports',
      (d) => idb(d, { exports: { '.': { require: './index.cjs' } } }, ['index.cjs']),
      'x: its package.json\'s exports gives the package itself (".") no entry for a browser\'s import',
    ],
    [
      'an exports entry that is not built',
      (d) => idb(d, { exports: { import: './dist/index.js' } }),
      'x has no "./dist/index.js" (its package.json\'s exports["import"]): build the package first',
    ],
    [
      'a browser map that swaps in a file outside',
      (d) =>
        idb(d, { main: 'index.js', browser: { './index.js': '../../etc/passwd' } }, ['index.js']),
      'x: its package.json\'s browser["./index.js"], "../../etc/passwd", lies outside the folder',
    ],
    [
      'an entry that is a symlink to a file outside',
      (d) => {
        idb(d, { main: 'index.js' });
        writeFileSync(join(d, 'outside.js'), 'export const secret = 1;');
        symlinkSync(join(d, 'outside.js'), join(d, 'x', 'index.js'));
      },
      'x: its package.json\'s main, "index.js", lies outside the folder (through a symlink)',
    ],
    [
      'a regular file instead of a folder',
      (d) => writeFileSync(join(d, 'x'), '{}'),
      'x is a file, not a folder',
    ],
    [
      'a package.json that is not JSON',
      (d) => {
        mkdirSync(join(d, 'x'));
        writeFileSync(join(d, 'x', 'package.json'), '{"name": "idb",');
      },
      'x/package.json is not JSON (at line 1, column 16)',
    ],
    [
      'a package.json that is a symlink to a file outside, without a word of that file',
      (d) => {
        mkdirSync(join(d, 'x'));
        symlinkSync('/etc/passwd', join(d, 'x', 'package.json'));
      },
      "x/package.json is a symlink to a file outside the folder; a local build's package.json must be its own",
    ],
    [
      'a package.json that is JSON but not an object',
      (d) => {
        mkdirSync(join(d, 'x'));
        writeFileSync(join(d, 'x', 'package.json'), 'null');
      },
      'x/package.json is not a JSON object',
    ],
    [
      'a huge package.json, without reading it',
      (d) => {
        mkdirSync(join(d, 'x'));
        writeFileSync(
          join(d, 'x', 'package.json'),
          `{"name":"idb","pad":"${'a'.repeat(2_000_000)}"}`,
        );
      },
      "x/package.json is 2000023 bytes, more than a package's (1048576 at most)",
    ],
  ];
  for (const [what, make, message] of hostile) {
    it(`refuses ${what}, before any build`, () => {
      make(tmp);
      const run = () => folderSource(variant<'folder'>('idb@file:x'), WRAPS.idb as Wraps, tmp);
      expect(run).toThrow(VariantSourceError);
      expect(run).toThrow(message);
    });
  }

  it('takes a folder that is a symlink, an exports map inside it, and a browser build of its own', () => {
    idb(tmp, { exports: { '.': { node: './node.js', browser: './browser.js' } } }, [
      'browser.js',
      'node.js',
    ]);
    symlinkSync(join(tmp, 'x'), join(tmp, 'linked'));
    const source = folderSource(variant<'folder'>('idb@file:linked'), WRAPS.idb as Wraps, tmp);
    expect(source).toMatchObject({ version: '9.9.9', dirs: [join(tmp, 'linked')] });
  });

  it('cuts a long folder name in its message to about 200 characters, with its length, and says it cannot be read', () => {
    const long = 'd'.repeat(100_000);
    const run = () => folderSource(variant<'folder'>(`idb@file:${long}`), WRAPS.idb as Wraps, tmp);
    expect(run).toThrow(VariantSourceError);
    try {
      run();
    } catch (e) {
      const message = (e as Error).message;
      expect(message.length).toBeLessThan(700);
      expect(message).toContain('… (100000 characters)');
      expect(message).toMatch(/: cannot be read here \(ENAMETOOLONG\)$/);
    }
  });

  it('reads a path relative to the working directory', () => {
    writePackage(join(tmp, 'idb'), { name: 'idb', version: '8.0.4' }, ['index.js']);
    expect(
      folderSource(
        variant<'folder'>(`idb@file:${relative(REPO_ROOT, join(tmp, 'idb'))}`),
        WRAPS.idb as Wraps,
        REPO_ROOT,
      ).facts.folder,
    ).toBe(join(tmp, 'idb'));
  });
});

describe('variant sources - npm', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('keeps its cache under XDG_CACHE_HOME, or ~/.cache', () => {
    expect(variantCache({ XDG_CACHE_HOME: '/srv/cache' })).toBe('/srv/cache/storebench/variants');
    expect(variantCache({})).toMatch(/\/\.cache\/storebench\/variants$/);
  });

  it('reuses a complete cache folder without asking the registry, naming the build by its integrity', async () => {
    const dir = join(tmp, 'idb@8.0.4');
    writePackage(join(dir, 'node_modules', 'idb'), { name: 'idb', version: '8.0.4' });
    writeFileSync(
      join(dir, 'package-lock.json'),
      JSON.stringify({
        packages: { 'node_modules/idb': { version: '8.0.4', integrity: 'sha512-recorded' } },
      }),
    );
    writeFileSync(join(dir, 'storebench-variant.json'), '{}');
    process.env.npm_config_registry = 'http://127.0.0.1:9/';
    const notes: string[] = [];
    const source = await npmSource(variant<'version'>('idb@8.0.4'), WRAPS.idb as Wraps, tmp, (l) =>
      notes.push(l),
    );
    expect(notes).toEqual([]);
    expect(source).toMatchObject({
      dirs: [join(dir, 'node_modules', 'idb')],
      what: 'idb 8.0.4',
      facts: {
        package: 'idb',
        version: '8.0.4',
        integrity: 'sha512-recorded',
        source: 'npm http://127.0.0.1:9/',
      },
    });
  });

  it('removes the partial folders of installs whose sweep has ended, and keeps a live one', async () => {
    // A pid that was a real process and has ended: a child that exits at once.
    const dead = await new Promise<number>((ok) => {
      const child = spawn('true');
      child.on('exit', () => ok(child.pid as number));
    });
    const stale = `idb@8.0.1.partial-${dead}-abc`;
    const live = `idb@8.0.1.partial-${process.ppid}-def`;
    for (const name of [stale, live, 'idb@8.0.4'])
      mkdirSync(join(tmp, name, 'node_modules'), { recursive: true });
    expect(removeStalePartials(tmp)).toEqual([stale]);
    expect(execFileSync('ls', ['-A', tmp], { encoding: 'utf8' }).trim().split('\n').sort()).toEqual(
      ['idb@8.0.1.partial-' + process.ppid + '-def', 'idb@8.0.4'].sort(),
    );
  });

  it('says which registry it asks before asking, names an unreachable one and the error code, and leaves no cache folder behind', async () => {
    process.env.npm_config_registry = 'http://127.0.0.1:9/';
    const notes: string[] = [];
    await expect(
      npmSource(variant<'version'>('idb@8.0.4'), WRAPS.idb as Wraps, tmp, (l) => notes.push(l)),
    ).rejects.toThrow(
      /^the npm registry http:\/\/127\.0\.0\.1:9\/ could not be reached \(ECONNREFUSED\) while looking up idb@8\.0\.4$/,
    );
    expect(notes).toEqual(['looking up idb@8.0.4 on http://127.0.0.1:9/']);
    expect(execFileSync('ls', ['-A', tmp], { encoding: 'utf8' })).toBe('');
  }, 60_000);
});

/** Whether npm's registry answers here: the tests that need it say so in their names. */
const reachable = await new Promise<boolean>((ok) => {
  try {
    ok(
      execFileSync('npm', ['view', 'idb', 'name', '--loglevel=error'], {
        encoding: 'utf8',
        timeout: 30_000,
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() === 'idb',
    );
  } catch {
    ok(false);
  }
});

describe.skipIf(!reachable)('variant sources - npm (needs the registry)', () => {
  it('a version npm does not have (needs the registry): says so, and names the latest', async () => {
    const latest = execFileSync('npm', ['view', 'idb', 'dist-tags.latest', '--loglevel=error'], {
      encoding: 'utf8',
    }).trim();
    await expect(
      npmSource(variant<'version'>('idb@0.0.999'), WRAPS.idb as Wraps, tmp, () => {}),
    ).rejects.toThrow(`npm has no version 0.0.999 of idb; its latest is ${latest}`);
  }, 60_000);

  it('a companion released without that version (needs the registry) is named', async () => {
    // pouchdb-browser 7.2.1 exists; pouchdb-adapter-indexeddb joined PouchDB's releases at 7.2.2.
    const indexeddb: Wraps = {
      packages: ['pouchdb-browser', 'pouchdb-adapter-indexeddb', 'pouchdb-find'],
    };
    const v = parseVariant('pouchdb-indexeddb@7.2.1', ['pouchdb-indexeddb'], {
      'pouchdb-indexeddb': indexeddb,
    }) as ReturnType<typeof variant<'version'>>;
    await expect(npmSource(v, indexeddb, tmp, () => {})).rejects.toThrow(
      /^npm has no version 7\.2\.1 of pouchdb-adapter-indexeddb; its latest is \d+\.\d+\.\d+$/,
    );
    expect(execFileSync('ls', ['-A', tmp], { encoding: 'utf8' })).toBe('');
  }, 60_000);
});

describe('variant sources - what a plain run records', () => {
  it('the package and version each plain store wraps, as installed; none for a store that wraps none', () => {
    const vocab = {
      adapters: ['idb', 'memory'],
      wraps: { idb: { packages: ['idb'] } },
    } as unknown as Parameters<typeof installedPackages>[1];
    const installed = JSON.parse(
      execFileSync('node', ['-p', "JSON.stringify(require('idb/package.json'))"], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      }),
    ) as { version: string };
    expect(installedPackages(['idb', 'memory', 'idb@8.0.4'], vocab)).toEqual({
      idb: { package: 'idb', version: installed.version },
    });
  });
});
