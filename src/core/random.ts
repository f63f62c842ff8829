/**
 * A seeded PRNG built only from 32-bit integer operations, so the same seed gives the same
 * sequence in every JavaScript engine and in Node. (Math.random cannot be seeded; float maths
 * such as Math.sin-based generators may differ in the last bit between engines.)
 * Algorithm: mulberry32, a well-known 32-bit generator with a full 2^32 period.
 */
export interface Rng {
  /** A uniform float in [0, 1). */
  next(): number;
  /** A uniform integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const nextU32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  const next = () => nextU32() / 4294967296;
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('pick() needs a non-empty array');
      return items[int(items.length)] as T;
    },
  };
}

/** Derive an independent seed for a sub-stream (e.g. one per chunk) from a seed and a label. */
export function deriveSeed(seed: number, label: string | number): number {
  // FNV-1a over the label, mixed with the seed: cheap, stable and integer-only.
  let h = (0x811c9dc5 ^ seed) >>> 0;
  const text = String(label);
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A new array with the items in seeded random order (Fisher-Yates). */
export function shuffled<T>(items: readonly T[], rng: Rng): T[] {
  const out = items.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
