/**
 * The sweep's local server: serves the built page from dist/ cross-origin isolated, and, when
 * given a run token, collects the page's messages at POST /collect. `npm start` uses it without
 * a collector. It binds 127.0.0.1 unless told otherwise (`--host`, for a phone or another
 * machine on the LAN): by default results and the token never leave the machine. It answers
 * only requests addressed to its own names (ownHosts), so a site that points its name at this
 * machine (DNS rebinding) reads nothing from it.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { extname, resolve, sep } from 'node:path';
import type { Baseline } from '../../core/verdicts/baseline.ts';
import type { LaunchOrder } from '../../core/run/launch.ts';
import type { MachineReading } from '../../core/run/machine.ts';
import {
  MAX_COLLECTOR_MESSAGE_BYTES,
  STOP_REPLY,
  type CollectorMessage,
} from '../../core/run/collector.ts';
import { checkCollectorMessage, checkCollectorText } from './collector-check.ts';
import { ISOLATION_HEADERS } from './isolation.ts';
import { quoted } from '../../core/base/shown.ts';
import { listedFew } from '../terminal/escape.ts';

export const COLLECT_PATH = '/collect';

/** A message the collector refused, for the sweep to report (a page bug is worth seeing). */
export interface Rejection {
  status: number;
  reason: string;
  /** What the message claimed to be, when it had the right token. */
  type?: string;
  browser?: string;
}

export interface CollectorOptions {
  token: string;
  /** A well-formed message of this run. Returning a reason refuses it with 409 Conflict instead. */
  onMessage: (message: CollectorMessage) => string | void;
  onRejected?: (rejection: Rejection) => void;
  /** Largest body accepted, in bytes; beyond it the answer is 413. */
  maxBytes?: number;
  /** Bytes of bodies being read at once, over every request; beyond it the answer is 503 (try again). */
  maxInFlightBytes?: number;
  /** Bytes of every body the collector accepts over its life; beyond it the answer is 413. */
  maxTotalBytes?: number;
  /** The baseline rows a browser's page samples against (--baseline), answered at GET ?baseline=BROWSER. */
  baseline?: (browser: string) => Baseline | undefined;
  /**
   * The passes a browser's launch takes and the rows it carries (launch.ts), answered at GET
   * ?launch=BROWSER; the page asks it before its first sample, so the sweep may first finish
   * what the page must not share its time with (placing it on its own core).
   */
  launch?: (browser: string) => LaunchOrder | undefined | Promise<LaunchOrder | undefined>;
  /** A reading of the browsers' processes (--record-machine), answered at GET ?machine=BROWSER. */
  machine?: () => MachineReading | undefined;
  /** Whether the sweep asks the page to stop (Ctrl-C): accepted messages are then answered with STOP_REPLY. */
  stopRequested?: () => boolean;
  /**
   * Off unless set (tests): told of every request to the collector once its answer has gone,
   * with when it arrived and ended, to set against the page's timed windows on one clock.
   */
  onRequestTimes?: (times: RequestTimes) => void;
}

/** A collector request as the server saw it, in wall-clock ms (timeOrigin + now(), the page's clock too). */
export interface RequestTimes {
  method: string;
  arrivedAt: number;
  endedAt: number;
  status: number;
}

export interface ServerOptions {
  /** The built page (dist/). */
  root: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Address to listen on (default 127.0.0.1); 0.0.0.0 or :: listens on every interface. */
  host?: string;
  collector?: CollectorOptions;
}

export interface StorebenchServer {
  /** For browsers on this machine, e.g. http://127.0.0.1:41234 (loopback when listening everywhere). */
  origin: string;
  /** For browsers elsewhere: the listening address, or every interface's when listening everywhere. */
  externalOrigins: string[];
  port: number;
  /** Absolute collector URL, or null when this server has no collector. */
  collectUrl: string | null;
  close(): Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';

/** 0.0.0.0 and :: listen on every interface. */
export function isWildcardHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

export function isLoopbackHost(host: string): boolean {
  return (
    /^127\./.test(host) || host === '::1' || host === '[::1]' || host.toLowerCase() === 'localhost'
  );
}

function originOf(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return `http://${isIP(bare) === 6 ? `[${bare}]` : bare}:${port}`;
}

/** The addresses of this machine's network interfaces, for printing URLs when listening everywhere. */
function interfaceAddresses(ipv6: boolean): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter(
      (a): a is NonNullable<typeof a> =>
        !!a &&
        !a.internal &&
        (a.family === 'IPv4' || (ipv6 && a.family === 'IPv6' && !a.address.startsWith('fe80'))),
    )
    .map((a) => a.address);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/** Headers on every response: isolation (docs/browsers.md, "Browsers on this kind of machine"), no caching of a page that changes per build. */
const COMMON_HEADERS: Record<string, string> = {
  ...ISOLATION_HEADERS,
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/**
 * What a token holder can make the collector hold: one message (a done of a long run is a few MB;
 * the cap admits the largest results file a reader takes), the bodies being read at once, and all
 * it ever accepts. Without the last two, eight concurrent 63 MB bodies take the sweep to 1 GB.
 */
const MAX_IN_FLIGHT_BYTES = 96 * 1024 * 1024;
const MAX_TOTAL_BYTES = 1024 * 1024 * 1024;

/** The collector's running byte counts, against its limits. */
interface BodyCounts {
  inFlight: number;
  total: number;
}

export async function startServer(options: ServerOptions): Promise<StorebenchServer> {
  // realpath so that the confinement check below compares like with like (symlinked temp dirs).
  const root = await realpath(resolve(options.root));
  const collector = options.collector;
  const counts: BodyCounts = { inFlight: 0, total: 0 };
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent)
        reply(res, 500, `internal error: ${e instanceof Error ? e.message : String(e)}`);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (refusedHost(req, res, hosts)) return;
    const url = new URL(req.url ?? '/', 'http://storebench.invalid');
    if (url.pathname === COLLECT_PATH) {
      if (!collector)
        return reply(res, 404, 'no collector on this server; it only serves the page');
      if (collector.onRequestTimes) timeRequest(req, res, collector.onRequestTimes);
      // Before a byte of the body is read: without the run's token, or from a page of another
      // origin, a post costs the collector nothing (it may be large, and there may be many).
      const denied = deniedReason(req, url, collector, allowedOrigins());
      if (denied) return refuseAndDrop(req, res, () => reply(res, 403, denied));
      if (req.method === 'GET' && url.searchParams.has('baseline'))
        return replyJson(res, collector.baseline?.(url.searchParams.get('baseline') ?? ''));
      if (req.method === 'GET' && url.searchParams.has('launch'))
        return replyJson(res, await collector.launch?.(url.searchParams.get('launch') ?? ''));
      if (req.method === 'GET' && url.searchParams.has('machine'))
        return replyJson(res, collector.machine?.());
      if (req.method !== 'POST')
        return reply(
          res,
          405,
          `${COLLECT_PATH} takes POST (and GET ?baseline=BROWSER, ?launch=BROWSER or ?machine=BROWSER)`,
          { Allow: 'GET, POST' },
        );
      return collect(req, res, collector, counts);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return reply(res, 405, 'only GET and HEAD are served here', { Allow: 'GET, HEAD' });
    return serveFile(req, res, root, url.pathname);
  }

  /** The origins the page is served from: a post from any other is refused. */
  const allowedOrigins = () => new Set([origin, ...externalOrigins]);

  const host = (options.host ?? DEFAULT_HOST).replace(/^\[(.*)\]$/, '$1');
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const wildcard = isWildcardHost(host);
  const origin = originOf(wildcard ? (host === '0.0.0.0' ? '127.0.0.1' : '::1') : host, port);
  const externalOrigins = wildcard
    ? interfaceAddresses(host !== '0.0.0.0').map((a) => originOf(a, port))
    : [origin];
  const hosts = ownHosts(host, port, [origin, ...externalOrigins]);
  let closing: Promise<void> | undefined;
  return {
    origin,
    externalOrigins,
    port,
    collectUrl: collector ? `${origin}${COLLECT_PATH}` : null,
    close() {
      closing ??= new Promise<void>((ok) => {
        server.close(() => ok());
        // Keep-alive sockets from a browser that is already gone would hold close() open.
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/**
 * The Host headers this server answers: the loopback names when it listens on loopback or on
 * every interface, the address it was told to listen on (--host, as given), and the origins it
 * prints, each with its port (a browser leaves out port 80).
 */
function ownHosts(host: string, port: number, origins: readonly string[]): ReadonlySet<string> {
  const names = new Set(origins.map((o) => new URL(o).hostname));
  names.add(new URL(originOf(host, port)).hostname);
  if (isWildcardHost(host) || isLoopbackHost(host)) {
    names.add('localhost');
    names.add('127.0.0.1');
    if (host !== '0.0.0.0' && !/^127\./.test(host)) names.add('[::1]');
  }
  return new Set(
    [...names].flatMap((n) => [`${n.toLowerCase()}:${port}`, ...(port === 80 ? [n] : [])]),
  );
}

/**
 * Refuse a request for another host, before its path is read: a page of another site that points
 * its own name at this machine (DNS rebinding) is same-origin with whatever answers it, so only
 * this server's own names are answered, as Vite's and webpack's development servers do. True
 * when refused (421 Misdirected Request, with the names it answers instead).
 */
function refusedHost(
  req: IncomingMessage,
  res: ServerResponse,
  hosts: ReadonlySet<string>,
): boolean {
  const asked = req.headers.host;
  if (hosts.has((asked ?? '').trim().toLowerCase())) return false;
  const which = asked === undefined ? 'no Host header' : `Host ${quoted(asked, 100)}`;
  reply(
    res,
    421,
    `${which}: this server answers only for ${listedFew([...hosts])}, its own addresses; a request for another name (a site pointing its name at this machine) is refused`,
  );
  return true;
}

function timeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  told: (times: RequestTimes) => void,
): void {
  const wallClock = () => performance.timeOrigin + performance.now();
  const arrivedAt = wallClock();
  let endedAt: number | undefined;
  // Ended when the answer is handed over, not at its 'finish' or 'close': those callbacks come
  // later, and on a busy machine they come after the page has its answer and has gone on.
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((...args: unknown[]) => {
    endedAt ??= wallClock();
    return end(...args);
  }) as typeof res.end;
  // A connection cut before an answer ends the request too.
  res.once('close', () =>
    told({
      method: req.method ?? '',
      arrivedAt,
      endedAt: endedAt ?? wallClock(),
      status: res.statusCode,
    }),
  );
}

async function serveFile(
  req: IncomingMessage,
  res: ServerResponse,
  root: string,
  pathname: string,
): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return reply(res, 400, 'bad percent-encoding in the path');
  }
  if (decoded.includes('\0')) return reply(res, 400, 'NUL in the path');
  const inRoot = (p: string) => p === root || p.startsWith(root + sep);
  let file = resolve(root, `.${decoded}`);
  if (!inRoot(file)) return reply(res, 403, 'outside the served directory');
  try {
    if ((await stat(file)).isDirectory()) file = resolve(file, 'index.html');
    // A symlink inside dist/ must not lead outside it either.
    file = await realpath(file);
    if (!inRoot(file)) return reply(res, 403, 'outside the served directory');
    const info = await stat(file);
    if (!info.isFile()) return reply(res, 404, `not found: ${pathname}`);
    res.writeHead(200, {
      ...COMMON_HEADERS,
      'Content-Type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': String(info.size),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    await new Promise<void>((ok, fail) => {
      const stream = createReadStream(file);
      stream.on('error', fail);
      res.on('close', () => {
        stream.destroy();
        ok();
      });
      stream.pipe(res);
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return reply(res, 404, `not found: ${pathname}`);
    throw e;
  }
}

async function collect(
  req: IncomingMessage,
  res: ServerResponse,
  collector: CollectorOptions,
  counts: BodyCounts,
): Promise<void> {
  const max = collector.maxBytes ?? MAX_COLLECTOR_MESSAGE_BYTES;
  const refuse = (
    status: number,
    reason: string,
    claims: { type?: string; browser?: string } = {},
    extra: Record<string, string> = {},
  ) => {
    collector.onRejected?.({ status, reason, ...claims });
    reply(res, status, reason, extra);
  };
  // fetch() with a string body sends text/plain and sendBeacon() does too; both are JSON here.
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type !== '' && type !== 'application/json' && type !== 'text/plain') {
    return refuse(
      415,
      `content type ${type} refused; send the message as JSON (application/json or text/plain)`,
    );
  }
  const tooBig = `message larger than the ${max}-byte limit`;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max)
    return refuseAndDrop(req, res, () => refuse(413, tooBig));
  const body = await readBody(req, max, counts, collector);
  if (body === 'too big') return refuseAndDrop(req, res, () => refuse(413, tooBig));
  if (body === 'busy')
    return refuseAndDrop(req, res, () =>
      refuse(
        503,
        `the collector is reading ${MAX_IN_FLIGHT_BYTES}-odd bytes of other messages; send this one again`,
        {},
        { 'Retry-After': '1' },
      ),
    );
  if (body === 'spent')
    return refuseAndDrop(req, res, () =>
      refuse(
        413,
        `this run's messages have passed the ${collector.maxTotalBytes ?? MAX_TOTAL_BYTES}-byte total the collector takes`,
      ),
    );
  const { chunks, size } = body;

  let data: unknown;
  try {
    const bytes = joinBytes(chunks, size);
    chunks.length = 0; // the body is held once, not twice, while it is read
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const over = checkCollectorText(text);
    if (over) return refuse(over.status, over.reason);
    data = JSON.parse(text);
  } catch (e) {
    return refuse(400, `not JSON: ${(e as Error).message}`);
  }
  const outcome = checkCollectorMessage(data, collector.token);
  if (!outcome.ok)
    return refuse(outcome.status, outcome.reason, { type: outcome.type, browser: outcome.browser });
  const conflict = collector.onMessage(outcome.message);
  if (typeof conflict === 'string')
    return refuse(409, conflict, { type: outcome.message.type, browser: outcome.message.browser });
  if (collector.stopRequested?.()) return replyJson(res, STOP_REPLY);
  res.writeHead(204, COMMON_HEADERS);
  res.end();
}

/**
 * A request's body in chunks, or why it was not read to the end: over the message limit, over the
 * bytes all messages may hold at once (busy), or over what the collector takes in all (spent).
 */
async function readBody(
  req: IncomingMessage,
  max: number,
  counts: BodyCounts,
  limits: CollectorOptions,
): Promise<{ chunks: Uint8Array[]; size: number } | 'too big' | 'busy' | 'spent'> {
  const inFlightMax = limits.maxInFlightBytes ?? MAX_IN_FLIGHT_BYTES;
  const totalMax = limits.maxTotalBytes ?? MAX_TOTAL_BYTES;
  const chunks: Uint8Array[] = [];
  let size = 0;
  let stop: 'too big' | 'busy' | 'spent' | null = null;
  try {
    await new Promise<void>((ok, fail) => {
      req.on('data', (chunk: Uint8Array) => {
        size += chunk.length;
        counts.inFlight += chunk.length;
        stop =
          size > max
            ? 'too big'
            : counts.total + size > totalMax
              ? 'spent'
              : counts.inFlight > inFlightMax
                ? 'busy'
                : null;
        if (stop) {
          req.pause();
          ok();
        } else chunks.push(chunk);
      });
      req.on('end', ok);
      req.on('error', fail);
    });
  } finally {
    counts.inFlight -= size;
  }
  if (stop) return stop;
  counts.total += size;
  return { chunks, size };
}

function joinBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

/** Answer, then close the connection instead of reading the rest of an oversized body. */
function refuseAndDrop(req: IncomingMessage, res: ServerResponse, answer: () => void): void {
  res.setHeader('Connection', 'close');
  res.on('finish', () => req.socket.destroy());
  answer();
}

/**
 * Why a request to the collector is refused before its body is read, or null: the run token must
 * be in the URL (`?token=`, as the page sends it), and a browser's Origin header, when there is
 * one, must be the page's own.
 */
function deniedReason(
  req: IncomingMessage,
  url: URL,
  collector: CollectorOptions,
  origins: ReadonlySet<string>,
): string | null {
  if (url.searchParams.get('token') !== collector.token) {
    collector.onRejected?.({ status: 403, reason: 'no run token or a wrong one in the URL' });
    return 'no run token or a wrong one in the URL';
  }
  const from = req.headers.origin;
  if (from !== undefined && !origins.has(from)) {
    collector.onRejected?.({ status: 403, reason: `a page of another origin (${from})` });
    return `posts come only from the page this server serves, not from ${from}`;
  }
  return null;
}

/** A value as JSON; 204 No Content when there is none. */
function replyJson(res: ServerResponse, value: unknown): void {
  if (value === undefined) {
    res.writeHead(204, COMMON_HEADERS);
    res.end();
    return;
  }
  const body = JSON.stringify(value);
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

function reply(
  res: ServerResponse,
  status: number,
  reason: string,
  extra: Record<string, string> = {},
): void {
  const body = `${reason}\n`;
  res.writeHead(status, {
    ...COMMON_HEADERS,
    ...extra,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}
