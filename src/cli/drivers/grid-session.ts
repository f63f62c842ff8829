/**
 * A session on a WebDriver grid (`--remote http(s)://`). A grid may be full: the sweep then waits
 * for a free slot itself, saying so, up to --wait-ms, rather than leave a request in the grid's
 * queue, which would start a browser for nobody once the sweep stopped waiting. When the grid
 * refuses the session, its own message is shown, one line, escaped, with what it offers.
 */
import { errorMessage } from '../../core/base/errors.ts';
import { formatClock } from '../../core/base/format.ts';
import { redactUrl, type WebDriverTarget } from './discovery.ts';
import type { DriveRequest } from './driver.ts';
import { askGrid, describeOffers, freeSlots, nodeOfSession } from './grid.ts';
import { command, oneLine, WebDriverError } from './webdriver-http.ts';

type RemoteTarget = Extract<WebDriverTarget, { kind: 'remote' }>;

/**
 * The time a session's start is given once a slot is free: a browser start on a busy node. Not
 * --wait-ms, which is for a full grid's slots: an endpoint that takes the request and never
 * answers would otherwise hold the sweep up to ten minutes with nothing said.
 */
const START_MS = 60_000;
/** How often a full grid is asked again. */
const POLL_MS = 2_000;

/** What the grid said or did, already worded for the browser's line. */
export class GridError extends Error {
  override readonly name = 'GridError';
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * The session's id and the node it runs on (null where the grid does not say), or undefined when
 * the run ended meanwhile (Ctrl-C). Throws GridError.
 */
export async function openGridSession(
  how: RemoteTarget,
  request: DriveRequest,
): Promise<{ sessionId: string; node: string | null } | undefined> {
  const { session, signal, hooks } = request;
  const browserName = String(how.capabilities.browserName);
  // Waiting for a slot is not the browser's start: its own limit is --wait-ms.
  session.holdStartup();
  const t0 = Date.now();
  if (!(await waitForSlot(how, request, browserName, t0))) return undefined;
  const startMs = START_MS;
  let sessionId: string;
  try {
    sessionId = (
      await command<{ sessionId: string }>(
        how.url,
        'POST',
        '/session',
        { capabilities: { alwaysMatch: how.capabilities } },
        startMs,
        signal,
      )
    ).sessionId;
  } catch (e) {
    if (session.isOver) return undefined;
    throw await refusal(how, browserName, e, startMs);
  } finally {
    hooks?.waiting?.(null, false);
  }
  session.resumeStartup();
  const node = await nodeOfSession(how.url, sessionId);
  if (node !== null) hooks?.ranOn?.(node);
  return { sessionId, node };
}

/** Wait while the grid says every slot for the browser is busy; false when the run ended meanwhile. */
async function waitForSlot(
  how: RemoteTarget,
  { session, hooks }: DriveRequest,
  browserName: string,
  t0: number,
): Promise<boolean> {
  let first = true;
  for (;;) {
    if (session.isOver) return false;
    const slots = await freeSlots(how.url, browserName);
    // A grid that does not say, or offers no such slot at all, answers the request itself.
    if (slots === null || slots.free > 0 || slots.total === 0) return true;
    const waited = Date.now() - t0;
    const busy = `all ${slots.total} slot${slots.total === 1 ? '' : 's'} busy`;
    if (waited >= how.waitMs)
      throw new GridError(
        `the grid at ${redactUrl(how.url)} is full: no ${browserName} slot came free within ${formatClock(how.waitMs)} (--wait-ms; ${busy})`,
      );
    hooks?.waiting?.(
      `the grid is full (${busy}): waiting for a ${browserName} slot, ${formatClock(waited)} of ${formatClock(how.waitMs)} (--wait-ms)`,
      first,
    );
    first = false;
    await sleep(Math.min(POLL_MS, how.waitMs - waited));
  }
}

/** A request that got no answer, with its cause: fetch says only "fetch failed". */
function unreachable(e: unknown): string {
  const cause = (e as { cause?: unknown } | null)?.cause;
  return cause instanceof Error
    ? `${errorMessage(e)} (${oneLine(cause.message)})`
    : errorMessage(e);
}

/** Why the grid did not start the session, in one line: its own words, and what it offers. */
async function refusal(
  how: RemoteTarget,
  browserName: string,
  e: unknown,
  startMs: number,
): Promise<GridError> {
  const where = `the WebDriver endpoint ${redactUrl(how.url)}`;
  if (e instanceof Error && e.name === 'TimeoutError')
    return new GridError(
      `${where} did not answer the request for a ${JSON.stringify(browserName)} session within ${formatClock(startMs)}, the time a free slot is given to start one; a grid that queued the request may still start it, and ends it by its own timeout`,
    );
  if (!(e instanceof WebDriverError))
    return new GridError(
      `${where} did not answer the request for a ${JSON.stringify(browserName)} session: ${unreachable(e)}`,
    );
  const said = e.message;
  const { offers } = await askGrid(how.url);
  const offered = offers === null ? '' : `; it offers ${describeOffers(offers)}`;
  return new GridError(
    `${where} refused a ${JSON.stringify(browserName)} session: ${said}${offered}`,
  );
}
