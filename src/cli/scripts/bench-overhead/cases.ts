/**
 * The cases `npm run bench:overhead` times twice: through the harness (the built page runs the
 * plan) and through a bare page (public/bare/) that does what the adapter and the case do, with
 * the same library code and the same fixture documents, and nothing else. Most of storebench's
 * cases await many times (a serial insert awaits once per document, a paging walk once per
 * page): an overhead that hides between awaits shows there, not in one bulk put.
 */

/** A library the bare page needs, added to it by the bench as one classic script. */
export type BareLibrary = 'fixtures' | 'idb' | 'pouchdb';

export interface OverheadCase {
  id: string;
  /** What is timed, for the output. */
  title: string;
  suite: string;
  case: string;
  adapter: string;
  /** Documents, unless --size says otherwise. */
  size: number;
  /** The suite parameters the plan sets (and the bare page is given). */
  params?: Record<string, number>;
  /** The bare page under public/bare/. */
  bare: string;
  libraries: readonly BareLibrary[];
  /**
   * Timed samples per run as a multiple of --samples, for a case whose sample takes a few ms: a
   * run of 3 such samples lasts less than one scheduler stall of a busy machine, and its median
   * then moved by 2 to 7 times from round to round here.
   */
  sampleScale?: number;
}

export const OVERHEAD_CASES: readonly OverheadCase[] = [
  {
    id: 'bulk',
    title: 'IndexedDB bulk put (idb)',
    suite: 'insert',
    case: 'bulk',
    adapter: 'idb',
    size: 10_000,
    bare: 'idb-bulk-put.html',
    libraries: ['fixtures', 'idb'],
  },
  {
    id: 'serial-idb',
    title: 'serial insert (idb)',
    suite: 'insert',
    case: 'serial',
    adapter: 'idb',
    size: 1_000,
    bare: 'idb-serial-put.html',
    libraries: ['fixtures', 'idb'],
  },
  {
    id: 'serial-raw',
    title: 'serial insert (indexeddb-raw)',
    suite: 'insert',
    case: 'serial',
    adapter: 'indexeddb-raw',
    size: 1_000,
    bare: 'raw-serial-put.html',
    libraries: ['fixtures'],
  },
  {
    id: 'walk-pouch',
    title: 'paging walk by startkey (pouchdb-idb, shared db)',
    suite: 'paginate',
    case: 'walk-startkey',
    adapter: 'pouchdb-idb',
    size: 1_000,
    params: { pageSize: 100 },
    bare: 'pouchdb-walk-startkey.html',
    libraries: ['fixtures', 'pouchdb'],
    sampleScale: 4,
  },
  {
    id: 'ref-idb',
    title: '10 pages by startkey (idb, shared db)',
    suite: 'paginate',
    case: 'ref-startkey',
    adapter: 'idb',
    size: 1_000,
    bare: 'idb-ref-startkey.html',
    libraries: ['fixtures', 'idb'],
    sampleScale: 20,
  },
];

export const OVERHEAD_CASE_IDS = OVERHEAD_CASES.map((c) => c.id);

/** The fixture and seed of every plan and bare page: the documents are the same on both sides. */
export const FIXTURE = 'person';
export const SEED = 42;
