/**
 * What every command-line entry point shares: where its text goes, whether the module was run
 * directly (so tests can import the command without running it), and turning the command's
 * result into an exit code without losing an unexpected failure.
 */
import { pathToFileURL } from 'node:url';

export interface CommandIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const PROCESS_IO: CommandIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** True when the module with this `import.meta.url` is the script Node was started with. */
export function isEntry(moduleUrl: string): boolean {
  return process.argv[1] !== undefined && moduleUrl === pathToFileURL(process.argv[1]).href;
}

/** Run a command with the process's arguments and set the exit code from its result. */
export function runEntry(name: string, command: (argv: readonly string[]) => Promise<number>): void {
  command(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`${name}: unexpected failure: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
