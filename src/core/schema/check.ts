/**
 * Checking a value against a JSON Schema object, for the keywords results/schema uses (KEYWORDS;
 * a unit test holds the published schema to them): a verdict, and the first fault in document
 * order as a JSON path (`$.cases[3].samples[2]`) with one line of what was expected. Knows no
 * field of its own: a caller's `Says` words the faults a bare "expected a number" would not
 * explain. Array items are visited in a loop and recursion follows the schema, never the data,
 * so no file can overflow the stack. No eval, no DOM, no Node.
 *
 * Not TypeBox's Value.Check: that would load TypeBox's 250 modules into every command (about half
 * a second more through tsx) and 28 kB into the page, and this checks the published file itself.
 */

/** A JSON Schema node, with the keywords this checks. */
export interface SchemaNode {
  type?: 'object' | 'array' | 'string' | 'number' | 'integer' | 'boolean' | 'null';
  const?: unknown;
  anyOf?: readonly SchemaNode[];
  not?: SchemaNode;
  minimum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  items?: SchemaNode | readonly SchemaNode[];
  additionalItems?: boolean;
  properties?: Readonly<Record<string, SchemaNode>>;
  required?: readonly string[];
  patternProperties?: Readonly<Record<string, SchemaNode>>;
  /** Only `false`: no key beyond `properties` and `patternProperties` (a config file's typo is an error). */
  additionalProperties?: boolean;
}

/** The keywords checked above, and those that only describe. */
export const KEYWORDS: readonly string[] = [
  ...[
    'type',
    'const',
    'anyOf',
    'not',
    'minimum',
    'exclusiveMinimum',
    'exclusiveMaximum',
    'minLength',
    'pattern',
  ],
  ...[
    'minItems',
    'maxItems',
    'items',
    'additionalItems',
    'properties',
    'required',
    'patternProperties',
    'additionalProperties',
  ],
  ...['$schema', '$id', 'title', 'description'],
];

/** Wording for a fault at `path` (array indexes as `[]`), or undefined for the usual one. `got` is the value as a message shows it. */
export type Says = (
  path: string,
  value: unknown,
  parent: Record<string, unknown>,
  got: string,
) => string | undefined;

export interface Fault {
  path: string;
  what: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const patterns = new Map<string, RegExp>();
const regex = (p: string): RegExp => {
  let r = patterns.get(p);
  if (!r) patterns.set(p, (r = new RegExp(p, 'u')));
  return r;
};

/** Whether a value is of a JSON Schema type, before any other keyword; numbers are finite, as JSON has them. */
const KIND: Record<string, (v: unknown) => boolean> = {
  object: isObj,
  array: Array.isArray,
  string: (v) => typeof v === 'string',
  number: Number.isFinite,
  integer: Number.isInteger,
  boolean: (v) => typeof v === 'boolean',
  null: (v) => v === null,
};

/** Whether `value` conforms to `node`. */
export function conforms(node: SchemaNode, value: unknown): boolean {
  if (node.const !== undefined && value !== node.const) return false;
  if (node.anyOf && !node.anyOf.some((n) => conforms(n, value))) return false;
  if (node.not && conforms(node.not, value)) return false;
  if (node.type === undefined) return true;
  if (!KIND[node.type]?.(value)) return false;
  if (typeof value === 'number') return inBounds(node, value);
  if (typeof value === 'string')
    return (
      (node.minLength === undefined || value.length >= node.minLength) &&
      (node.pattern === undefined || regex(node.pattern).test(value))
    );
  if (Array.isArray(value)) return itemsConform(node, value);
  return isObj(value) ? propertiesConform(node, value) : true;
}

function inBounds(node: SchemaNode, n: number): boolean {
  return (
    (node.minimum === undefined || n >= node.minimum) &&
    (node.exclusiveMinimum === undefined || n > node.exclusiveMinimum) &&
    (node.exclusiveMaximum === undefined || n < node.exclusiveMaximum)
  );
}

function itemsConform(node: SchemaNode, list: readonly unknown[]): boolean {
  if (
    (node.minItems !== undefined && list.length < node.minItems) ||
    (node.maxItems !== undefined && list.length > node.maxItems)
  )
    return false;
  const items = node.items;
  if (Array.isArray(items))
    return (
      (node.additionalItems !== false || list.length <= items.length) &&
      items.every((n: SchemaNode, i) => i >= list.length || conforms(n, list[i]))
    );
  if (items === undefined) return true;
  for (let i = 0; i < list.length; i++) if (!conforms(items as SchemaNode, list[i])) return false;
  return true;
}

/** Properties present as undefined count as absent, as a page's own objects may have them. */
function propertiesConform(node: SchemaNode, obj: Obj): boolean {
  if (node.required && !node.required.every((k) => obj[k] !== undefined)) return false;
  for (const [key, child] of Object.entries(node.properties ?? {}))
    if (obj[key] !== undefined && !conforms(child, obj[key])) return false;
  for (const [pattern, child] of Object.entries(node.patternProperties ?? {})) {
    for (const [key, v] of Object.entries(obj))
      if (regex(pattern).test(key) && !conforms(child, v)) return false;
  }
  return node.additionalProperties !== false || unknownKey(node, obj) === undefined;
}

/** The first key of `obj` that `node` neither names nor matches by pattern. */
function unknownKey(node: SchemaNode, obj: Obj): string | undefined {
  const named = Object.keys(node.properties ?? {});
  const patterned = Object.keys(node.patternProperties ?? {}).map(regex);
  return Object.keys(obj).find(
    (k) => obj[k] !== undefined && !named.includes(k) && !patterned.some((r) => r.test(k)),
  );
}

interface Spot {
  node: SchemaNode;
  value: unknown;
  path: string;
  /** The path with array indexes as `[]`, as Says sees it. */
  shape: string;
  parent: Obj;
  /** Set when the fault is a key the object does not allow: the keys it does. */
  unknownKeyOf?: readonly string[];
}

/** The first fault of `value` against `schema`, or null when it conforms. */
export function findFault(schema: SchemaNode, value: unknown, says: Says): Fault | null {
  if (conforms(schema, value)) return null;
  let at: Spot = { node: schema, value, path: '$', shape: '$', parent: {} };
  for (let next = inside(at); next; next = inside(at)) at = next;
  const got = describe(at.value);
  if (at.unknownKeyOf)
    return { path: at.path, what: `unknown key; allowed: ${at.unknownKeyOf.join(', ')}` };
  return {
    path: at.path,
    what:
      says(at.shape, at.value, at.parent, got) ??
      `expected ${expected(at.node, at.value)}, got ${got}`,
  };
}

/** The failing part just inside `at`: a property, an item, or a union's variant. Undefined: `at` itself fails. */
function inside(at: Spot): Spot | undefined {
  const { node, value, path, shape } = at;
  if (node.anyOf) return variant(node.anyOf, at);
  if (node.type === 'object' && isObj(value)) {
    const required = node.required ?? [];
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const v = value[key];
      if (v === undefined ? required.includes(key) : !conforms(child, v))
        return {
          node: child,
          value: v,
          path: `${path}.${key}`,
          shape: `${shape}.${key}`,
          parent: value,
        };
    }
    for (const [pattern, child] of Object.entries(node.patternProperties ?? {})) {
      for (const [key, v] of Object.entries(value)) {
        if (regex(pattern).test(key) && !conforms(child, v))
          return {
            node: child,
            value: v,
            path: `${path}.${key}`,
            shape: `${shape}.${key}`,
            parent: value,
          };
      }
    }
    const extra = node.additionalProperties === false ? unknownKey(node, value) : undefined;
    if (extra !== undefined)
      return {
        node: { not: {} },
        value: value[extra],
        path: `${path}.${extra}`,
        shape: `${shape}.${extra}`,
        parent: value,
        unknownKeyOf: Object.keys(node.properties ?? {}),
      };
  }
  if (node.type === 'array' && Array.isArray(value) && node.items) {
    const items = node.items;
    for (let i = 0; i < value.length; i++) {
      const child = Array.isArray(items) ? (items as SchemaNode[])[i] : (items as SchemaNode);
      if (child && !conforms(child, value[i]))
        return {
          node: child,
          value: value[i],
          path: `${path}[${i}]`,
          shape: `${shape}[]`,
          parent: {},
        };
    }
  }
  return undefined;
}

/**
 * The variant of a union to look inside: the only one of the value's kind (a number where the
 * other is null), or, among objects, the one its discriminator names (a row's status); a
 * discriminator no variant allows is itself the fault. Undefined: the union itself fails.
 */
function variant(variants: readonly SchemaNode[], at: Spot): Spot | undefined {
  const { value } = at;
  const fits = variants.filter((v) => v.type !== undefined && KIND[v.type]?.(value));
  if (fits.length === 1) return { ...at, node: fits[0] as SchemaNode };
  if (fits.length === 0 || !isObj(value)) return undefined;
  const key = Object.keys(fits[0]?.properties ?? {}).find((k) =>
    fits.every((v) => v.required?.includes(k) && choices(v.properties?.[k]).length > 0),
  );
  if (key === undefined) return undefined;
  const chosen = fits.find((v) => conforms(v.properties?.[key] as SchemaNode, value[key]));
  if (chosen) return { ...at, node: chosen };
  const allowed: SchemaNode = {
    anyOf: fits.flatMap((v) => choices(v.properties?.[key]).map((c) => ({ const: c }))),
  };
  return {
    node: allowed,
    value: value[key],
    path: `${at.path}.${key}`,
    shape: `${at.shape}.${key}`,
    parent: value,
  };
}

/** The values a node allows when it is a list of them (a const, or a union of consts); else none. */
function choices(node: SchemaNode | undefined): unknown[] {
  if (node?.const !== undefined) return [node.const];
  const each = node?.anyOf?.map(choices) ?? [];
  return each.length > 0 && each.every((c) => c.length > 0) ? each.flat() : [];
}

/** What a node allows, in words: "a whole number >= 1", "one of fresh, shared". */
function expected(node: SchemaNode, value: unknown): string {
  if (node.const !== undefined) return JSON.stringify(node.const);
  const listed = choices(node);
  if (listed.length > 0) return `one of ${listed.join(', ')}`;
  if (node.anyOf) return [...new Set(node.anyOf.map((n) => expected(n, value)))].join(' or ');
  const min = node.minimum;
  switch (node.type) {
    case 'integer':
      return min === undefined ? 'a whole number' : `a whole number >= ${min}`;
    case 'number':
      return Number.isFinite(value) ? numberBounds(node) : 'a finite number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array':
      return 'an array';
    case 'object':
      return 'an object';
    default:
      return 'nothing here';
  }
}

/** A number's bounds in words: "a finite number", "a number >= 1", "a number above 0 and below 100". */
function numberBounds(node: SchemaNode): string {
  const bounds = [
    node.minimum === undefined ? '' : `>= ${node.minimum}`,
    node.exclusiveMinimum === undefined ? '' : `above ${node.exclusiveMinimum}`,
    node.exclusiveMaximum === undefined ? '' : `below ${node.exclusiveMaximum}`,
  ].filter(Boolean);
  return bounds.length === 0 ? 'a finite number' : `a number ${bounds.join(' and ')}`;
}

/** A value as a message shows it: short, and with any control character escaped by JSON. */
function describe(v: unknown): string {
  if (v === undefined) return 'nothing (the field is missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint')
    return `${typeof v} ${String(v)}`;
  return typeof v; // a function or a symbol, which no JSON holds
}
