/**
 * What `import type { ... } from 'storebench'` gives a store author: the adapter contract
 * (src/core/store/adapter.ts) and the names it uses. Types only: `npm pack` writes their declarations
 * into types/ (npm run types), and the package exports nothing that runs.
 */
export type {
  Backend,
  Doc,
  Durability,
  FieldCondition,
  FindQuery,
  KeyRange,
  OpenOptions,
  Scalar,
  StoreAdapter,
  StoreHandle,
  ViewQuery,
  ViewRow,
} from './core/store/adapter.ts';
export type { Capability } from './core/store/capabilities.ts';
export type { VariantBuild, Wraps } from './core/plan/variant.ts';
