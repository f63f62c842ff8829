/**
 * JSON export: the results document exactly as the schema defines it, so any reader that calls
 * `parseResults` can load it back. Several documents are written as a JSON array of documents,
 * the form `npm run merge` writes and every reader here accepts. Pure: no DOM, no I/O.
 */
import type { ResultsFile } from '../core/results/results.ts';
import { CHUNK_CHARS, joined } from './cells.ts';

/** Pretty-printed (2-space) with a final newline, so files diff cleanly line by line. */
export function toJson(results: ResultsFile | readonly ResultsFile[]): string {
  return joined(jsonChunks(results));
}

/** An open array or object: its entries, and how far the writing is through them. */
interface Level {
  keys: string[] | null;
  of: Record<string, unknown>;
  at: number;
  indent: string;
}

/**
 * `JSON.stringify(value, null, 2)` and a newline, a piece at a time: a file at the readers' caps
 * (millions of numbers, nested deep) pretty-prints to hundreds of MB, which one string would hold
 * next to the bytes written from it. Walks with a stack of its own, not by recursion.
 */
export function* jsonChunks(value: unknown): Generator<string> {
  const stack: Level[] = [];
  let text = open(stack, value, '', '');
  while (stack.length > 0) {
    const level = stack.at(-1) as Level;
    const size = level.keys ? level.keys.length : (level.of as unknown as unknown[]).length;
    if (level.at < size) {
      const inner = `${level.indent}  `;
      const key = level.keys ? (level.keys[level.at] as string) : String(level.at);
      text += `${level.at > 0 ? ',' : ''}\n${inner}${level.keys ? `${JSON.stringify(key)}: ` : ''}`;
      level.at++;
      text += open(stack, level.of[key], inner, key);
    } else {
      text += `\n${level.indent}${level.keys ? '}' : ']'}`;
      stack.pop();
    }
    if (text.length >= CHUNK_CHARS) {
      yield text;
      text = '';
    }
  }
  yield `${text}\n`;
}

/** A value's text where it is a leaf; for a list or an object with entries, its opening, with a level pushed for them. */
function open(stack: Level[], raw: unknown, indent: string, key: string): string {
  const value = toJsonValue(raw, key);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    stack.push({ keys: null, of: value as unknown as Record<string, unknown>, at: 0, indent });
    return '[';
  }
  if (value !== null && typeof value === 'object') {
    const of = value as Record<string, unknown>;
    // The properties JSON.stringify writes: none that is undefined, a function or a symbol.
    const keys = Object.keys(of).filter((k) => isWritten(toJsonValue(of[k], k)));
    if (keys.length === 0) return '{}';
    stack.push({ keys, of, at: 0, indent });
    return '{';
  }
  // In a list, what JSON.stringify leaves out of an object is written as null.
  return isWritten(value) ? JSON.stringify(value) : 'null';
}

const isWritten = (v: unknown) =>
  v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';

/** A value as JSON.stringify sees it: through its toJSON method, where it has one (a Date). */
function toJsonValue(v: unknown, key: string): unknown {
  const method =
    v !== null && typeof v === 'object' ? (v as { toJSON?: unknown }).toJSON : undefined;
  return typeof method === 'function' ? (method as (key: string) => unknown).call(v, key) : v;
}
