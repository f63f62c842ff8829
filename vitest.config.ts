import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import page from './vite.config.ts';

// The page's config plus the unit tests': vite.config.ts stays free of vitest, which an installed
// storebench (a runtime dependency of a store's repository) does not have.
export default mergeConfig(
  page,
  defineConfig({
    test: {
      // Every unit test, fast and slow. A test that waits out a real time limit or builds a huge
      // input lives in a file named *.slow.test.ts: npm test and CI run it, npm run test:fast
      // excludes it (package.json), so the quick loop stays quick. Where a limit can be set lower
      // (docs/flags.md, "Time limits"), the fast file checks the behaviour at a low limit and one
      // slow test checks the default.
      include: ['tests/unit/**/*.test.ts'],
      environment: 'node',
      // Some tests start the CLI as a child process (node with tsx), which takes seconds on a busy
      // 2-core machine: a limit of 5 s failed them there while nothing was wrong. No test asserts a time.
      testTimeout: 60_000,
      // A worker per core, not vitest's cores − 1 (one worker on a 2-core machine): many tests
      // wait on real timers or child processes, and a second worker fills that time. Measured on
      // the 2-core machine here (docs/figures.md): the fast files took 127 s in one worker, 81 s
      // in two, 77 s in three, which loaded the machine past what its timing tests bear.
      maxWorkers: availableParallelism(),
      // The test files of one worker share its module graph instead of importing every module
      // again (the registries load each store library): 106 s → 81 s for the fast files. So no
      // test may rely on a module's state being fresh, nor leave process state changed (an env
      // variable, TMPDIR) after it. Forks, not threads (77 s): a test's child processes, signal
      // handlers and environment stay in a process of its own.
      pool: 'forks',
      isolate: false,
    },
  }),
);
