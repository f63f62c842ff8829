import { availableParallelism } from 'node:os';
import { defineConfig, mergeConfig } from 'vitest/config';
import page from './vite.config.ts';

// The page's config plus the unit tests': vite.config.ts stays free of vitest, which an installed
// storebench (a runtime dependency of a store's repository) does not have.
export default mergeConfig(
  page,
  defineConfig({
    test: {
      include: ['tests/unit/**/*.test.ts'],
      environment: 'node',
      // Some tests start the CLI as a child process (node with tsx), which takes seconds on a busy
      // 2-core machine: a limit of 5 s failed them there while nothing was wrong. No test asserts a time.
      testTimeout: 60_000,
      // A worker per core, not vitest's cores − 1 (one worker on a 2-core machine): many tests
      // wait on real timers or child processes, and a second worker fills that time.
      maxWorkers: availableParallelism(),
    },
  }),
);
