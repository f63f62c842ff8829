/**
 * The manual "driver" (`--manual`): nothing to start. A person opens the printed URL in any
 * browser (a phone on the LAN, Safari on a Mac); the page runs the plan and reports to the
 * collector like any other. This only waits for the session to end, or for Ctrl-C.
 */
import type { BrowserSession, RunEnd } from '../server/session.ts';
import { once } from './driver.ts';

export async function driveManual(session: BrowserSession, signal: AbortSignal): Promise<RunEnd> {
  // The page keeps running in that browser: there is no way to stop it from here.
  const stop = once(signal, () =>
    session.end({
      kind: 'cancelled',
      message: 'cancelled (Ctrl-C or SIGTERM); the page may still be running in that browser',
    }),
  );
  try {
    return await session.ended;
  } finally {
    stop();
  }
}
