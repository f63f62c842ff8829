/**
 * `storebench COMMAND ...`: the installed command (bin/storebench.js runs this under tsx). It
 * loads only the command named, so a mistyped one costs nothing, and passes it the rest of the
 * arguments. In storebench's own checkout the `npm run` scripts are aliases of these.
 */
import { PROCESS_IO, runEntry } from './args/command-io.ts';
import { own } from '../core/base/own.ts';

interface Command {
  /** One line for the list of commands. */
  what: string;
  run: (argv: readonly string[]) => Promise<number>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  sweep: {
    what: 'build and serve the page, run the plan in each browser, write results (sweep --help)',
    run: async (argv) => (await import('./commands/sweep/main.ts')).sweepCommand(argv, PROCESS_IO),
  },
  check: {
    what: 'run the adapter contract on stores in each browser, before any timing',
    run: async (argv) => (await import('./commands/check/main.ts')).checkCommand(argv, PROCESS_IO),
  },
  init: {
    what: 'write a starter storebench.config.json and an adapter skeleton',
    run: async (argv) => (await import('./commands/init.ts')).initCommand(argv, PROCESS_IO),
  },
  study: {
    what: 'rerun a published study and write its report',
    run: async (argv) => {
      const { studyCommand } = await import('./commands/study/main.ts');
      return studyCommand(argv, PROCESS_IO);
    },
  },
  compare: {
    what: 'per case, the change of the median between two results files: the regression gate',
    run: async (argv) => {
      const { compareCommand } = await import('./commands/compare.ts');
      return compareCommand(argv, PROCESS_IO);
    },
  },
  merge: {
    what: 'join shard files and files from other machines into one results set',
    run: async (argv) => {
      const { mergeCommand } = await import('./commands/merge.ts');
      return mergeCommand(argv, PROCESS_IO);
    },
  },
  export: {
    what: 'results files as CSV, TSV, XLSX, JSON or Bencher Metric Format',
    run: async (argv) => {
      const { exportCommand } = await import('./commands/export.ts');
      return exportCommand(argv, PROCESS_IO);
    },
  },
  browsers: {
    what: 'list the browsers found and how each is driven',
    run: async (argv) => (await import('./commands/browsers.ts')).browsersCommand(argv, PROCESS_IO),
  },
  serve: {
    what: 'build the page (with your adapters) and serve it until Ctrl-C',
    run: async (argv) => (await import('./commands/serve.ts')).serveCommand(argv, PROCESS_IO),
  },
  history: {
    what: 'results files as series over commits or dates, with change points',
    run: async (argv) => {
      const { historyCommand } = await import('./commands/history.ts');
      return historyCommand(argv, PROCESS_IO);
    },
  },
  site: {
    what: 'a static site of the page with results files bundled in',
    run: async (argv) => {
      const { siteCommand } = await import('./commands/site.ts');
      return siteCommand(argv, PROCESS_IO);
    },
  },
  calibrate: {
    what: "run the same --ab sweep N times per browser: the gate's false alarms and power",
    run: async (argv) => {
      const { calibrateCommand } = await import('./commands/calibrate.ts');
      return calibrateCommand(argv, PROCESS_IO);
    },
  },
};

const USAGE = [
  'Usage: storebench COMMAND [flags]   (COMMAND --help says more)',
  '',
  ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.what}`),
  '',
  "In a store's repository: npx storebench init, then npx storebench check, then npx storebench sweep.",
].join('\n');

/** Dispatch to the command named first; 2 with the list of commands when there is none or it is unknown. */
export async function storebench(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    PROCESS_IO.stdout(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  const command = own(COMMANDS, name);
  if (!command) {
    PROCESS_IO.stderr(
      `storebench: unknown command "${name}"; allowed: ${Object.keys(COMMANDS).join(', ')}\n`,
    );
    return 2;
  }
  return command.run(rest);
}

runEntry('storebench', storebench);
