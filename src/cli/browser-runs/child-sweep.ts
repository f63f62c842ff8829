/**
 * A sweep as a child process, for the commands that run several (study, calibrate): its output
 * goes to this terminal, and SIGINT and SIGTERM to this process reach it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../build/build-page.ts';
import { tsxImport } from '../build/tsx.ts';

/** Run `npm run sweep -- ARGV`; its exit code (1 when a signal ended it). */
export function runSweepChild(argv: readonly string[]): Promise<number> {
  return new Promise((resolveCode) => {
    const child = spawn(
      process.execPath,
      [...tsxImport(), join(REPO_ROOT, 'src/cli/commands/sweep/main.ts'), ...argv],
      { cwd: REPO_ROOT, stdio: 'inherit' },
    );
    const relay = (sig: NodeJS.Signals) => child.kill(sig);
    process.on('SIGINT', relay);
    process.on('SIGTERM', relay);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', relay);
      process.off('SIGTERM', relay);
      resolveCode(code ?? (signal ? 1 : 0));
    });
  });
}
