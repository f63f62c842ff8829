import { describe, expect, it } from 'vitest';
import {
  listedFew,
  printable,
  printableField,
  SHOWN_ITEMS,
} from '../../../../src/cli/terminal/escape.ts';

/** Characters that reorder or break a printed line without being seen. */
const BIDI = [
  '\u061c',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
];
const SEPARATORS = ['\u2028', '\u2029'];
const hex = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

describe('terminal text', () => {
  for (const [name, print] of [
    ['printable', printable],
    ['printableField', printableField],
  ] as const) {
    it(`${name} escapes every bidi control, the line and paragraph separators and U+FEFF`, () => {
      for (const c of [...BIDI, ...SEPARATORS, '\ufeff']) {
        const out = print(`memory${c}evil`);
        expect(out, hex(c)).toBe(`memory${hex(c)}evil`);
      }
      // "Trojan Source": an adapter id that would print as "idb-evil" reversed.
      expect(print('idb\u202elive-\u202c')).toBe('idb\\u202elive-\\u202c');
    });

    it(`${name} still escapes C0 and C1 controls and DEL`, () => {
      expect(print('a\u001b]0;x\u0007b\u007fc\u009bd')).toBe(
        'a\\u001b]0;x\\u0007b\\u007fc\\u009bd',
      );
    });

    it(`${name} leaves ordinary text of any script alone`, () => {
      for (const text of ['chromium 142 × 3', 'مرحبا', 'שלום', '日本語', 'emoji 👩‍💻 joined', 'café'])
        expect(print(text)).toBe(text);
    });
  }

  it('printable keeps newlines (CRLF becomes LF); printableField escapes them', () => {
    expect(printable('a\r\nb\nc\rd')).toBe('a\nb\nc\\u000dd');
    expect(printableField('a\nb')).toBe('a\\u000ab');
  });
});

describe('terminal text - listedFew', () => {
  it('shows a short list whole', () => {
    expect(listedFew([])).toBe('');
    expect(listedFew(['a', 'b', 'c', 'd', 'e'])).toBe('a, b, c, d, e');
  });

  it('shows the first few of a long list and how many more, whatever its length', () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `browser-${i}`);
    expect(listedFew(names)).toBe(
      'browser-0, browser-1, browser-2, browser-3, browser-4 and 19,995 more',
    );
    expect(listedFew(names.slice(0, SHOWN_ITEMS + 1))).toMatch(/ and 1 more$/);
    expect(listedFew(names, 2)).toBe('browser-0, browser-1 and 19,998 more');
  });
});
