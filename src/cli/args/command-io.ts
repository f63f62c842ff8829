/**
 * What every command-line entry point shares: where its text goes, whether the module was run
 * directly (so tests can import the command without running it), and turning the command's
 * result into an exit code without losing an unexpected failure.
 */
import { pathToFileURL } from 'node:url';
import { printable } from '../terminal/escape.ts';
import { ArgsError, scanFlags } from './flags.ts';

export interface CommandIo {
  /** Messages and reports. */
  stdout(text: string): void;
  stderr(text: string): void;
  /** Data on stdout (an export without --out); defaults to `stdout`. */
  data?(text: string): void;
}

/**
 * The process's streams. Messages always pass through `printable`, wherever they go; data only
 * when stdout is a terminal, so a pipe or a redirect gets the exported bytes as they are.
 */
export const PROCESS_IO: Required<CommandIo> = {
  stdout: (text) => process.stdout.write(printable(text)),
  stderr: (text) => process.stderr.write(printable(text)),
  data: (text) => process.stdout.write(process.stdout.isTTY ? printable(text) : text),
};

/** True when the module with this `import.meta.url` is the script Node was started with. */
export function isEntry(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;
}

/**
 * Run a command with the process's arguments and set the exit code from its result. A failure
 * the command did not expect is a bug: its message is printed, never a stack trace, and the
 * stack only with STOREBENCH_DEBUG=1. A command that needs no await may return its code at once:
 * the promise makes its throw a rejection like an async command's.
 */
export function runEntry(
  name: string,
  command: (argv: readonly string[]) => number | Promise<number>,
  argv: readonly string[] = process.argv.slice(2),
): void {
  new Promise<number>((resolve) => resolve(command(argv))).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      const detail = process.env.STOREBENCH_DEBUG
        ? e instanceof Error
          ? (e.stack ?? e.message)
          : String(e)
        : e instanceof Error
          ? e.message
          : String(e);
      PROCESS_IO.stderr(
        `${name}: unexpected failure (a bug; please report it, with STOREBENCH_DEBUG=1 for the stack): ${detail}\n`,
      );
      process.exitCode = 1;
    },
  );
}

/**
 * For a command that takes no flags but --help: the exit code when there is nothing more to do
 * (0 after printing `usage` for --help, 2 after saying what was wrong), or null to go on.
 */
export function helpOrNoFlags(
  name: string,
  usage: string,
  argv: readonly string[],
  io: CommandIo = PROCESS_IO,
): number | null {
  try {
    if (scanFlags(argv, {}).help) return (io.stdout(`${usage}\n`), 0);
  } catch (e) {
    if (!(e instanceof ArgsError)) throw e;
    io.stderr(`${name}: ${e.message}\n`);
    return 2;
  }
  return null;
}
