/**
 * Where JSON.parse stopped, never what it read there. V8's message quotes the text around the
 * fault, raw newlines and all, and a file that is not JSON (a `.env`, a key, a config symlinked to
 * another file) then has its content printed: a message says the line and column instead.
 */

/** V8 shows this many characters either side of the fault in its excerpt. */
const CONTEXT = 10;

/** The offset JSON.parse stopped at, from its message, or null when the message does not say. */
function faultOffset(message: string, text: string): number | null {
  const at = /at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  if (/end of JSON input/.test(message)) return text.length;
  const excerpt = /, (\.\.\.)?"([\s\S]*)"(?:\.\.\.)? is not valid JSON$/.exec(message);
  if (!excerpt) return null;
  const start = text.indexOf(excerpt[2] as string);
  if (start < 0) return null;
  if (excerpt[1]) return start + CONTEXT;
  const token = /^Unexpected token '([\s\S])'/.exec(message)?.[1];
  return start + Math.max(0, token === undefined ? 0 : (excerpt[2] as string).indexOf(token));
}

/** `(at line L, column C)` of a JSON.parse failure on `text`, for "not JSON …". */
export function jsonWhere(e: unknown, text: string): string {
  const offset = faultOffset(e instanceof Error ? e.message : String(e), text);
  if (offset === null) return '(at a place JSON.parse does not say)';
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `(at line ${line}, column ${offset - before.lastIndexOf('\n')})`;
}

/**
 * How deep the text's arrays and objects nest, counted on the text so that JSON.parse and the
 * recursive checks after it never see a value that would overflow the stack.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}
