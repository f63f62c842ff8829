/**
 * What a declared capability promises of a store's handle: the methods each capability
 * guarantees, a handle typed by a case's needs, and the runner's check that a handle has them.
 */
import type { StoreHandle } from './adapter.ts';
import type { Capability } from './capabilities.ts';

/** The StoreHandle methods that exist only on stores that declare a capability. */
export type OptionalMethod = {
  [M in keyof StoreHandle]-?: undefined extends StoreHandle[M] ? M : never;
}[keyof StoreHandle];

/**
 * The methods each capability guarantees: a case that needs the capability may call them, the
 * runner checks that the handle has them, and the contract test checks every adapter. Capabilities
 * that change how a method behaves (skip, count, durability, worker) guarantee none of their own.
 */
export const CAPABILITY_METHODS = {
  bulkWrite: ['bulkPut'],
  getMany: ['getMany'],
  keyRange: ['range'],
  skip: [],
  count: [],
  update: ['update'],
  bulkUpdate: ['bulkUpdate'],
  remove: ['remove'],
  bulkRemove: ['bulkRemove'],
  secondaryIndex: ['createIndex'],
  query: ['find', 'countWhere'],
  mapReduce: ['createView', 'queryView', 'queryTemp'],
  durability: [],
  worker: [],
} as const satisfies Record<Capability, readonly OptionalMethod[]>;

/** The methods the capabilities `C` guarantee, e.g. `'find' | 'countWhere'` for `query`. */
export type MethodsOf<C extends Capability> = (typeof CAPABILITY_METHODS)[C][number];

/** A handle with the methods of the capabilities `C` present; every other optional method stays optional. */
export type HandleFor<C extends Capability = never> = StoreHandle &
  Required<Pick<StoreHandle, MethodsOf<C>>>;

/** Whether the tuple `T` holds `C` in a place of its own: not in a union, not in an array of any length. */
type Holds<T, C> = T extends readonly [infer Head, ...infer Rest]
  ? [Head] extends [C]
    ? [C] extends [Head]
      ? true
      : Holds<Rest, C>
    : Holds<Rest, C>
  : false;

/**
 * The capabilities a `needs` list surely holds. `['query', 'secondaryIndex']` holds both;
 * `['query'] | ['query', 'secondaryIndex']` (a case that needs an index only sometimes) holds
 * `query` alone; a `Capability[]` of unknown length holds none.
 */
export type Guaranteed<Needs extends readonly Capability[]> = {
  [C in Capability]: false extends Holds<Needs, C> ? never : C;
}[Capability];

/** The methods `needs` guarantee that `handle` lacks, each with the capability that guarantees it. */
function missingMethods(
  handle: StoreHandle,
  needs: readonly Capability[],
): { capability: Capability; method: OptionalMethod }[] {
  return needs.flatMap((capability) =>
    CAPABILITY_METHODS[capability]
      .filter((method) => typeof handle[method] !== 'function')
      .map((method) => ({ capability, method })),
  );
}

/**
 * Narrow `handle` to the methods `needs` guarantee, after checking that it has them. `store` (an
 * adapter id) declared those capabilities, so a method it lacks is a bug of its adapter.
 */
export function assertMethods<const Needs extends readonly Capability[]>(
  handle: StoreHandle,
  needs: Needs,
  store: string,
): asserts handle is HandleFor<Guaranteed<Needs>> {
  const missing = missingMethods(handle, needs);
  if (missing.length === 0) return;
  const declared = [...new Set(missing.map((m) => m.capability))].join(', ');
  throw new Error(
    `${store} declares ${declared} but its handle has no ${missing.map((m) => `${m.method}()`).join(', ')}: an adapter must have every method of the capabilities it declares`,
  );
}
