/**
 * What one results file may hold, so that no file under the byte cap can make a reader run out of
 * memory or time: caps on the items of a list, the numbers and values of a file, its rows, the
 * characters of a text, and its nesting. Checked twice, with the same JSON path and words: on the
 * text before JSON.parse builds anything (textFault: one pass over the characters), and on parsed
 * data, whatever it came from (valueFault). Each walks with a stack of its own, in document order,
 * so neither can overflow and both name the same first fault. No DOM, no Node.
 *
 * Every cap admits every file the harness writes with room to spare: it writes them pretty-printed,
 * at 20 bytes or more a value, so the 64 MiB byte cap alone keeps one under about 3 M values.
 */
import type { Fault } from './check.ts';

/** Items of one list, a row's samples among them: --iterations and --auto max-n go to 10,000 a row; 100 times that. */
const MAX_LIST_ITEMS = 1_000_000;
/** Numbers in a file: five rows at the list cap; a file the harness writes fits about 2.5 M in 64 MiB. */
const MAX_FILE_NUMBERS = 5_000_000;
/** Values of every kind in a file (numbers, texts, true, false, null, lists, objects): what JSON.parse builds; 6 M of them take about 600 MB at most. */
const MAX_FILE_VALUES = 6_000_000;
/** Rows in a file, over all its documents: a full sweep has 144 a browser, and a merge of a thousand such runs fits. */
const MAX_FILE_ROWS = 200_000;
/** Characters of a text (a browser name, a reason, a key): a reason is one line of an error, a user agent 150 characters. */
const MAX_TEXT_CHARS = 10_000;
/** Deepest nesting: a real document is 7 levels deep; 32 leaves room and keeps every reader's recursion safe. */
const MAX_DEPTH = 32;

const count = (n: number) => n.toLocaleString('en-US');
const ordinal = (n: number) =>
  `${count(n)}${n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;

/** The words of each fault, shared by both checks. */
const WHAT = {
  items: () =>
    `a list of more than ${count(MAX_LIST_ITEMS)} items; a list in a results file holds at most ${count(MAX_LIST_ITEMS)} (a row's samples)`,
  numbers: () =>
    `the ${ordinal(MAX_FILE_NUMBERS + 1)} number; a results file holds at most ${count(MAX_FILE_NUMBERS)} numbers`,
  values: () =>
    `the ${ordinal(MAX_FILE_VALUES + 1)} value; a results file holds at most ${count(MAX_FILE_VALUES)} values (numbers, texts, lists and objects)`,
  rows: () =>
    `the ${ordinal(MAX_FILE_ROWS + 1)} row; a results file holds at most ${count(MAX_FILE_ROWS)} rows over all its documents`,
  text: (chars: number, key: boolean) =>
    `a ${key ? 'key' : 'text'} of ${count(chars)} characters; a text in a results file holds at most ${count(MAX_TEXT_CHARS)}`,
  depth: () => `nested deeper than ${MAX_DEPTH} levels; a results document is far shallower`,
};

/** One open list or object: where its current item is. */
interface Frame {
  list: boolean;
  /** Items so far (a list) or the current key (an object). */
  items: number;
  key: string;
  /** A list of rows: `cases` of a document, or of a collector message's `results`. */
  rows: boolean;
}

/** The tallies both checks keep, and the first cap a value breaks. */
class Tally {
  readonly frames: Frame[] = [];
  constructor(private readonly texts = true) {}

  private values = 0;
  private numbers = 0;
  private rows = 0;

  /** A value at the current place; a fault when it breaks a cap. */
  value(number: boolean): Fault | null {
    const top = this.frames.at(-1);
    if (top?.list) {
      top.items++;
      if (top.items > MAX_LIST_ITEMS)
        return { path: this.path(this.frames.length - 1), what: WHAT.items() };
      if (top.rows && ++this.rows > MAX_FILE_ROWS) return { path: this.path(), what: WHAT.rows() };
    }
    if (++this.values > MAX_FILE_VALUES) return { path: this.path(), what: WHAT.values() };
    if (number && ++this.numbers > MAX_FILE_NUMBERS)
      return { path: this.path(), what: WHAT.numbers() };
    return null;
  }

  /** A list or an object opened at the current place (after `value`). */
  open(list: boolean): Fault | null {
    if (this.frames.length >= MAX_DEPTH) return { path: this.path(), what: WHAT.depth() };
    const up = this.frames.at(-1);
    // A document's rows are 2 levels down ($.cases), or 3 in a set or a message ($[0].cases, $.results.cases); a plan's cases are deeper.
    this.frames.push({
      list,
      items: 0,
      key: '',
      rows: list && up !== undefined && !up.list && up.key === 'cases' && this.frames.length <= 2,
    });
    return null;
  }

  /** A text at the current place, or a key of the innermost object (named by that object's path): a fault when it is too long. */
  text(chars: number, key: boolean): Fault | null {
    return chars > MAX_TEXT_CHARS && (this.texts || key)
      ? {
          path: this.path(key ? this.frames.length - 1 : this.frames.length),
          what: WHAT.text(chars, key),
        }
      : null;
  }

  /** The JSON path of the current place, through the first `depth` frames. */
  path(depth = this.frames.length): string {
    let out = '$';
    for (let i = 0; i < depth; i++) {
      const f = this.frames[i] as Frame;
      out += f.list
        ? `[${f.items - 1}]`
        : `.${/^[A-Za-z_$][\w$]*$/.test(f.key) ? f.key : JSON.stringify(f.key.length > 40 ? `${f.key.slice(0, 40)}…` : f.key)}`;
    }
    return out;
  }
}

/**
 * The first cap the JSON text breaks, before it is parsed: one pass over its characters, which
 * builds nothing but keys (each under MAX_TEXT_CHARS) and one frame per level. Text that is not
 * JSON is passed over as best it can be; JSON.parse then says what is wrong with it. Without
 * `texts`, long texts pass (what parsing one costs is its own length): for a collector message,
 * whose texts are not all a results file's.
 */
export function textFault(text: string, texts = true): Fault | null {
  const tally = new Tally(texts);
  let keyNext = false;
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = closingQuote(text, i);
      if (end < 0) return null;
      const key = keyNext;
      const fault =
        tally.text(textLength(text, i + 1, end), key) ?? (key ? null : tally.value(false));
      if (fault) return fault;
      if (key) (tally.frames.at(-1) as Frame).key = keyText(text, i, end);
      i = end + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      const fault = tally.value(false) ?? tally.open(c === 0x5b);
      if (fault) return fault;
      keyNext = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) tally.frames.pop();
    else if (c === 0x2c) keyNext = tally.frames.at(-1)?.list === false;
    else if (c === 0x3a) keyNext = false;
    else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      const fault = tally.value(true);
      if (fault) return fault;
      while (i + 1 < text.length && isNumberChar(text.charCodeAt(i + 1))) i++;
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      const fault = tally.value(false);
      if (fault) return fault;
      while (
        i + 1 < text.length &&
        text.charCodeAt(i + 1) >= 0x61 &&
        text.charCodeAt(i + 1) <= 0x7a
      )
        i++;
    } else if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return null;
    i++;
  }
  return null;
}

const isNumberChar = (c: number) =>
  (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

/** The index of the quote that closes the string opening at `start`; -1 when none does. */
function closingQuote(text: string, start: number): number {
  for (let at = start + 1; ;) {
    const q = text.indexOf('"', at);
    if (q < 0) return -1;
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === 0x5c) slashes++;
    if (slashes % 2 === 0) return q;
    at = q + 1;
  }
}

/** Characters of the string between `from` and `to` once its escapes are read, as String.length counts them. */
function textLength(text: string, from: number, to: number): number {
  let length = to - from;
  if (length <= MAX_TEXT_CHARS) return length;
  for (let at = text.indexOf('\\', from); at >= 0 && at < to; at = text.indexOf('\\', at)) {
    const skip = text.charCodeAt(at + 1) === 0x75 ? 6 : 2;
    length -= skip - 1;
    at += skip;
  }
  return length;
}

/** A key's text, escapes read. */
function keyText(text: string, open: number, close: number): string {
  const raw = text.slice(open + 1, close);
  return raw.includes('\\') ? (JSON.parse(text.slice(open, close + 1)) as string) : raw;
}

/** The first cap parsed data breaks, walking it in document order as textFault reads text. */
export function valueFault(data: unknown): Fault | null {
  const tally = new Tally();
  // Per open level: its values, and where the walk is in them.
  const open: { keys: string[] | null; values: unknown[] | Record<string, unknown>; at: number }[] =
    [];
  let next: unknown = data;
  for (;;) {
    const fault = visit(tally, next);
    if (fault) return fault;
    if (next !== null && typeof next === 'object') {
      const list = Array.isArray(next);
      open.push({ keys: list ? null : Object.keys(next), values: next as unknown[], at: 0 });
    }
    // The next value: the following item of the innermost level that has one.
    for (;;) {
      const level = open.at(-1);
      if (!level) return null;
      const size = level.keys ? level.keys.length : (level.values as unknown[]).length;
      if (level.at < size) {
        const key = level.keys?.[level.at];
        if (key !== undefined) {
          const long = tally.text(key.length, true);
          if (long) return long;
          (tally.frames.at(-1) as Frame).key = key;
        }
        next =
          key !== undefined
            ? (level.values as Record<string, unknown>)[key]
            : (level.values as unknown[])[level.at];
        level.at++;
        break;
      }
      open.pop();
      tally.frames.pop();
    }
  }
}

function visit(tally: Tally, v: unknown): Fault | null {
  if (typeof v === 'string') return tally.text(v.length, false) ?? tally.value(false);
  if (v === null || typeof v !== 'object') return tally.value(typeof v === 'number');
  return tally.value(false) ?? tally.open(Array.isArray(v));
}
