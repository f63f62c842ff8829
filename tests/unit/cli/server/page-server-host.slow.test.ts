/**
 * The servers as the commands run them answer only their own Host: a page of
 * another site that points its name at 127.0.0.1 (DNS rebinding) sends its own name as Host, and
 * gets 421 from `storebench serve`, from the sweep's page server and from its collector, while the
 * server's own names are answered and the collector's token check holds behind it. Real
 * processes of the installed command; slow because serve builds the page (tens of seconds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../../../bin/storebench.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'storebench-own-host-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The command running, and the first match of `re` in what it prints. */
function startUntil(argv: string[], re: RegExp, cwd: string) {
  const child = spawn(process.execPath, [BIN, ...argv], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const matched = new Promise<RegExpExecArray>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`no match for ${re} in: ${out}`)), 240_000);
    const look = (c: Buffer) => {
      out += c.toString();
      const m = re.exec(out);
      if (m) ok((clearTimeout(timer), m));
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('close', () => {
      clearTimeout(timer);
      fail(new Error(`it ended first: ${out}`));
    });
  });
  return { child, matched };
}

/** Ctrl-C, as a user stops it; the exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  const closed = new Promise<number | null>((ok) => child.on('close', (code) => ok(code)));
  if (child.exitCode === null) child.kill('SIGINT');
  return closed;
}

/** A request to 127.0.0.1:`port` naming `host` in its Host header; its status and body. */
function askAs(host: string, port: number, path: string, method = 'GET', body?: string) {
  return new Promise<{ status: number; body: string }>((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('page server - its own Host only, as the commands run it', () => {
  it('storebench serve refuses a foreign Host with 421 and serves its own', async () => {
    const cwd = join(dir, 'serve');
    mkdirSync(cwd);
    const serve = startUntil(['serve', '--port', '0'], /\n {2}http:\/\/127\.0\.0\.1:(\d+)\//, cwd);
    try {
      const port = Number((await serve.matched)[1]);
      const foreign = await askAs(`evil.example:${port}`, port, '/index.html');
      expect(foreign.status).toBe(421);
      expect(foreign.body).not.toContain('<html');
      expect((await askAs(`localhost:${port}`, port, '/index.html')).status).toBe(200);
    } finally {
      expect(await stop(serve.child)).toBe(0);
    }
  }, 300_000);

  it("the sweep's page server and its collector refuse a foreign Host with 421, before the token", async () => {
    // A built page of one file: --page serves it as it is, so no build runs.
    const page = join(dir, 'page');
    mkdirSync(page);
    writeFileSync(join(page, 'index.html'), '<!doctype html><title>the page</title>');
    const argv = [
      'sweep',
      '--manual',
      '--page',
      page,
      '--wait-ms',
      '240000',
      '--out',
      join(dir, 'out'),
    ];
    const plan = [
      '--suites',
      'insert',
      '--cases',
      'serial',
      '--adapters',
      'memory',
      '--sizes',
      '10',
    ];
    const sweep = startUntil(
      [...argv, ...plan, '--iterations', '1'],
      /^\s+http:\/\/127\.0\.0\.1:(\d+)\/\?\S*token=([\w-]+)/m,
      dir,
    );
    try {
      const [, portText, token] = await sweep.matched;
      const port = Number(portText);
      const evil = `evil.example:${port}`;
      expect((await askAs(evil, port, '/')).status).toBe(421);
      expect((await askAs(`127.0.0.1:${port}`, port, '/')).status).toBe(200);
      const hello = JSON.stringify({ type: 'hello', token, browser: 'manual', userAgent: 'x' });
      expect((await askAs(evil, port, `/collect?token=${token}`, 'POST', hello)).status).toBe(421);
      expect((await askAs(evil, port, `/collect?token=${token}&launch=manual`)).status).toBe(421);
      // What held before: at its own name, the collector still wants the run's token.
      expect((await askAs(`127.0.0.1:${port}`, port, '/collect', 'POST', hello)).status).toBe(403);
    } finally {
      await stop(sweep.child);
    }
  }, 300_000);
});
