/**
 * What the hostile-input tests start: a real TCP or HTTP server on a free local port, and the
 * sweep as a user runs it, without blocking this process (whose servers must go on answering, or
 * not). Not a test file itself.
 */
import { execFile } from 'node:child_process';
import type { createServer as createHttpServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

type AnyServer = Server | ReturnType<typeof createHttpServer>;

export function listening<T extends AnyServer>(server: T): Promise<T> {
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

export const port = (server: AnyServer) => (server.address() as AddressInfo).port;

/** The sweep with these flags and extra environment: its exit, what it printed and how long it took. */
export function sweepAsync(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; out: string; ms: number }> {
  const started = Date.now();
  return new Promise((ok) => {
    execFile(
      process.execPath,
      [join(ROOT, 'bin', 'storebench.js'), 'sweep', ...args],
      { cwd: ROOT, encoding: 'utf8', timeout: 90_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        ok({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          out: stdout + stderr,
          ms: Date.now() - started,
        }),
    );
  });
}
