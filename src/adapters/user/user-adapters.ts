import type { StoreAdapter } from '../../core/store/adapter.ts';

/**
 * The adapters of a store's own repository, from its storebench.config.json: empty as written
 * here, for `npm start`, `npm run dev` and the tests. A command that reads a config builds the
 * page with this module replaced by those adapters, each imported from its module, and each build
 * of one from a git ref (src/cli/build/user-adapters-plugin.ts); the registry lists them after its own.
 */
export const USER_ADAPTERS: readonly StoreAdapter[] = [];
