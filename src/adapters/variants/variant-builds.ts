import type { BuiltVariant } from '../../core/plan/variant.ts';

/**
 * The variants this page was built with, by id (`idb@8.0.4`, `pouchdb-idb@file:...`). Empty as
 * written here, for `npm start`, `npm run dev` and the tests; a sweep that names such a variant
 * builds the page with this module replaced by the list of its variants, each loading its
 * packages from where the sweep put them (src/cli/build/variants-plugin.ts).
 */
export const VARIANT_BUILDS: Readonly<Record<string, BuiltVariant>> = {};
