import type { StoreAdapter } from '../../core/store/adapter.ts';

/** What a build puts on a store author's adapter: another id and label (a build from a git ref), and what identifies its code. */
export interface UserAdapterBuild {
  id?: string;
  label?: string;
  facts: Readonly<Record<string, string>>;
}

/**
 * The adapter as this page runs it: its own object underneath (so a class's methods keep their
 * `this`), with the build's id and label, and describe() giving the module and commit after what
 * the store says of itself. The results record them under environment.adapters[id].
 */
export function withBuild(adapter: StoreAdapter, build: UserAdapterBuild): StoreAdapter {
  const own = adapter.describe?.bind(adapter);
  const made = Object.create(adapter) as StoreAdapter & Record<string, unknown>;
  return Object.defineProperties(made, {
    id: { value: build.id ?? adapter.id, enumerable: true },
    label: { value: build.label ?? adapter.label, enumerable: true },
    describe: {
      value: async () => ({ ...(await own?.()), ...build.facts }),
      enumerable: true,
    },
  });
}
