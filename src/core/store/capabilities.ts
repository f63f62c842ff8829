/**
 * The operations an adapter may declare. A case lists the ones it `needs`; the runner records the
 * case as `unsupported` on an adapter that lacks any of them, instead of silently skipping it.
 */
export const CAPABILITIES = {
  bulkWrite: 'write many documents in one call',
  getMany: 'read many documents by id in one call',
  keyRange: 'read documents in _id order between two keys',
  skip: 'skip the first N documents of a key range natively',
  count: 'count documents without reading them',
  update: 'replace an existing document',
  bulkUpdate: 'replace many existing documents in one call',
  remove: 'remove a document',
  bulkRemove: 'remove many documents in one call',
  secondaryIndex: 'index and query a field other than _id',
  query: 'declarative queries with selectors (Mango)',
  mapReduce: 'map/reduce views, persisted and temporary',
  durability: 'choose the transaction durability (relaxed, strict, default)',
  worker: 'work inside a dedicated Worker',
} as const;

export type Capability = keyof typeof CAPABILITIES;

export const CAPABILITY_IDS = Object.keys(CAPABILITIES) as Capability[];

/** The capabilities in `needs` that `has` lacks, in the order they were asked for. */
export function missingCapabilities(
  needs: readonly Capability[],
  has: readonly Capability[],
): Capability[] {
  return needs.filter((c) => !has.includes(c));
}
