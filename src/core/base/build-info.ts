/**
 * Harness version and commit, stamped in at build time by vite.config.ts (`define`). Under
 * vitest or tsx they come from the same config or fall back to "dev"/"unknown".
 */
declare const __STOREBENCH_VERSION__: string | undefined;
declare const __STOREBENCH_COMMIT__: string | undefined;

export const HARNESS_VERSION: string =
  typeof __STOREBENCH_VERSION__ === 'string' ? __STOREBENCH_VERSION__ : 'dev';
export const HARNESS_COMMIT: string =
  typeof __STOREBENCH_COMMIT__ === 'string' ? __STOREBENCH_COMMIT__ : 'unknown';
