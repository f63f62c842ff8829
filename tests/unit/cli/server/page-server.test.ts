import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ISOLATION_HEADERS } from '../../../../src/cli/server/isolation.ts';
import {
  startServer,
  type Rejection,
  type StorebenchServer,
} from '../../../../src/cli/server/page-server.ts';
import {
  isStopReply,
  MAX_COLLECTOR_MESSAGE_BYTES,
  type CollectorMessage,
} from '../../../../src/core/run/collector.ts';
import { resultsDocument } from '../../../../src/core/results/document.ts';
import type { CaseResult, ResultsFile } from '../../../../src/core/results/results.ts';
import { nodeEnvironment } from '../../helpers/runner-doc.ts';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request: unlike fetch(), node:http sends the path exactly as written (no ../ folding). */
function send(
  server: StorebenchServer,
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

const post = (
  server: StorebenchServer,
  message: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
  path = `/collect?token=${TOKEN}`,
) =>
  send(
    server,
    'POST',
    path,
    typeof message === 'string' ? message : JSON.stringify(message),
    headers,
  );

function expectIsolated(reply: Reply): void {
  for (const [name, value] of Object.entries(ISOLATION_HEADERS))
    expect(reply.headers[name.toLowerCase()], name).toBe(value);
}

const TOKEN = 'token-of-this-run';
const row: CaseResult = {
  suite: 'insert',
  case: 'bulk',
  title: 'insert all in one bulk write',
  adapter: 'memory',
  size: 10,
  params: {},
  operations: 10,
  samples: [1.5, 2.5],
  warmup: [3],
  status: 'ok',
  reason: null,
  stats: { n: 2, min: 1.5, max: 2.5, mean: 2, median: 2, stddev: 0.7071, ci95: 6.35 },
};
const results: ResultsFile = resultsDocument({
  runId: 'run-1',
  browser: 'chromium',
  plan: {
    suites: ['insert'],
    adapters: ['memory'],
    sizes: [10],
    iterations: 2,
    warmup: 1,
    seed: 42,
    timeoutMs: 1000,
    fixture: 'person',
    params: {},
  },
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  environment: nodeEnvironment({
    browser: { name: 'Chromium', version: '156.0', engine: 'Blink' },
    userAgent: 'Mozilla/5.0',
    os: 'Linux',
    cores: 2,
    deviceMemoryGb: null,
    crossOriginIsolated: true,
    timerStepMs: 0.005,
    storageEstimate: null,
    context: 'main',
    harness: { version: '0.1.0', commit: 'abc1234' },
  }),
  output: {
    cases: [row],
    order: [
      { suite: 'insert', case: 'bulk', size: 10, rounds: [['memory'], ['memory'], ['memory']] },
    ],
    cancelled: false,
  },
  harness: { version: '0.1.0', commit: 'abc1234' },
});

let dir: string;
let dist: string;
let server: StorebenchServer;
let messages: CollectorMessage[];
let rejections: Rejection[];
/** Whether the sweep asks the pages to stop (its Ctrl-C). */
let stopping = false;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'storebench-server-'));
  dist = join(dir, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>storebench</title>');
  writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1);');
  writeFileSync(join(dist, 'assets', 'app.css'), 'body{}');
  writeFileSync(join(dist, 'assets', 'blob.bin'), 'x');
  writeFileSync(join(dir, 'secret.txt'), 'SECRET');
  symlinkSync(join(dir, 'secret.txt'), join(dist, 'link.txt'));
  server = await startServer({
    root: dist,
    collector: {
      token: TOKEN,
      onMessage: (m) => void messages.push(m),
      onRejected: (r) => rejections.push(r),
      maxBytes: 64 * 1024,
      stopRequested: () => stopping,
    },
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  messages = [];
  rejections = [];
  stopping = false;
});

describe('cli server - static files', () => {
  it('serves index.html at / with the isolation headers', async () => {
    const reply = await send(server, 'GET', '/?collector=x&autorun=1');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.body).toContain('<title>storebench</title>');
    expectIsolated(reply);
    expect(reply.headers['cache-control']).toBe('no-store');
  });

  it('gives each file its content type, isolated too', async () => {
    for (const [path, type] of [
      ['/assets/app.js', 'text/javascript; charset=utf-8'],
      ['/assets/app.css', 'text/css; charset=utf-8'],
      ['/assets/blob.bin', 'application/octet-stream'],
    ] as const) {
      const reply = await send(server, 'GET', path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers['content-type'], path).toBe(type);
      expectIsolated(reply);
    }
  });

  it('answers HEAD without a body, and 404 and 405 with the headers too', async () => {
    const head = await send(server, 'HEAD', '/assets/app.js');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('15');
    expect(head.body).toBe('');
    const missing = await send(server, 'GET', '/nope.js');
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('not found: /nope.js\n');
    expectIsolated(missing);
    const put = await send(server, 'PUT', '/index.html', 'x');
    expect(put.status).toBe(405);
  });

  it('refuses paths that lead outside dist/', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/link.txt',
      '/%00',
    ]) {
      const reply = await send(server, 'GET', path);
      expect([400, 403, 404], path).toContain(reply.status);
      expect(reply.body, path).not.toContain('SECRET');
    }
    expect((await send(server, 'GET', '/assets/..%2f..%2fsecret.txt')).body).toBe(
      'outside the served directory\n',
    );
    expect((await send(server, 'GET', '/link.txt')).status).toBe(403);
  });
});

describe('cli server - collector', () => {
  const hello = { type: 'hello', token: TOKEN, browser: 'chromium', userAgent: 'Mozilla/5.0' };

  it('accepts a message with the run token and hands it over', async () => {
    const reply = await post(server, hello);
    expect(reply.status).toBe(204);
    expectIsolated(reply);
    expect(messages).toEqual([hello]);
  });

  it('once the sweep asks the page to stop, answers each accepted message with the stop reply, and a refused one as before', async () => {
    stopping = true;
    const reply = await post(server, hello);
    expect(reply.status).toBe(200);
    expectIsolated(reply);
    expect(isStopReply(JSON.parse(reply.body))).toBe(true);
    expect(messages).toEqual([hello]);
    expect((await post(server, { ...hello, token: 'wrong' })).status).toBe(403);
    expect(isStopReply({ stop: 'later' })).toBe(false);
  });

  it('accepts text/plain (sendBeacon) and a message without a content type', async () => {
    expect((await post(server, hello, { 'content-type': 'text/plain;charset=UTF-8' })).status).toBe(
      204,
    );
    expect((await post(server, hello, {})).status).toBe(204);
    expect(messages).toHaveLength(2);
  });

  it('refuses a wrong or missing token with 403, in the URL before the body is read, and in the body', async () => {
    const wrong = await post(server, { ...hello, token: 'guess' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toBe('wrong token; this collector belongs to another run\n');
    const none = await post(server, { type: 'hello', browser: 'chromium', userAgent: 'x' });
    expect(none.status).toBe(403);
    const noUrlToken = await post(
      server,
      hello,
      { 'content-type': 'application/json' },
      '/collect',
    );
    expect(noUrlToken).toMatchObject({
      status: 403,
      body: 'no run token or a wrong one in the URL\n',
    });
    expect(
      (await post(server, hello, { 'content-type': 'application/json' }, '/collect?token=guess'))
        .status,
    ).toBe(403);
    expect(messages).toEqual([]);
    expect(rejections.map((r) => r.status)).toEqual([403, 403, 403, 403]);
  });

  it('answers a post without the token before its body arrives: an unauthenticated body is never buffered', async () => {
    // 64 MB announced, one 1 MB chunk sent, the rest held back: the answer comes anyway.
    const status = await new Promise<number>((ok, fail) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: '/collect',
          headers: {
            'content-type': 'application/json',
            'content-length': String(64 * 1024 * 1024),
          },
        },
        (res) => {
          res.resume();
          ok(res.statusCode ?? 0);
        },
      );
      req.on('error', () => {}); // the server drops the connection after answering
      req.write(Buffer.alloc(1024 * 1024, 32));
      setTimeout(() => fail(new Error('no answer before the body was sent')), 5_000).unref();
    });
    expect(status).toBe(403);
  });

  it('refuses a post from a page of another origin, and accepts one from its own', async () => {
    const foreign = await post(server, hello, {
      'content-type': 'text/plain',
      origin: 'http://evil.example',
    });
    expect(foreign).toMatchObject({
      status: 403,
      body: 'posts come only from the page this server serves, not from http://evil.example\n',
    });
    expect(messages).toEqual([]);
    expect(
      (await post(server, hello, { 'content-type': 'text/plain', origin: server.origin })).status,
    ).toBe(204);
  });

  it('refuses bad JSON, non-objects and unknown types with 400', async () => {
    const bad = await post(server, '{"type": "hello",');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatch(/^not JSON: /);
    expect(bad.body.trim().split('\n')).toHaveLength(1);
    expect((await post(server, '[1,2]')).status).toBe(400);
    const unknown = await post(server, { ...hello, type: 'bye' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toBe(
      'type: expected one of hello, progress, case, pass, done, fatal, hung, contract, got "bye"\n',
    );
    expect((await post(server, '\u00ff', { 'content-type': 'application/json' })).status).toBe(400);
    expect(messages).toEqual([]);
  });

  it('refuses other content types with 415 and other methods with 405', async () => {
    expect(
      (await post(server, hello, { 'content-type': 'multipart/form-data; boundary=x' })).status,
    ).toBe(415);
    const get = await send(server, 'PUT', `/collect?token=${TOKEN}`);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('GET, POST');
  });

  it('answers GET ?baseline=BROWSER with the token: 204 without a baseline, never without the token', async () => {
    const none = await send(server, 'GET', `/collect?token=${TOKEN}&baseline=chromium`);
    expect(none.status).toBe(204);
    expect((await send(server, 'GET', '/collect?baseline=chromium')).status).toBe(403);
  });

  it('refuses a message over the size cap with 413, whether declared or streamed', async () => {
    const big = { ...hello, userAgent: 'x'.repeat(64 * 1024) };
    const streamed = await new Promise<Reply>((ok, fail) => {
      // Chunked: no Content-Length, so the cap is found while reading.
      const req = request(
        {
          host: '127.0.0.1',
          port: server.port,
          method: 'POST',
          path: `/collect?token=${TOKEN}`,
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () =>
            ok({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
          );
        },
      );
      req.on('error', fail);
      const json = JSON.stringify(big);
      req.write(json.slice(0, 40_000));
      req.end(json.slice(40_000));
    });
    expect(streamed.status).toBe(413);
    expect(streamed.body).toBe('message larger than the 65536-byte limit\n');
    expect((await post(server, big)).status).toBe(413);
    expect(messages).toEqual([]);
  });

  it('uses MAX_COLLECTOR_MESSAGE_BYTES by default, refusing a larger declared length before reading it', async () => {
    const plain = await startServer({
      root: dist,
      collector: { token: TOKEN, onMessage: () => {} },
    });
    try {
      const reply = await new Promise<Reply>((ok, fail) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: plain.port,
            method: 'POST',
            path: `/collect?token=${TOKEN}`,
            headers: {
              'content-type': 'application/json',
              'content-length': String(MAX_COLLECTOR_MESSAGE_BYTES + 1),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () =>
              ok({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
            );
          },
        );
        req.on('error', fail);
        req.write('{"type":'); // the rest never comes; the answer must not wait for it
      });
      expect(reply.status).toBe(413);
      expect(reply.body).toBe(
        `message larger than the ${MAX_COLLECTOR_MESSAGE_BYTES}-byte limit\n`,
      );
    } finally {
      await plain.close();
    }
  });

  it('bounds what all messages hold at once (503, try again) and what a run sends in all (413)', async () => {
    const bounded = await startServer({
      root: dist,
      collector: {
        token: TOKEN,
        onMessage: () => {},
        maxBytes: 64 * 1024,
        maxInFlightBytes: 96 * 1024,
        maxTotalBytes: 200 * 1024,
      },
    });
    try {
      const body = JSON.stringify({ ...hello, userAgent: 'x'.repeat(60 * 1024) });
      // Two bodies of 60 KB read at once pass the 96 KB in flight: one of them is told to come back.
      const slow = (): Promise<Reply> =>
        new Promise((ok, fail) => {
          const req = request(
            {
              host: '127.0.0.1',
              port: bounded.port,
              method: 'POST',
              path: `/collect?token=${TOKEN}`,
              headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
            },
            (res) => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c.toString()));
              res.on('end', () =>
                ok({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
              );
            },
          );
          req.on('error', () => ok({ status: 0, headers: {}, body: '' }));
          req.write(body.slice(0, 50 * 1024));
          setTimeout(() => req.end(body.slice(50 * 1024)), 300);
          void fail;
        });
      const both = await Promise.all([slow(), slow()]);
      expect(both.map((r) => r.status).sort()).toEqual([204, 503]);
      expect(both.find((r) => r.status === 503)?.headers['retry-after']).toBe('1');
      // 60 KB accepted so far; two more pass the 200 KB the run may send in all.
      expect((await post(bounded, body)).status).toBe(204);
      expect((await post(bounded, body)).status).toBe(204);
      const spent = await post(bounded, body);
      expect(spent.status).toBe(413);
      expect(spent.body).toBe(
        "this run's messages have passed the 204800-byte total the collector takes\n",
      );
    } finally {
      await bounded.close();
    }
  });

  it("validates 'done' results with the schema and says where they are wrong", async () => {
    const ok = await post(server, { type: 'done', token: TOKEN, browser: 'chromium', results });
    expect(ok.status).toBe(204);
    const broken = {
      ...results,
      environment: { ...results.environment, crossOriginIsolated: 'yes' },
    };
    const reply = await post(server, {
      type: 'done',
      token: TOKEN,
      browser: 'chromium',
      results: broken,
    });
    expect(reply.status).toBe(422);
    expect(reply.body).toBe(
      'done: results: $.environment.crossOriginIsolated: expected true or false, got "yes"\n',
    );
    expect(rejections).toEqual([
      { status: 422, reason: reply.body.trim(), type: 'done', browser: 'chromium' },
    ]);
    expect(messages.map((m) => m.type)).toEqual(['done']);
  });

  it("checks the rows a 'done' carries to the next launch, and that they are of the same run", async () => {
    const carry = {
      schema: 'storebench/carry@1',
      runId: results.run.id,
      passesDone: 1,
      rows: [],
      order: [],
    };
    expect(
      (await post(server, { type: 'done', token: TOKEN, browser: 'chromium', results, carry }))
        .status,
    ).toBe(204);
    const other = await post(server, {
      type: 'done',
      token: TOKEN,
      browser: 'chromium',
      results,
      carry: { ...carry, runId: 'elsewhere' },
    });
    expect(other.status).toBe(422);
    expect(other.body).toBe(
      `done: the carried rows are of run elsewhere, not of this run (${results.run.id})\n`,
    );
    const noRows = await post(server, {
      type: 'done',
      token: TOKEN,
      browser: 'chromium',
      results,
      carry: { ...carry, rows: 'all of them' },
    });
    expect(noRows.status).toBe(422);
    expect(messages.map((m) => m.type)).toEqual(['done']);
  });

  it("checks 'case' rows for the fields the sweep reads", async () => {
    const good = {
      type: 'case',
      token: TOKEN,
      browser: 'chromium',
      result: row,
      rowsDone: 1,
      rows: 2,
    };
    expect((await post(server, good)).status).toBe(204);
    const noStatus = await post(server, { ...good, result: { ...row, status: 'fine' } });
    expect(noStatus.status).toBe(422);
    expect(noStatus.body).toBe(
      'case: result.status: expected one of ok, unsupported, error, timeout, got "fine"\n',
    );
    const noReason = await post(server, {
      ...good,
      result: { ...row, status: 'error', reason: '' },
    });
    expect(noReason.body).toBe('case: result.reason: a error row needs a reason\n');
    const counts = await post(server, { ...good, rowsDone: 3 });
    expect(counts.status).toBe(400);
    expect(messages).toHaveLength(1);
  });

  it("checks a 'contract' message's outcomes, each failure four texts", async () => {
    const failure = { contract: 'count', check: 'count, empty', expected: '0', actual: '1' };
    const contract = (outcomes: unknown) =>
      post(server, { type: 'contract', token: TOKEN, browser: 'chromium', outcomes });
    expect((await contract([{ adapter: 'a', supported: true, failures: [failure] }])).status).toBe(
      204,
    );
    expect(
      (await contract([{ adapter: 'b', supported: 'no IndexedDB', failures: [] }])).status,
    ).toBe(204);
    const bad = await contract([
      { adapter: 'a', supported: true, failures: [{ ...failure, actual: 1 }] },
    ]);
    expect(bad.status).toBe(422);
    expect(bad.body).toBe('contract: outcomes[0].failures[0].actual: expected a string\n');
    expect((await contract({})).status).toBe(422);
    expect(messages.map((m) => m.type)).toEqual(['contract', 'contract']);
  });

  it('checks progress and fatal messages minimally', async () => {
    expect(
      (
        await post(server, {
          type: 'progress',
          token: TOKEN,
          browser: 'chromium',
          event: { type: 'run-start', rows: 1, samples: 3 },
        })
      ).status,
    ).toBe(204);
    expect(
      (await post(server, { type: 'progress', token: TOKEN, browser: 'chromium', event: 'x' }))
        .status,
    ).toBe(400);
    expect(
      (
        await post(server, {
          type: 'fatal',
          token: TOKEN,
          browser: 'chromium',
          message: 'no IndexedDB',
        })
      ).status,
    ).toBe(204);
    expect(
      (await post(server, { type: 'fatal', token: TOKEN, browser: '', message: 'x' })).status,
    ).toBe(400);
    expect(messages.map((m) => m.type)).toEqual(['progress', 'fatal']);
  });

  it('has no collector when started without a token (npm start)', async () => {
    const plain = await startServer({ root: dist });
    try {
      expect(plain.collectUrl).toBeNull();
      const reply = await send(plain, 'POST', '/collect', JSON.stringify(hello));
      expect(reply.status).toBe(404);
      expect((await send(plain, 'GET', '/')).status).toBe(200);
    } finally {
      await plain.close();
    }
  });
});

/** A request to `connectTo` whose Host header is `host`, as a page of another site sends it after DNS rebinding. */
function askAs(
  host: string,
  port: number,
  path: string,
  method = 'GET',
  body?: string,
  connectTo = '127.0.0.1',
): Promise<Reply> {
  return new Promise((ok, fail) => {
    const headers = { host, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) };
    const req = request({ host: connectTo, port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

describe('cli server - its own Host names only', () => {
  it('a request for another Host gets 421 before its path is read, page and collector alike', async () => {
    const port = server.port;
    for (const path of ['/', '/assets/app.js', '/link.txt', `/collect?token=${TOKEN}&launch=x`]) {
      const reply = await askAs(`evil.example:${port}`, port, path);
      expect(reply.status, path).toBe(421);
      expect(reply.body).not.toContain('console.log');
      expect(reply.body).toMatch(
        /^Host "evil\.example:\d+": this server answers only for 127\.0\.0\.1:\d+, localhost:\d+, its own addresses;/,
      );
    }
    // A post with the run's token, from a foreign name: refused before the collector reads it.
    const posted = await askAs(
      `evil.example:${port}`,
      port,
      `/collect?token=${TOKEN}`,
      'POST',
      JSON.stringify({
        type: 'hello',
        token: TOKEN,
        browser: 'chromium',
        userAgent: 'Mozilla/5.0',
      }),
    );
    expect(posted.status).toBe(421);
    expect(messages).toEqual([]);
    expect(rejections).toEqual([]);
  });

  it('answers its own names at its own port, and refuses them at another port or [::1] it does not listen on', async () => {
    const port = server.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`])
      expect((await askAs(host, port, '/')).status, host).toBe(200);
    for (const host of [
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `[::1]:${port}`,
      `localhost.:${port}`,
    ])
      expect((await askAs(host, port, '/')).status, host).toBe(421);
  });

  it('with --host, answers that address too; the collector still wants its token behind the Host check', async () => {
    // 127.0.0.2 is a loopback address of its own on Linux: a --host other than the default.
    const other = await startServer({
      root: dist,
      host: '127.0.0.2',
      collector: { token: TOKEN, onMessage: () => undefined },
    });
    try {
      const ask = (host: string, path = '/') =>
        askAs(host, other.port, path, 'GET', undefined, '127.0.0.2');
      expect((await ask(`127.0.0.2:${other.port}`)).status).toBe(200);
      expect((await ask(`evil.example:${other.port}`)).status).toBe(421);
      expect((await ask(`127.0.0.2:${other.port}`, '/collect?launch=x')).status).toBe(403);
    } finally {
      await other.close();
    }
  });
});
