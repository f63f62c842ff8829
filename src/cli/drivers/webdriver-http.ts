/**
 * HTTP to a WebDriver endpoint: W3C commands, and the plain JSON a grid serves about itself
 * (Selenium Grid's /status and /grid/api). Spoken with fetch(); credentials in the URL, which
 * cloud grids hand out, go as Basic auth because fetch() refuses URLs that hold them.
 */
import { printableField } from '../terminal/escape.ts';

export class WebDriverError extends Error {
  override readonly name = 'WebDriverError';
  constructor(
    message: string,
    /** The W3C error code (`invalid session id`, `unknown error`, ...), or null when there was none. */
    readonly code: string | null,
    /** The endpoint's own message, one line, escaped for a terminal; '' when it gave none. */
    readonly said = '',
  ) {
    super(message);
  }
}

/** The URL without its credentials, and the Basic authorization they make. */
function authorized(address: string): { url: URL; headers: Record<string, string> } {
  const url = new URL(address);
  const headers: Record<string, string> =
    url.username || url.password
      ? {
          authorization: `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`,
        }
      : {};
  url.username = '';
  url.password = '';
  return { url, headers };
}

/** Where the words of a Selenium or chromedriver message end and its diagnostics begin. */
const TRAILER =
  /^(Build info|System info|Driver info|Host info|Capabilities \{|Session ID|remote stacktrace|Stacktrace|Command duration or timeout)\b/i;
const MAX_SAID = 400;

/**
 * A message from elsewhere as one line: its lines up to the diagnostics Selenium appends (build,
 * system and driver info, stack traces), joined, capped, and with control characters escaped.
 * Chromedriver puts the reason on the second line ("session not created\nfrom unknown error: no
 * chrome binary at ..."), so the first line alone would lose it.
 */
export function oneLine(text: string): string {
  const words: string[] = [];
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (TRAILER.test(line)) break;
    if (line) words.push(line);
  }
  const joined = words.join(' ');
  return printableField(joined.length > MAX_SAID ? `${joined.slice(0, MAX_SAID)}…` : joined);
}

/**
 * The most of a response body read. WebDriver answers here are small (a session, a window
 * handle, a page's state); an endpoint that streams without end took a sweep to 5 GB.
 */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** A response too large to be a WebDriver answer. */
class TooLargeError extends Error {
  override readonly name = 'TooLargeError';
}

/** The body as text, read up to MAX_RESPONSE_BYTES; TooLargeError beyond, the rest unread. */
async function boundedText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_RESPONSE_BYTES || !response.body) {
    await response.body?.cancel();
    if (declared > MAX_RESPONSE_BYTES) throw new TooLargeError();
    return '';
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new TooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One W3C WebDriver command. Rejects with the driver's error code and message. */
export async function command<T>(
  base: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body: unknown,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<T> {
  const { url, headers } = authorized(`${base}${path}`);
  const timeout = AbortSignal.timeout(timeoutMs);
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
  });
  let text: string;
  try {
    text = await boundedText(response);
  } catch (e) {
    if (!(e instanceof TooLargeError)) throw e;
    throw new WebDriverError(
      `${method} ${path}: answered with more than ${MAX_RESPONSE_BYTES} bytes, more than any WebDriver answer`,
      null,
    );
  }
  let data: { value?: unknown } = {};
  try {
    data = JSON.parse(text) as { value?: unknown };
  } catch {
    /* not JSON; reported below */
  }
  const value = data.value as { error?: string; message?: string } | undefined;
  if (!response.ok || (value && typeof value === 'object' && typeof value.error === 'string')) {
    const code = value && typeof value.error === 'string' ? value.error : null;
    const message = typeof value?.message === 'string' ? oneLine(value.message) : '';
    // Chromedriver begins its message with the code itself: "session not created: session not created ...".
    const said =
      code && message.startsWith(code)
        ? message.slice(code.length).replace(/^[:\s]+/, '')
        : message;
    throw new WebDriverError(
      `${method} ${path}: ${code ?? `HTTP ${response.status}`}${said ? `: ${said}` : ''}`,
      code,
      said,
    );
  }
  return data.value as T;
}

/** GET some JSON a grid serves about itself; undefined when it does not answer with JSON. */
export async function getJson(address: string, timeoutMs: number): Promise<unknown> {
  try {
    const { url, headers } = authorized(address);
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    return JSON.parse(await boundedText(response)) as unknown;
  } catch {
    return undefined;
  }
}

/** GET a grid's page as text (Selenium 3's console); undefined when it does not answer. */
export async function getText(address: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const { url, headers } = authorized(address);
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? await boundedText(response) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the endpoint cannot be reached, or null when it answers anything at all (any HTTP status:
 * a cloud grid need not serve /status). Asked before the page is built, so a dead --remote is
 * found in seconds, not after the build and a session's whole wait.
 */
export async function unreachableReason(
  address: string,
  timeoutMs: number,
): Promise<string | null> {
  try {
    const { url, headers } = authorized(address);
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return null;
  } catch (e) {
    if (e instanceof Error && e.name === 'TimeoutError')
      return `no answer within ${timeoutMs / 1000} s`;
    const cause = (e as { cause?: unknown } | null)?.cause;
    return oneLine(
      cause instanceof Error ? cause.message : e instanceof Error ? e.message : String(e),
    );
  }
}
