// Values as a message quotes them (src/core/base/shown.ts).
import { describe, expect, it } from 'vitest';
import { clipped, quoted, SHOWN_CHARS } from '../../../../src/core/base/shown.ts';

describe('quoted, clipped', () => {
  it('cuts a long value to SHOWN_CHARS, never inside a character', () => {
    expect(quoted('abc')).toBe('"abc"');
    const long = 'x'.repeat(100_000);
    expect(quoted(long)).toBe(`"${'x'.repeat(SHOWN_CHARS)}…" (100000 characters)`);
    // An astral character across the cut: its two halves stay together, or both go.
    const astral = `${'x'.repeat(SHOWN_CHARS - 1)}😀${'x'.repeat(10)}`;
    expect(clipped(astral)).toBe(`${'x'.repeat(SHOWN_CHARS - 1)}… (${astral.length} characters)`);
  });
});
