// src/adapters/web-storage/session-storage.ts: sessionStorage with JSON, the smallest complete adapter.
// It is the README's example (a unit test keeps the two identical) and is not in the registry,
// where it would add a near-copy of the localStorage rows to every result.
import type { Doc, StoreAdapter } from '../../core/store/adapter.ts';

export const sessionStorageAdapter: StoreAdapter = {
  id: 'session-storage',
  label: 'sessionStorage (JSON)',
  backend: 'other',
  // Declare only what the store really does; cases needing anything else become `unsupported`.
  capabilities: ['count'],
  supported: () =>
    typeof sessionStorage === 'undefined'
      ? 'sessionStorage is not available here (never in a Worker)'
      : true,
  async open(name) {
    const prefix = `${encodeURIComponent(name)}/`;
    const keys = () => Object.keys(sessionStorage).filter((k) => k.startsWith(prefix));
    let open = true;
    const live = () => {
      if (!open) throw new Error(`${name} is closed`);
      return sessionStorage;
    };
    return {
      put: async (doc) => live().setItem(prefix + doc._id, JSON.stringify(doc)),
      get: async (id) => {
        const text = live().getItem(prefix + id);
        return text === null ? undefined : (JSON.parse(text) as Doc);
      },
      count: async () => (live(), keys().length),
      close: async () => {
        open = false;
      },
      destroy: async () => {
        open = false;
        for (const k of keys()) sessionStorage.removeItem(k);
      },
    };
  },
  async destroy(name) {
    const prefix = `${encodeURIComponent(name)}/`;
    for (const k of Object.keys(sessionStorage))
      if (k.startsWith(prefix)) sessionStorage.removeItem(k);
  },
};
