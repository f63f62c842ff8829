/**
 * One colour per adapter, the same in every chart, every run and every version: a fixed colour
 * per known adapter id, so adding a store never repaints the others (a colour by registry
 * position would) and more than ten stores never wrap the palette. An id without a
 * colour here (a new adapter, an old results file) gets one from a hash of its name.
 */

/**
 * Tableau 10, which reads on light and dark backgrounds alike, plus a magenta, a dark teal, a
 * light blue and a neutral grey; neighbours in the registry differ in hue. Memory, the floor every store is compared
 * with, is the grey.
 */
const KNOWN: ReadonlyMap<string, string> = new Map(
  Object.entries({
    'pouchdb-idb': '#4e79a7',
    'pouchdb-indexeddb': '#f28e2b',
    idb: '#59a14f',
    // The IndexedDB floor: a dark teal, apart from idb's green and Dexie's red.
    'indexeddb-raw': '#2f6f6a',
    dexie: '#e15759',
    'localforage-indexeddb': '#b07aa1',
    'localforage-localstorage': '#76b7b2',
    'localforage-websql': '#edc948',
    websql: '#9c755f',
    'sqlite-opfs': '#ff9da7',
    localstorage: '#d37295',
    memory: '#8c8c8c',
    // An older PouchDB: a lighter shade of the current one's blue.
    'pouchdb-idb@7.3.1': '#a0cbe8',
    // The crash suite's control: a lighter shade of idb's green, since it is idb underneath.
    'idb@write-behind': '#8cd17d',
  }),
);

const FALLBACK = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#b07aa1',
  '#76b7b2',
  '#edc948',
  '#9c755f',
  '#ff9da7',
  '#d37295',
  '#499894',
  '#86bcb6',
] as const;

export function adapterColour(id: string): string {
  return KNOWN.get(id) ?? (FALLBACK[hash(id) % FALLBACK.length] as string);
}

/** An instrument (`idb@+10%`, core/plan/variant.ts) says so wherever its colour is explained: it is a store made slower on purpose. */
export function adapterLegend(id: string): string {
  return /@\+[\d.]+%$/.test(id) ? `${id} (instrument, not a store)` : id;
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** One store's line of points in its colour, for the charts of a measure against a count (sizes, tabs). */
export function lineDataset<P>(line: { adapter: string; points: P[] }) {
  const colour = adapterColour(line.adapter);
  return {
    label: line.adapter,
    data: line.points,
    showLine: true,
    borderColor: colour,
    backgroundColor: colour,
    borderWidth: 2,
    pointRadius: 4,
  };
}

/** One bar dataset in a colour: the fill a little transparent, so whiskers and grid show through. */
export function barDataset(label: string, colour: string, data: (number | null)[]) {
  return { label, data, backgroundColor: `${colour}cc`, borderColor: colour, borderWidth: 1 };
}
