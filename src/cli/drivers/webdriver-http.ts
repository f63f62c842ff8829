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
  const text = await response.text();
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
    return JSON.parse(await response.text()) as unknown;
  } catch {
    return undefined;
  }
}

/** GET a grid's page as text (Selenium 3's console); undefined when it does not answer. */
export async function getText(address: string, timeoutMs: number): Promise<string | undefined> {
  try {
    const { url, headers } = authorized(address);
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    return response.ok ? await response.text() : undefined;
  } catch {
    return undefined;
  }
}
