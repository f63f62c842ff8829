/**
 * Hostile inputs beyond names (hostile-names.test.ts has those), numbered as a probe found them.
 * Each test ends as the promise says: bad input is refused with one line and exit 2, within
 * bounded time, and no message quotes a file the user did not name as the one in error, nor more
 * than where in it the fault is.
 */
import { spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { parseCapabilities } from '../../../src/cli/args/capabilities.ts';
import { ConfigError, readConfig } from '../../../src/cli/args/config-file.ts';
import { ArgsError } from '../../../src/cli/args/flags.ts';
import { SITE_MARKER } from '../../../src/cli/build/site.ts';
import { loadVocabulary } from '../../../src/cli/build/vocabulary.ts';
import { historyCommand } from '../../../src/cli/commands/history.ts';
import { siteCommand } from '../../../src/cli/commands/site.ts';
import { askGrid, describeOffers } from '../../../src/cli/drivers/grid.ts';
import { command, getJson, WebDriverError } from '../../../src/cli/drivers/webdriver-http.ts';
import { codeSpan } from '../../../src/export/summary-markdown.ts';
import { parseResultsJson } from '../../../src/core/results/results.ts';
import { listening, port, ROOT } from './endpoints.ts';

const dir = mkdtempSync(join(tmpdir(), 'storebench-hostile-inputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** A file outside every project here: what must never be read, run or printed. */
const SECRET = 'SECRET=hunter2-do-not-print';
const outside = join(dir, 'outside');
mkdirSync(outside);
writeFileSync(join(outside, '.env'), `${SECRET}\n`);
writeFileSync(join(outside, 'evil.ts'), `${SECRET};\nexport default 1;\n`);

/** A project folder with a storebench.config.json holding `data`. */
function project(name: string, data: unknown): string {
  const at = join(dir, name);
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, 'storebench.config.json'), JSON.stringify(data));
  return at;
}

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('hostile inputs', () => {
  it('fault 2: an adapter path outside the config folder is refused unread', () => {
    const evil = join(outside, 'evil.ts');
    const linked = project('linked', { adapters: ['./inside.ts'] });
    symlinkSync(evil, join(linked, 'inside.ts'));
    for (const [name, path] of [
      ['up', '../../../../../../../etc/passwd'],
      ['up-module', '../outside/evil.ts'],
      ['absolute', evil],
      ['dotenv', '../outside/.env'],
    ] as const) {
      const at = project(name, { adapters: [path] });
      const message = refusal(() => readConfig(undefined, at));
      expect(message).toMatch(
        /\$\.adapters\[0\]: .* (leaves the config's folder|is not a module); give a module/,
      );
      expect(message).not.toContain('hunter2');
    }
    expect(refusal(() => readConfig(undefined, linked))).toMatch(/leaves the config's folder/);
  });

  it('fault 2: a config that is not JSON is told by line and column, never by its text', () => {
    const at = join(dir, 'symlinked-config');
    mkdirSync(at);
    symlinkSync(join(outside, '.env'), join(at, 'storebench.config.json'));
    const found = refusal(() => readConfig(undefined, at));
    expect(found).toBe('storebench.config.json: not JSON (at line 1, column 1)');
    const named = refusal(() => readConfig(join(outside, '.env'), at));
    expect(named).not.toContain('hunter2');
    expect(named).toMatch(/: not JSON \(at line 1, column 1\)$/);
  });

  it('fault 11: a results file that is not JSON gets one line, with no excerpt of it', () => {
    const text = `{"schema": 1,\n"run": ${SECRET}\n}`;
    expect(() => parseResultsJson(text, 'x.json')).toThrow(
      /^x\.json: not JSON \(at line 2, column 8\)$/,
    );
  });

  it('fault 8: a 20,000-deep --capabilities is refused without overflowing the stack', () => {
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    expect(() => parseCapabilities(deep)).toThrow(ArgsError);
    expect(() => parseCapabilities(deep)).toThrow(/^--capabilities: nested deeper than 32 levels;/);
  });

  it('fault 9: a config over the size bound is refused before it is read', () => {
    const at = join(dir, 'big');
    mkdirSync(at);
    writeFileSync(
      join(at, 'storebench.config.json'),
      `{"adapters": [${'"./a.ts",'.repeat(150_000)}]}`,
    );
    expect(refusal(() => readConfig(undefined, at))).toMatch(
      /^storebench\.config\.json \(in the working directory\): \d+ bytes, more than a config's 1048576 at most$/,
    );
  });

  it('fault 13: a folder or FIFO named storebench.config.json is said as what it is, not as --config', () => {
    const folder = join(dir, 'folder-config');
    mkdirSync(join(folder, 'storebench.config.json'), { recursive: true });
    const fifo = join(dir, 'fifo-config');
    mkdirSync(fifo);
    expect(spawnSync('mkfifo', [join(fifo, 'storebench.config.json')]).status).toBe(0);
    for (const at of [folder, fifo])
      expect(refusal(() => readConfig(undefined, at))).toBe(
        "storebench.config.json (in the working directory): not a regular file; give a JSON file of storebench's keys",
      );
  });

  it('fault 13: a module that does not compile is refused with the compiler error itself', async () => {
    const at = project('broken', { adapters: ['./broken.ts'] });
    writeFileSync(join(at, 'broken.ts'), 'export const x = ;\n');
    const config = readConfig(undefined, at);
    const e = await loadVocabulary(config).catch((x: unknown) => x as Error);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toMatch(
      /could not be imported in Node: Transform failed with 1 error: .*Unexpected ";"/,
    );
  }, 60_000);

  it('fault 10: a module that never finishes importing is stopped at the import limit, blaming it', async () => {
    // The limit set low (docs/flags.md, "Time limits"); the slow file checks the default of 30 s.
    vi.stubEnv('STOREBENCH_IMPORT_TIMEOUT_MS', '1000');
    const at = project('hangs', { adapters: ['./hangs.mts'] });
    writeFileSync(
      join(at, 'hangs.mts'),
      'setInterval(() => {}, 1000);\nawait new Promise(() => {});\n',
    );
    const started = Date.now();
    const e = await loadVocabulary(readConfig(undefined, at)).catch((x: unknown) => x as Error);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toBe(
      "the config's adapter modules did not finish importing within 1 s: a top-level await that never settles, an endless loop at import, or work at import that takes longer",
    );
  }, 60_000);

  it('fault 4: an endpoint that streams without end is read up to a bound', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const endless = await listening(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const more = () => {
          while (res.write(chunk));
          res.once('drain', more);
        };
        more();
      }),
    );
    const base = `http://127.0.0.1:${port(endless)}`;
    try {
      const before = process.memoryUsage().rss;
      const e = await command(base, 'GET', '/status', undefined, 30_000).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(WebDriverError);
      expect((e as Error).message).toBe(
        'GET /status: answered with more than 4194304 bytes, more than any WebDriver answer',
      );
      expect(await getJson(`${base}/status`, 30_000)).toBeUndefined();
      expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
    } finally {
      endless.closeAllConnections();
      endless.close();
    }
  }, 60_000);
});

describe('results folders and site targets', () => {
  const RUN = join(ROOT, 'results', '2026-11-25T21-11-42Z-a0ba-chromium.json');
  const capture = () => {
    const out = { text: '' };
    return {
      out,
      io: { stdout: (t: string) => (out.text += t), stderr: (t: string) => (out.text += t) },
    };
  };

  it('fault 6: a link loop, a dangling link or a link outside in a results folder is not followed', async () => {
    const folder = join(dir, 'linked-results');
    mkdirSync(folder);
    copyFileSync(RUN, join(folder, '2026-11-25T21-11-42Z-a0ba-chromium.json'));
    symlinkSync('loop-b.json', join(folder, 'loop-a.json'));
    symlinkSync('loop-a.json', join(folder, 'loop-b.json'));
    symlinkSync(join(dir, 'nothing-here.json'), join(folder, 'dangling.json'));
    writeFileSync(join(outside, 'secret.json'), `{"schema": "${SECRET}"}`);
    symlinkSync(join(outside, 'secret.json'), join(folder, 'outside.json'));
    const { out, io } = capture();
    const code = await historyCommand([folder], io);
    expect(code).toBe(0);
    expect(out.text).not.toContain('hunter2');
    expect(out.text).not.toContain('unexpected failure');
  });

  it('fault 6: site --out naming a file is exit 2, one line', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'mine');
    const { out, io } = capture();
    expect(await siteCommand([RUN, '--out', file], io)).toBe(2);
    expect(out.text).toBe(`site: ${file}: not a folder; give a new or empty folder for the site\n`);
    expect(readFileSync(file, 'utf8')).toBe('mine');
  });

  it('fault 7: site --out /proc/newsite is refused at once, not an endless mkdir', async () => {
    const { out, io } = capture();
    const started = Date.now();
    expect(await siteCommand([RUN, '--out', '/proc/newsite'], io)).toBe(2);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(out.text).toMatch(
      /^site: \/proc\/newsite: no folder can be made in \/proc \(ENOENT\); give another place\n$/,
    );
  });

  it('fault 14: a site folder holding a file the user added is refused, the file left alone', async () => {
    const site = join(dir, 'old-site');
    mkdirSync(join(site, 'assets'), { recursive: true });
    writeFileSync(join(site, 'index.html'), '');
    writeFileSync(join(site, SITE_MARKER), 'Written by npm run site.\nindex.html');
    writeFileSync(join(site, 'assets', 'my-notes.txt'), 'mine');
    const { out, io } = capture();
    expect(await siteCommand([RUN, '--out', site], io)).toBe(2);
    expect(out.text).toBe(
      `site: ${site}: holds 1 file npm run site did not write (assets/my-notes.txt); a rebuild would delete them: move them, or give another folder\n`,
    );
    expect(readFileSync(join(site, 'assets', 'my-notes.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(site).sort()).toEqual([SITE_MARKER, 'assets', 'index.html'].sort());
    expect(existsSync(`${site}.partial-${process.pid}`)).toBe(false);
  });
});

describe('text from endpoints and refs', () => {
  it('fault 11: a grid browser name with a newline, escape codes and 5 kB prints as one short escaped line', async () => {
    const hostile = `chrome\n\u001b]0;pwned\u0007\u001b[2J${'x'.repeat(5_000)}`;
    const status = {
      value: {
        ready: true,
        nodes: [
          {
            id: 'n1',
            uri: 'http://node1:5555',
            availability: 'UP',
            slots: [{ session: null, stereotype: { browserName: hostile, platformName: 'LINUX' } }],
          },
        ],
      },
    };
    const grid = await listening(
      createHttpServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(status));
      }),
    );
    try {
      const { offers } = await askGrid(`http://127.0.0.1:${port(grid)}`);
      const said = describeOffers(offers ?? []);
      expect(said).toMatch(
        /^chrome\\u000a\\u001b\]0;pwned\\u0007\\u001b\[2Jx+… \(5021 characters\) on LINUX \(1 slot on 1 node\)$/,
      );
      expect(said.length).toBeLessThan(200);
    } finally {
      grid.close();
    }
  });

  it("fault 12: a backtick in an @git: ref stays inside the heading's code span", () => {
    expect(codeSpan('idb@git:main')).toBe('`idb@git:main`');
    expect(codeSpan('idb@git:a`b')).toBe('``idb@git:a`b``');
    expect(codeSpan('idb@git:``x')).toBe('```idb@git:``x```');
    expect(codeSpan('`x\ny`')).toBe('`` `x y` ``');
  });
});
