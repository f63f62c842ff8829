/**
 * Text from a file on its way to a terminal. A results file is input like any other: a browser
 * name or adapter id holding ESC or OSC sequences would otherwise set the terminal's title,
 * clear the screen or overwrite a printed line, and one holding a bidi control would print
 * reordered ("Trojan Source", CVE-2021-42574). Every such character becomes a visible escape, so
 * nothing below 0x20 but the newlines the tool itself prints reaches the terminal. A list from
 * elsewhere is bounded in count as a value is in length (core/base/shown.ts): a grid offering
 * 20,000 browser names made one 900 kB line.
 */

// C0 controls, DEL, the C1 controls (0x80-0x9f, which some terminals obey as ESC sequences); the
// bidi controls (ALM U+061C, LRM/RLM U+200E-F, LRE..RLO U+202A-E, LRI..PDI U+2066-9); the line
// and paragraph separators U+2028-9 (a line break to some terminals and editors); and U+FEFF, an
// invisible zero-width no-break space that makes two different names print alike.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;
const CONTROL_BUT_NEWLINE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** One field of file text (a name, a cell): every control character escaped, newlines included. */
export function printableField(text: string): string {
  return text.replace(CONTROL, escape);
}

/** A whole block of output: control characters escaped, newlines kept (a CRLF line ending becomes LF). */
export function printable(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL_BUT_NEWLINE, escape);
}

/** The most items of a list from elsewhere (a grid's browsers) that one line shows. */
export const SHOWN_ITEMS = 5;

/** A list from elsewhere as one line: its first `shown` items, then how many more there are. */
export function listedFew(items: readonly string[], shown = SHOWN_ITEMS): string {
  if (items.length <= shown) return items.join(', ');
  return `${items.slice(0, shown).join(', ')} and ${(items.length - shown).toLocaleString('en-US')} more`;
}
