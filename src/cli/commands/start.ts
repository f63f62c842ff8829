/**
 * `npm start`: serve the built page (dist/) cross-origin isolated on 127.0.0.1 until Ctrl-C.
 * package.json builds it first. Open the printed URL in any browser on this machine.
 */
import { ArgsError, parseServeArgs, SERVE_USAGE } from '../args/sweep-args.ts';
import { DIST_DIR, distExists } from '../build/build-page.ts';
import { startServer } from '../server/page-server.ts';

async function serve(argv: readonly string[]): Promise<number> {
  let args;
  try {
    args = parseServeArgs(argv, process.env);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    process.stderr.write(`serve: ${e.message} (see --help)\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${SERVE_USAGE}\n`);
    return 0;
  }
  if (!distExists()) {
    process.stderr.write(
      `serve: ${DIST_DIR} has no index.html; build the page first (npm run build), or use npm start, which does\n`,
    );
    return 1;
  }
  let server;
  try {
    server = await startServer({ root: DIST_DIR, port: args.port });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const hint =
      code === 'EADDRINUSE'
        ? `; port ${args.port} is taken, pick another with --port N or PORT=N (0 picks a free one)`
        : '';
    process.stderr.write(
      `serve: could not listen on 127.0.0.1:${args.port}: ${(e as Error).message}${hint}\n`,
    );
    return 1;
  }
  process.stdout.write(
    `storebench: serving ${DIST_DIR}, cross-origin isolated\n  ${server.origin}/\nCtrl-C stops it.\n`,
  );
  await new Promise<void>((ok) => {
    process.once('SIGINT', ok);
    process.once('SIGTERM', ok);
  });
  await server.close();
  return 0;
}

serve(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(
      `serve: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    process.exitCode = 1;
  },
);
