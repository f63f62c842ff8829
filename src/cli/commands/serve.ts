/**
 * `storebench serve` (`npm start`): build the page, with the adapters of a storebench.config.json
 * when there is one, and serve it cross-origin isolated on 127.0.0.1 until Ctrl-C. Open the
 * printed URL in any browser on this machine. Its flags (--port, --config) are read here.
 */
import { rmSync } from 'node:fs';
import { ArgsError, flagText, scanFlags } from '../args/flags.ts';
import { ConfigError, readConfig } from '../args/config-file.ts';
import { isEntry, PROCESS_IO, runEntry, type CommandIo } from '../args/command-io.ts';
import { buildPage, REPO_ROOT } from '../build/build-page.ts';
import { NO_ADDITIONS, pagePlugins } from '../build/page-plugins.ts';
import { loadVocabulary } from '../build/vocabulary.ts';
import { makeTempFolder } from '../files/temp.ts';
import { startServer } from '../server/page-server.ts';
import { quoted } from '../../core/base/shown.ts';

export interface ServeArgs {
  help: boolean;
  port: number;
  /** --config FILE: the storebench.config.json whose adapters the page is built with. */
  config: string | undefined;
}

export const DEFAULT_SERVE_PORT = 4173;

/** Flags of `storebench serve` (`npm start`): --port N, else $PORT, else 4173; --config FILE. */
export function parseServeArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ServeArgs {
  if (argv.includes('--help') || argv.includes('-h'))
    return { help: true, port: DEFAULT_SERVE_PORT, config: undefined };
  const flags = scanFlags(argv, {
    port: { kind: 'value', example: '4173' },
    config: { kind: 'value', example: 'storebench.config.json' },
  });
  const config = flagText(flags, 'config');
  const fromFlag = flagText(flags, 'port');
  const text = fromFlag ?? env.PORT;
  if (text === undefined || text === '') return { help: false, port: DEFAULT_SERVE_PORT, config };
  const source = fromFlag !== undefined ? '--port' : 'PORT';
  if (!/^\d+$/.test(text.trim()) || Number(text) > 65535)
    throw new ArgsError(
      `${source}: ${quoted(text)} is not a port; allowed: 0 to 65535 (0 picks a free one)`,
    );
  return { help: false, port: Number(text), config };
}

export const SERVE_USAGE = [
  'Usage: storebench serve [--port N] [--config FILE]   (npm start [-- --port N] in storebench)',
  '',
  'Builds the page, with the adapters of ./storebench.config.json when there is one, and serves it',
  'cross-origin isolated on 127.0.0.1 until Ctrl-C.',
  `  --port N       port (default: $PORT, else ${DEFAULT_SERVE_PORT}); 0 picks a free one`,
  '  --config FILE  the config whose adapters the page is built with (default: ./storebench.config.json)',
].join('\n');

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
