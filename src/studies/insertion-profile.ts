import type { Study } from './study.ts';

const ADAPTERS = 'pouchdb-idb,pouchdb-indexeddb,idb';
const SOURCE_SETUP = 'PouchDB 8.0.1 on LevelDB in Node.js 16.17.0, 2021 MacBook Pro M1 Pro 16 GB, macOS 13.5.1; every insert issued at once (Promise.allSettled) into an empty database';
const insertMs = (value: number, docs: string) => [{ value, unit: 'ms' as const, where: `"Inserting ${docs}"`, measuredIn: 'PouchDB 8.0.1 on LevelDB, Node.js 16, M1 Pro' }];

export const insertionProfile: Study = {
  id: 'insertion-profile',
  title: 'PouchDB insertion profile (PouchDB 8)',
  source: {
    title: 'PouchDB Mini-Dive: Performance Profiling - Part 1',
    author: 'Dillon Notz (LinkedIn article)',
    date: '2023',
    url: 'https://www.linkedin.com/pulse/pouchdb-mini-dive-performance-profiling-part-1-dillon-notz',
    setup: SOURCE_SETUP,
    note: "Documents repeat name and link and nest them in sub-objects (storebench's nested fixture imitates the shape)",
  },
  summary:
    'Inserts of 1, 3,333, 33,333 and 100,000 documents into an empty database; a histogram of 100 runs of 10,000 inserts; and a database of 100,000 documents grown in batches of 10,000 past 1,000,000.',
  parts: [
    {
      id: 'inserts',
      title: 'inserts of 1, 3,333, 33,333 and 100,000 documents, all issued at once',
      full: ['--suites', 'insert', '--cases', 'parallel', '--sizes', '1,3333,33333,100000', '--fixture', 'nested', '--adapters', ADAPTERS, '--budget', '10m', '--timeout-ms', '600000'],
      quick: ['--suites', 'insert', '--cases', 'parallel', '--sizes', '1,100,1000', '--fixture', 'nested', '--adapters', ADAPTERS, '--iterations', '6', '--warmup', '1'],
    },
    {
      id: 'histogram',
      title: '100 runs of 10,000 inserts',
      full: ['--suites', 'insert', '--cases', 'parallel', '--sizes', '10000', '--fixture', 'nested', '--adapters', ADAPTERS, '--iterations', '100', '--warmup', '1'],
      quick: ['--suites', 'insert', '--cases', 'parallel', '--sizes', '500', '--fixture', 'nested', '--adapters', ADAPTERS, '--iterations', '8', '--warmup', '1'],
    },
    {
      id: 'growth',
      title: '100,000 documents, then batches of 10,000 past 1,000,000',
      full: ['--suites', 'growth', '--sizes', '100000', '--params', 'batch=10000;batches=91', '--fixture', 'nested', '--adapters', 'idb', '--iterations', '1', '--warmup', '0', '--timeout-ms', '3600000'],
      quick: ['--suites', 'growth', '--sizes', '1000', '--params', 'batch=200;batches=12', '--fixture', 'nested', '--adapters', ADAPTERS, '--iterations', '1', '--warmup', '0'],
    },
  ],
  findings: [
    {
      id: 'per-doc-steady',
      says: 'Time per document stays about the same as the count grows: 100,000 documents took 1.31× the time per document of 33,333 (8,361.61 ms against 2,132.47 ms).',
      part: 'inserts',
      slower: { suite: 'insert', case: 'parallel', size: 'largest' },
      faster: { suite: 'insert', case: 'parallel', size: 'next-largest' },
      claim: { kind: 'about', value: 8361.61 / 100_000 / (2132.47 / 33_333), tolerance: 1.5 },
      published: [...insertMs(8361.61, '100,000 documents'), ...insertMs(2132.47, '33,333 documents')],
    },
  ],
  distribution: { part: 'histogram', says: 'Every run of 10,000 inserts, as the study drew its histogram of 100 runs' },
  growth: { part: 'growth', says: 'The last 10 batches against the first 10, as the study compared them', batches: 10 },
  references: [
    { id: 'one', says: 'Inserting 1 document', part: 'inserts', row: { suite: 'insert', case: 'parallel', size: 1 }, published: insertMs(2.18, '1 document') },
    { id: 'k3', says: 'Inserting 3,333 documents', part: 'inserts', row: { suite: 'insert', case: 'parallel', size: 3333 }, published: insertMs(268.5, '3,333 documents') },
    { id: 'k33', says: 'Inserting 33,333 documents', part: 'inserts', row: { suite: 'insert', case: 'parallel', size: 33333 }, published: insertMs(2132.47, '33,333 documents') },
    { id: 'k100', says: 'Inserting 100,000 documents', part: 'inserts', row: { suite: 'insert', case: 'parallel', size: 100000 }, published: insertMs(8361.61, '100,000 documents') },
  ],
};
