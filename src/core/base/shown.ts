/**
 * A value as a message quotes it. Plans, flags and file names come from users and files, and a
 * 100 kB flag value echoed two or three times made 300 kB of stderr: a message shows at most
 * SHOWN_CHARS characters of a value and then its length, enough to recognise it.
 */

/** The most characters of one value a message shows. */
export const SHOWN_CHARS = 200;

/** The first `max` characters, never half a surrogate pair (which prints as a replacement mark). */
function head(text: string, max: number): string {
  return text.slice(0, /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max);
}

/** The value itself when short, else its first SHOWN_CHARS characters, `…` and its length. */
export function clipped(text: string, max = SHOWN_CHARS): string {
  return text.length <= max ? text : `${head(text, max)}… (${text.length} characters)`;
}

/** The value in double quotes, cut as clipped() cuts it: `"abc"`, or `"abc…" (100000 characters)`. */
export function quoted(text: string, max = SHOWN_CHARS): string {
  return text.length <= max ? `"${text}"` : `"${head(text, max)}…" (${text.length} characters)`;
}
