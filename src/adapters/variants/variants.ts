import type { StoreAdapter } from '../../core/store/adapter.ts';
import { parseVariant, VariantError, type Wraps } from '../../core/plan/variant.ts';
import { instrumentAdapter } from './instrument.ts';
import { VARIANT_BUILDS } from './variant-builds.ts';

/** Each variant's adapter, made once: the runner asks for it by id many times. */
const made = new Map<string, StoreAdapter>();

/** What each registered adapter wraps, for the plan's vocabulary. */
export function wrapsOf(adapters: readonly StoreAdapter[]): Record<string, Wraps> {
  return Object.fromEntries(adapters.flatMap((a) => (a.wraps ? [[a.id, a.wraps]] : [])));
}

/**
 * The adapter of a variant id (core/plan/variant.ts) over the registered ones: an instrument over its
 * store, or the store on the build this page was built with. Throws RangeError saying why not.
 */
export function variantAdapter(id: string, registered: readonly StoreAdapter[]): StoreAdapter {
  const known = made.get(id);
  if (known) return known;
  let parsed;
  try {
    parsed = parseVariant(
      id,
      registered.map((a) => a.id),
      wrapsOf(registered),
    );
  } catch (e) {
    if (e instanceof VariantError)
      throw new RangeError(`unknown adapter "${id}": ${e.message}`, { cause: e });
    throw e;
  }
  const base = registered.find((a) => a.id === parsed.base) as StoreAdapter;
  const adapter =
    parsed.spec.kind === 'instrument'
      ? instrumentAdapter(base, parsed.spec.percent)
      : parsed.spec.kind === 'twin'
        ? twinAdapter(base)
        : built(parsed.id, base);
  made.set(parsed.id, adapter);
  return adapter;
}

/**
 * The store under a second name, `X@twin`: the very same adapter, module and build, so an A/A
 * (`--ab X,X`) differs between its sides only in their position in each pair and their databases.
 */
function twinAdapter(base: StoreAdapter): StoreAdapter {
  return { ...base, id: `${base.id}@twin`, label: `${base.label}, again (an A/A on one build)` };
}

function built(id: string, base: StoreAdapter): StoreAdapter {
  const build = VARIANT_BUILDS[id];
  if (!build || !base.variant) {
    throw new RangeError(
      `this page was built without the variant ${id}: a sweep builds it beside the installed ${base.id} (npm run sweep -- --adapters ${base.id},${id})`,
    );
  }
  const adapter = base.variant({ ...build, id });
  // What identifies the build (its package, version, folder or integrity), after what the store says of itself.
  return {
    ...adapter,
    describe: async () => ({ ...(await adapter.describe?.()), ...build.facts }),
  };
}
