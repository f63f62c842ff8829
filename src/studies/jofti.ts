import type { Study } from './study.ts';

const ADAPTERS = 'idb,dexie,pouchdb-idb,sqlite-opfs,localforage-indexeddb';

export const jofti: Study = {
  id: 'jofti',
  title: 'Jofti B-tree index with disk overflow',
  source: {
    title:
      'Jofti: indexing for Java object caches, performance notes on its B-tree index with disk overflow',
    author: 'the Jofti project',
    date: 'about 2006',
    url: null,
    setup:
      'inserts in ascending, descending and random key order, timed per batch of 10,000, to 200,000 and 1,000,000 entries, then reads in the same orders',
    note: 'We could not find the published page again, so no figure of it is stored here, only its finding that random order is the worst case',
  },
  summary:
    'Inserts in ascending, descending and random key order, in batches of 10,000, to 200,000 and to 1,000,000 entries; then reads in the same three orders. Random order is the worst case.',
  parts: [
    {
      id: 'key-order',
      title: 'inserts in ascending, descending and random key order, in bulk batches',
      full: [
        '--suites',
        'insert',
        '--cases',
        'order-ascending,order-descending,order-random',
        '--sizes',
        '200000',
        '--params',
        'orderChunk=10000',
        '--adapters',
        ADAPTERS,
        '--budget',
        '10m',
        '--timeout-ms',
        '600000',
      ],
      quick: [
        '--suites',
        'insert',
        '--cases',
        'order-ascending,order-descending,order-random',
        '--sizes',
        '5000',
        '--params',
        'orderChunk=1000',
        '--adapters',
        'idb,dexie',
        '--iterations',
        '6',
        '--warmup',
        '1',
      ],
    },
  ],
  findings: [
    {
      id: 'random-worse-than-ascending',
      says: 'Inserting in random key order is slower than in ascending order.',
      part: 'key-order',
      slower: { suite: 'insert', case: 'order-random', size: 'largest' },
      faster: { suite: 'insert', case: 'order-ascending', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'random-worse-than-descending',
      says: 'Inserting in random key order is slower than in descending order.',
      part: 'key-order',
      slower: { suite: 'insert', case: 'order-random', size: 'largest' },
      faster: { suite: 'insert', case: 'order-descending', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'reads-in-order',
      says: 'Reads in random key order are slower than in ascending or descending order.',
      part: 'key-order',
      slower: { suite: 'read', case: 'get-serial', size: 'largest' },
      faster: { suite: 'read', case: 'get-serial', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
      notMeasurable:
        'storebench has no case that reads by key in a chosen order yet (read/get-serial reads in one order)',
    },
    {
      id: 'million',
      says: 'The same at 1,000,000 entries.',
      part: 'key-order',
      slower: { suite: 'insert', case: 'order-random', size: 'largest' },
      faster: { suite: 'insert', case: 'order-ascending', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
      notMeasurable:
        'a plan of 1,000,000 documents a row holds every document of a row in memory for the key-order cases; the growth suite reaches 1,000,000 in batches instead (insertion-profile study, part growth)',
    },
  ],
  references: [],
};
