/**
 * `storebench serve` (`npm start`): build the page, with the adapters of a storebench.config.json
 * when there is one, and serve it cross-origin isolated on 127.0.0.1 until Ctrl-C. Open the
 * printed URL in any browser on this machine.
 */
import { rmSync } from 'node:fs';
import { ArgsError } from '../args/flags.ts';
import { ConfigError, readConfig } from '../args/config-file.ts';
import { isEntry, PROCESS_IO, runEntry, type CommandIo } from '../args/command-io.ts';
import { parseServeArgs, SERVE_USAGE } from '../args/sweep-args.ts';
import { buildPage, REPO_ROOT } from '../build/build-page.ts';
import { NO_ADDITIONS, pagePlugins } from '../build/page-plugins.ts';
import { loadVocabulary } from '../build/vocabulary.ts';
import { makeTempFolder } from '../files/temp.ts';
import { startServer } from '../server/page-server.ts';

export async function serveCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const fail = (line: string) => io.stderr(`serve: ${line}\n`);
  let args;
  let config;
  try {
    args = parseServeArgs(argv, process.env);
    config = args.help ? null : readConfig(args.config);
  } catch (e) {
    if (!(e instanceof ArgsError) && !(e instanceof ConfigError)) throw e;
    return (fail(`${e.message} (see --help)`), 2);
  }
  if (args.help) return (io.stdout(`${SERVE_USAGE}\n`), 0);
  const vocab = await loadVocabulary(config).catch((e: unknown) => e as Error);
  if (vocab instanceof ConfigError) return (fail(vocab.message), 2);
  if (vocab instanceof Error) return (fail(vocab.message), 1);
  const dir = makeTempFolder('page');
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  try {
    io.stdout('storebench: building the page…\n');
    await buildPage(REPO_ROOT, dir, pagePlugins({ ...NO_ADDITIONS, user: vocab.user }));
    return await serveFolder(
      dir,
      args.port,
      vocab.user.map((u) => u.id),
      io,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function serveFolder(
  dir: string,
  port: number,
  user: readonly string[],
  io: CommandIo,
): Promise<number> {
  let server;
  try {
    server = await startServer({ root: dir, port });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const hint =
      code === 'EADDRINUSE'
        ? `; port ${port} is taken, pick another with --port N or PORT=N (0 picks a free one)`
        : '';
    io.stderr(`serve: could not listen on 127.0.0.1:${port}: ${(e as Error).message}${hint}\n`);
    return 1;
  }
  io.stdout(
    `storebench: serving the page${user.length > 0 ? ` with ${user.join(', ')}` : ''}, cross-origin isolated\n  ${server.origin}/\nCtrl-C stops it.\n`,
  );
  await new Promise<void>((ok) => {
    process.once('SIGINT', ok);
    process.once('SIGTERM', ok);
  });
  await server.close();
  return 0;
}

if (isEntry(import.meta.url)) runEntry('serve', (argv) => serveCommand(argv, PROCESS_IO));
