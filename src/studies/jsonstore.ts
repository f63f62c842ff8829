import type { Study } from './study.ts';

const ADAPTERS = 'idb,dexie,pouchdb-idb,sqlite-opfs,localforage-indexeddb';
const QUICK_ADAPTERS = 'idb,dexie';
const FULL = ['--sizes', '1000,10000,100000', '--adapters', ADAPTERS, '--budget', '10m'];
const QUICK = [
  '--sizes',
  '500',
  '--adapters',
  QUICK_ADAPTERS,
  '--iterations',
  '6',
  '--warmup',
  '1',
];

export const jsonstore: Study = {
  id: 'jsonstore',
  title: 'IBM JSONStore performance study (Worklight 6.2)',
  source: {
    title: 'JSONStore performance',
    author: 'IBM Worklight team, developerWorks blog',
    date: '2014 (Worklight Foundation 6.2)',
    url: 'https://www.ibm.com/developerworks/community/blogs/worklight/entry/jsonstore_performance_breakdown',
    setup:
      'a hybrid Worklight 6.2 app timing each JSONStore call; the discussion uses a Nexus 5; collections of 1,000 to 100,000 documents, with and without encryption',
    note: 'Its figures are charts of time against collection size; the findings below are the trends its text states, not numbers read off the charts',
  },
  summary:
    'One method at a time over collection sizes from 1,000 to 100,000: init, add (and how the chunk size of an add changes its speed), find with a query, limit, offset and a field filter, find by id, count, remove, replace, close and destroy; each with and without encryption.',
  parts: [
    {
      id: 'lifecycle',
      title: 'init (open), closeAll and destroy',
      full: ['--suites', 'lifecycle', '--cases', 'open-empty,open-full,close,destroy', ...FULL],
      quick: ['--suites', 'lifecycle', '--cases', 'open-empty,open-full,close,destroy', ...QUICK],
    },
    {
      id: 'add',
      title: 'add, in chunks of 1 to 1,000 documents and all at once',
      full: [
        '--suites',
        'insert',
        '--cases',
        'chunked-1,chunked-10,chunked-100,chunked-500,chunked-1000,bulk',
        '--params',
        'chunkSizes=1,10,100,500,1000',
        ...FULL,
      ],
      quick: [
        '--suites',
        'insert',
        '--cases',
        'chunked-10,chunked-100,chunked-500,bulk',
        '--params',
        'chunkSizes=10,100,500',
        ...QUICK,
      ],
    },
    {
      id: 'find',
      title: 'find with a query: limit and offset, a field filter, count against find-then-count',
      full: [
        '--suites',
        'find',
        '--cases',
        'gt-skip-limit,gt-projection,gt-count,gt-find-length',
        ...FULL,
      ],
      quick: [
        '--suites',
        'find',
        '--cases',
        'gt-skip-limit,gt-projection,gt-count,gt-find-length',
        ...QUICK,
      ],
    },
    {
      id: 'by-id',
      title: 'find by id: an array of ids against one at a time',
      full: ['--suites', 'read', '--cases', 'get-serial,get-batch', ...FULL],
      quick: ['--suites', 'read', '--cases', 'get-serial,get-batch', ...QUICK],
    },
    {
      id: 'change',
      title: 'replace and remove',
      full: ['--suites', 'update', '--cases', 'replace-bulk,remove-bulk', ...FULL],
      quick: ['--suites', 'update', '--cases', 'replace-bulk,remove-bulk', ...QUICK],
    },
    {
      id: 'encryption',
      title: 'add and find, encrypted (AES-GCM) and in plain text',
      full: ['--suites', 'encryption', ...FULL],
      quick: ['--suites', 'encryption', '--params', 'queries=2', ...QUICK],
    },
  ],
  findings: [
    {
      id: 'chunks-sweet-spot',
      says: 'add is faster per document in chunks of about 500 to 1,000 than in small chunks (its sweet spot).',
      part: 'add',
      slower: { suite: 'insert', case: 'chunked-100', size: 'largest' },
      faster: { suite: 'insert', case: 'chunked-500', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'ids-in-one-call',
      says: 'Finding documents by an array of ids beats finding them one at a time.',
      part: 'by-id',
      slower: { suite: 'read', case: 'get-serial', size: 'largest' },
      faster: { suite: 'read', case: 'get-batch', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'count-beats-find',
      says: 'count with a query beats finding the documents and counting them.',
      part: 'find',
      slower: { suite: 'find', case: 'gt-find-length', size: 'largest' },
      faster: { suite: 'find', case: 'gt-count', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'encryption-costs-add',
      says: 'Encryption makes add slower.',
      part: 'encryption',
      slower: { suite: 'encryption', case: 'insert-encrypted', size: 'largest' },
      faster: { suite: 'encryption', case: 'insert-plain', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
    {
      id: 'encryption-costs-find',
      says: 'Encryption makes find slower.',
      part: 'encryption',
      slower: { suite: 'encryption', case: 'find-encrypted', size: 'largest' },
      faster: { suite: 'encryption', case: 'find-plain', size: 'largest' },
      claim: { kind: 'faster' },
      published: [],
    },
  ],
  references: [],
};
