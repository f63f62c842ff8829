/**
 * Whether a value a module exports is a StoreAdapter (adapter.ts), checked where no type checker
 * runs: an adapter of a store author's own, loaded from their repository. Pure: the CLI checks
 * each export this way before it builds anything, and says what a near miss lacks.
 */
import { BACKENDS } from './adapter.ts';
import { CAPABILITY_IDS } from './capabilities.ts';

/** Ids a plan, a URL and a results file carry: no `@` (variants) and no `,` (lists). */
const ADAPTER_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** Looks meant as an adapter: an object with an `id` and an `open`; such an export is checked in full. */
export function looksLikeAdapter(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    'id' in value &&
    typeof (value as { open?: unknown }).open === 'function'
  );
}

/** What keeps `value` from being a StoreAdapter, one phrase each; none when it is one. */
export function adapterProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return ['not an object'];
  const a = value as Record<string, unknown>;
  const problems: string[] = [];
  // `constructor` fits the pattern, but names a member every plain object has: not an id.
  if (typeof a.id !== 'string' || !ADAPTER_ID.test(a.id) || a.id in Object.prototype)
    problems.push(
      `id: ${JSON.stringify(a.id)} is not an id (lower-case letters, digits, ".", "_" and "-", up to 64, no "@" or ",", and not a name like "constructor" that every object has)`,
    );
  if (typeof a.label !== 'string' || a.label.trim() === '') problems.push('label: not a text');
  if (!BACKENDS.includes(a.backend as never))
    problems.push(`backend: ${JSON.stringify(a.backend)}; allowed: ${BACKENDS.join(', ')}`);
  const caps = a.capabilities;
  if (!Array.isArray(caps)) problems.push('capabilities: not a list');
  else {
    const unknown = caps.filter((c) => !CAPABILITY_IDS.includes(c as never));
    if (unknown.length > 0)
      problems.push(
        `capabilities: unknown ${unknown.map((c) => JSON.stringify(c)).join(', ')}; allowed: ${CAPABILITY_IDS.join(', ')}`,
      );
  }
  for (const method of ['supported', 'open', 'destroy'])
    if (typeof a[method] !== 'function') problems.push(`${method}(): not a function`);
  return problems;
}
